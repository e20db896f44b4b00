/*
 * random: a uniformly random legal move (spreads to one cell counted
 * once), or a pass when there is none. The draw is seeded by the
 * argument, so a position always gets the same answer.
 */
#include <stdint.h>

#include <stddef.h>

#include "slbot.h"

int
main(int argc, char **argv)
{
	static struct slb_board b;
	static struct slb_move moves[SLB_MAX_MOVES];
	uint64_t h;
	char me;
	int k;

	if (argc < 2 || slb_parse(argv[argc - 1], &b, &me) == -1) {
		slb_answer(NULL);
		return 1;
	}
	k = slb_moves(&b, me, moves);
	h = slb_hash(argv[argc - 1]);
	h ^= h >> 33;
	slb_answer(k > 0 ? &moves[h % (uint64_t)k] : NULL);
	return 0;
}
