/*
 * slbot: what the Slime house bots share: the command-line argument
 * parser, move generation, the rules (as games/slime/slime.c plays them)
 * and the answer. Standalone C, so the bots build in this folder with a
 * plain compiler call.
 */
#ifndef SLBOT_H
#define SLBOT_H

#include <stdint.h>

#define SLB_MAX_SIDE	100
#define SLB_MAX_MOVES	(SLB_MAX_SIDE * SLB_MAX_SIDE * 24)

struct slb_board {
	int n;				/* side */
	char cell[SLB_MAX_SIDE * SLB_MAX_SIDE];	/* '.' or '1'..'4' */
};

struct slb_move {
	int r1, c1, r2, c2;
};

/* Parses "P,row,row,..." into b and *me ('1'..'4'). Returns 0 or -1. */
int slb_parse(const char *arg, struct slb_board *b, char *me);

/* Every legal move of me, spreads to one target counted once (they all
 * have the same effect). Returns the count written to out (room for
 * SLB_MAX_MOVES). */
int slb_moves(const struct slb_board *b, char me, struct slb_move *out);

/* Plays a legal move of me on b. */
void slb_play(struct slb_board *b, char me, const struct slb_move *m);

/* Own cells gained plus enemy cells taken by a legal move, without
 * playing it. */
int slb_gain(const struct slb_board *b, char me, const struct slb_move *m);

/* The best move by slb_gain (the first of equals in slb_moves order);
 * returns 0, or -1 when me has no move with a gain >= 0 (a pass is
 * worth 0). */
int slb_greedy(const struct slb_board *b, char me, struct slb_move *best);

/* Cells holding me. */
int slb_count(const struct slb_board *b, char me);

/* A hash of the argument, to seed choices that must repeat. */
uint64_t slb_hash(const char *s);

/* Prints the move, or "0 0 0 0" (a pass) when m is NULL. */
void slb_answer(const struct slb_move *m);

#endif
