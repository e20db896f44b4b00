/*
 * rvboard: the Reversi move generator on bit boards, shared by the referee
 * and the house bots (which build it with a plain `cc`, so it depends on
 * nothing but libc). Square sq = row * 8 + col is bit sq; a position is
 * the mover's discs and the opponent's discs.
 */
#ifndef ARENA_RVBOARD_H
#define ARENA_RVBOARD_H

#include <stdint.h>

#define RV_SQ(row, col)	((row) * 8 + (col))
/* Black on e4 and d5, white on d4 and e5 (row, col 0-based). */
#define RV_START_BLACK	((1ULL << RV_SQ(3, 4)) | (1ULL << RV_SQ(4, 3)))
#define RV_START_WHITE	((1ULL << RV_SQ(3, 3)) | (1ULL << RV_SQ(4, 4)))

/* The empty squares where own may move against opp. */
uint64_t rvboard_moves(uint64_t own, uint64_t opp);
/* The opponent discs a move by own on sq turns over (0: not a move). */
uint64_t rvboard_flips(uint64_t own, uint64_t opp, int sq);
/* Plays sq for own, which must be legal; returns the flipped discs. */
uint64_t rvboard_play(uint64_t *own, uint64_t *opp, int sq);
/* Whether neither side can move. */
int rvboard_over(uint64_t own, uint64_t opp);
/* Leaves at depth with Bik's convention: a forced pass is a ply, and a
 * finished game above full depth is one leaf. */
uint64_t rvboard_perft(uint64_t own, uint64_t opp, int depth);
/* Number of set bits. */
int rvboard_count(uint64_t b);

#endif
