/*
 * ai1: the first house AI, a uniformly random legal move (subtask 1 of
 * the original, worth 10 points). Seeded by the referee's seed.
 * Build: cc -O2 -o ai1 ai1.c rvbot.c ../rvboard.c
 */
#include "rvbot.h"

static int
choose(struct rvbot *b)
{
	return rvbot_pick(b, rvboard_moves(b->own, b->opp));
}

int
main(void)
{
	return rvbot_run(choose);
}
