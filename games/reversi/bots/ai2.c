/*
 * ai2: the second house AI (subtask 2, 20 points): random moves while
 * more than 14 squares are empty, then a perfect endgame (exact search to
 * the end of the game, best final disc difference).
 * Build: cc -O2 -o ai2 ai2.c rvbot.c ../rvboard.c
 */
#include "rvbot.h"

#define EXACT_EMPTIES	14

static int
choose(struct rvbot *b)
{
	int score, sq;

	if (b->empties <= EXACT_EMPTIES &&
	    (sq = rvbot_solve(b->own, b->opp, 50000000, &score)) >= 0)
		return sq;
	return rvbot_pick(b, rvboard_moves(b->own, b->opp));
}

int
main(void)
{
	return rvbot_run(choose);
}
