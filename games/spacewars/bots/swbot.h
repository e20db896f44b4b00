/*
 * swbot: what the Space Wars house bots share: reading input.txt, the
 * geometry of the field, a per-bot state file and writing output.txt.
 * Protocol: docs/protocols/spacewars.md.
 */
#ifndef SWBOT_H
#define SWBOT_H

#include <stdbool.h>

#define SWB_ROWS	40
#define SWB_COLS	50

/* Directions, clockwise from up, as the battleship letters u r d l. */
extern const int swb_dr[4], swb_dc[4];

struct swb_view {
	int turn;			/* 1..999 */
	int r, c;			/* own battleship */
	int facing;			/* own facing, 0..3 */
	char me, enemy;			/* cargo symbols: '1' and '2' */
	int er, ec;			/* enemy battleship, or -1 -1 */
	char f[SWB_ROWS][SWB_COLS];	/* the field as given */
};

/* Reads input.txt of the current folder. Returns 0, or -1 if it is
 * missing or malformed. */
int swb_read(struct swb_view *v);
/* Writes cmd (one of L R E S N) to output.txt. */
void swb_write(char cmd);

bool swb_on_field(int r, int c);
/* Whether the cell holds something a ship collides with: anything but
 * ' ', '*' and rockets ('o'). Cells off the field count as blocked. */
bool swb_blocked(const struct swb_view *v, int r, int c);
/* The first non-rocket object seen from (r, c) looking along dir, or ' '
 * if none; its distance in *dist. */
char swb_first(const struct swb_view *v, int r, int c, int dir, int *dist);
/* Whether ch is a battleship letter. */
bool swb_is_ship(char ch);

/* The bot's memory between calls: one line of n numbers in the file
 * name. Returns how many were read (0 when there is no file). */
int swb_load(const char *name, int *vals, int n);
void swb_save(const char *name, const int *vals, int n);

#endif
