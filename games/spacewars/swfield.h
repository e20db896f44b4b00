/*
 * swfield: the Space Wars field (the start position: asteroids and the
 * fixed start cells of the ships) and its text file format, documented in
 * docs/games/spacewars.md.
 */
#ifndef ARENA_SWFIELD_H
#define ARENA_SWFIELD_H

#include <stdbool.h>
#include <stddef.h>

#define SW_ROWS		40
#define SW_COLS		50
#define SW_CARGO	9	/* cargo ships per player */
#define SW_FIELD_HEADER	"spacewars-field 1"	/* first line after comments */

struct game_dataset {
	bool asteroid[SW_ROWS][SW_COLS];	/* point-symmetric */
	int nasteroids;
};

/* Player 1's start cells; player 2's are their mirror images. */
extern const int sw_cargo_start[SW_CARGO][2];	/* (row, col) */
extern const int sw_ship_start[2];		/* (row, col) */

/* The point mirror through the field's centre. */
static inline int
sw_mirror_row(int r)
{
	return SW_ROWS - 1 - r;
}

static inline int
sw_mirror_col(int c)
{
	return SW_COLS - 1 - c;
}

/* The symbol of the start object of (r, c): '1', '2' (cargo), 'd' (player
 * 1's battleship), 'u' (player 2's), or ' ' if none starts there. */
char swfield_start_symbol(int r, int c);
/* Whether (r, c) is a start cell or one of its 8 neighbours: no asteroid
 * may be placed there. */
bool swfield_near_start(int r, int c);

/* Parses a field file's text. On failure returns NULL and writes
 * "name:line:col: message" into err. Caller owns the result; free with
 * swfield_free(). */
struct game_dataset *swfield_parse(const char *name, const char *text,
    size_t len, char *err, size_t errlen);
void swfield_free(struct game_dataset *ds);

#endif
