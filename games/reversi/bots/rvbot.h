/*
 * rvbot: the Reversi bot protocol for the house AIs (docs/protocols/
 * reversi.md): reads each request, keeps the board, answers, and offers
 * what several AIs share: a seeded random stream, an exact endgame solver
 * and a clock. rvbot_run() is a bot's main loop, so an AI file holds only
 * its choice of move. Build an AI inside this folder with:
 *	cc -O2 -o ai4 ai4.c rvbot.c ../rvboard.c
 */
#ifndef RVBOT_H
#define RVBOT_H

#include <stdint.h>

#include "../rvboard.h"

struct rvbot {
	uint64_t own, opp;	/* the position, with this bot to move */
	int colour;		/* 0 black, 1 white */
	int empties;
	int64_t time_ms;	/* own remaining time, before this call */
	int64_t first_time_ms;	/* the time given at the first call */
	int64_t started_ms;	/* rvbot_now_ms() when the call came */
	uint64_t rng;		/* advanced only by rvbot_random() */
};

/* Returns the square to play; called only when a move exists. */
typedef int (*rvbot_choose)(struct rvbot *b);

/* Reads requests from stdin and answers them until stdin closes. Returns
 * main()'s exit status (2 on a protocol error, reported on stderr). */
int rvbot_run(rvbot_choose choose);

/* The next number of the bot's seeded stream. */
uint64_t rvbot_random(struct rvbot *b);
/* One of the squares in set (not empty), uniformly. */
int rvbot_pick(struct rvbot *b, uint64_t set);
/* Monotonic milliseconds. */
int64_t rvbot_now_ms(void);

/* The final score of a finished game for own: disc difference with the
 * empty squares counted for the winner. */
int rvbot_final(uint64_t own, uint64_t opp);
/* Exact endgame search: the best move for own (or -1 to pass when there
 * is none) and its final score. Gives up, returning -2, once it has
 * visited max_nodes positions. */
int rvbot_solve(uint64_t own, uint64_t opp, long max_nodes, int *score);
/* Adds sq with key k to order[0..n-1], kept in ascending key order (ties
 * in insertion order), key[] alongside; returns n + 1. */
int rvbot_insert(int *order, int *key, int n, int sq, int k);

#endif
