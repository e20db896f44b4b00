/*
 * greedy: the Dream City house bot that plays the placement worth the most
 * right now (area + cells on its own zone colour), the first one found in
 * list order, rotation, y, x on ties; passes when nothing fits.
 * Build: cc -O2 -o greedy greedy.c dcbot.c
 */
#include <stdio.h>

#include "dcbot.h"

struct best {
	const struct dcb_request *rq;
	int value;		/* -1 until a placement is seen */
	const struct dcb_building *b;
	int r, x, y;
};

static void
visit(void *ctx, const struct dcb_building *b, int r, int x, int y)
{
	struct best *bs = ctx;
	int v = b->area + dcb_matches(bs->rq, b, r, x, y);

	if (v > bs->value) {
		bs->value = v;
		bs->b = b;
		bs->r = r;
		bs->x = x;
		bs->y = y;
	}
}

int
main(void)
{
	struct dcb_request rq;
	int rc;

	dcb_init(&rq);
	while ((rc = dcb_read(stdin, &rq)) == 1) {
		struct best bs = { .rq = &rq, .value = -1 };

		dcb_each(&rq, visit, &bs);
		dcb_reply(&rq, bs.b, bs.r, bs.x, bs.y);
	}
	dcb_release(&rq);
	return rc == 0 ? 0 : 1;
}
