/*
 * greedy: the Dream City house bot that plays the placement worth the most
 * right now (area + cells on its own zone colour), the first one found in
 * list order, rotation, y, x on ties; passes when nothing fits.
 * Build: cc -O2 -o greedy greedy.c dcbot.c
 */

#include "dcbot.h"

struct greedy {
	const struct dcb_request *rq;
	struct dcb_best best;
};

static void
visit(void *ctx, const struct dcb_building *b, int r, int x, int y)
{
	struct greedy *g = ctx;

	dcb_best_offer(&g->best, b->area + dcb_matches(g->rq, b, r, x, y), b,
	    r, x, y);
}

static int
choose(struct dcb_request *rq, struct dcb_place *at)
{
	struct greedy g = { .rq = rq };

	dcb_best_init(&g.best);
	dcb_each(rq, visit, &g);
	*at = g.best.at;
	return 0;
}

int
main(void)
{
	return dcb_run(choose);
}
