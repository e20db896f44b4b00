/*
 * ai3: the third house AI (subtask 3, 30 points): while more than 14
 * squares are empty it looks one move ahead and plays the move whose
 * result scores best by square weights and mobility (random among
 * equals); then a perfect endgame, as ai2.
 * Build: cc -O2 -o ai3 ai3.c rvbot.c ../rvboard.c
 */
#include "rvbot.h"

#define EXACT_EMPTIES	14

/* The usual square weights: corners are safe forever, the squares that
 * give a corner away are bad while it is empty. */
static const int weight[64] = {
	100, -20, 10,  5,  5, 10, -20, 100,
	-20, -50, -2, -2, -2, -2, -50, -20,
	 10,  -2, -1, -1, -1, -1,  -2,  10,
	  5,  -2, -1, -1, -1, -1,  -2,   5,
	  5,  -2, -1, -1, -1, -1,  -2,   5,
	 10,  -2, -1, -1, -1, -1,  -2,  10,
	-20, -50, -2, -2, -2, -2, -50, -20,
	100, -20, 10,  5,  5, 10, -20, 100,
};

static int
value(uint64_t own, uint64_t opp)
{
	int v = 0;

	for (int sq = 0; sq < 64; sq++)
		v += (int)(own >> sq & 1) * weight[sq] -
		    (int)(opp >> sq & 1) * weight[sq];
	return v + 5 * (rvboard_count(rvboard_moves(own, opp)) -
	    rvboard_count(rvboard_moves(opp, own)));
}

static int
choose(struct rvbot *b)
{
	uint64_t moves = rvboard_moves(b->own, b->opp), best = 0;
	int score, sq, top = -1000000;

	if (b->empties <= EXACT_EMPTIES &&
	    (sq = rvbot_solve(b->own, b->opp, 50000000, &score)) >= 0)
		return sq;
	for (; moves != 0; moves &= moves - 1) {
		uint64_t o = b->own, p = b->opp;
		int v;

		sq = __builtin_ctzll(moves);
		rvboard_play(&o, &p, sq);
		v = value(o, p);
		if (v > top) {
			top = v;
			best = 0;
		}
		if (v == top)
			best |= 1ULL << sq;
	}
	return rvbot_pick(b, best);
}

int
main(void)
{
	return rvbot_run(choose);
}
