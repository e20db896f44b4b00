/*
 * random: the Dream City house bot that plays a uniformly random legal
 * placement, or passes when there is none. Deterministic: the choice is
 * drawn from a splitmix64 stream seeded by the call number and the map.
 * Build: cc -O2 -o random random.c dcbot.c
 */
#include <stdint.h>

#include "dcbot.h"

struct pick {
	long n;			/* placements seen so far */
	long want;		/* the one to play */
	struct dcb_place at;
};

static uint64_t
mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void
visit(void *ctx, const struct dcb_building *b, int r, int x, int y)
{
	struct pick *p = ctx;

	if (p->n++ == p->want)
		p->at = (struct dcb_place){ b, r, x, y };
}

static int
choose(struct dcb_request *rq, struct dcb_place *at)
{
	uint64_t seed = mix(0x5eed ^ (uint64_t)rq->call);
	struct pick p = { .want = -1 };

	for (int y = 0; y < rq->h; y++)
		for (int x = 0; x < rq->w; x++)
			seed = mix(seed ^ (uint64_t)rq->status[y][x]);
	dcb_each(rq, visit, &p);
	if (p.n > 0) {
		p.want = (long)(seed % (uint64_t)p.n);
		p.n = 0;
		dcb_each(rq, visit, &p);
	}
	*at = p.at;
	return 0;
}

int
main(void)
{
	return dcb_run(choose);
}
