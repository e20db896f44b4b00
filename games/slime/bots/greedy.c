/*
 * greedy: the move with the largest net gain now (own cells gained plus
 * enemy cells taken), the first of equals in row, column, target order;
 * a pass when every move would lose cells.
 */
#include <stddef.h>

#include "slbot.h"

int
main(int argc, char **argv)
{
	static struct slb_board b;
	struct slb_move m;
	char me;

	if (argc < 2 || slb_parse(argv[argc - 1], &b, &me) == -1) {
		slb_answer(NULL);
		return 1;
	}
	slb_answer(slb_greedy(&b, me, &m) == 0 ? &m : NULL);
	return 0;
}
