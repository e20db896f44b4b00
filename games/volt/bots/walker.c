/*
 * walker: the Volt house bot that walks at random. Each living player
 * stays or steps to a random open neighbour; it never plants a bomb or
 * uses an ability. Its random numbers come from the game's seed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "vtbot.h"

static uint64_t rng;

static unsigned
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng >> 32);
}

static const char *
walk(const struct vb_view *v, const struct vb_obj *p)
{
	const char *choice[5] = { "stay" };
	int n = 1;

	if (!p->alive)
		return "stay";
	for (int d = 0; d < 4; d++)
		if (vb_open(v, p->r + vb_dr[d], p->c + vb_dc[d]))
			choice[n++] = vb_dir[d];
	return choice[next() % (unsigned)n];
}

int
main(void)
{
	static struct vb_view v;
	const struct vb_obj *me[2];

	while (vb_read(&v) == 0) {
		if (rng == 0)
			rng = (v.seed * 2654435761u + (uint64_t)v.team) | 1;
		vb_mine(&v, me);
		printf("%s, %s\n", walk(&v, me[0]), walk(&v, me[1]));
		fflush(stdout);
	}
	return 0;
}
