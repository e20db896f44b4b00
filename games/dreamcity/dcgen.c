/*
 * dcgen: writes a random Dream City dataset. Zones are a Manhattan Voronoi
 * diagram of random sites (so colours come in blobs), with a few small
 * frozen rectangles on top; buildings are random polyominoes grown inside
 * random boxes of up to half the map's shorter side (at most 10), so that
 * on the default 20x20 map with 12 buildings space runs short. A
 * splitmix64 stream seeded from --seed drives everything, so a seed
 * always gives the same file.
 */
#include "games/dreamcity/dcgen.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/dreamcity/dcdata.h"
#include "games/genopt.h"

#define MAX_BOX	10	/* largest building side */

struct gen {
	uint64_t rng;		/* splitmix64 state */
	int w, h;		/* map size */
	int nbuildings;
};

/* A number in 0..n-1 (n >= 1); the tiny modulo bias does not matter. */
static int
below(struct gen *g, int n)
{
	return (int)(genopt_random(&g->rng) % (uint64_t)n);
}

/* fmt NULL: the error is already logged. */
static int
usage(const char *fmt, const char *arg)
{
	if (fmt != NULL)
		log_error(fmt, arg);
	return log_error("usage: arena gen dreamcity --seed N [--size WxH]"
	    " [--buildings K] [-o FILE]");
}

static int
parse_args(struct gen *g, int argc, char **argv)
{
	const char *opt, *val;
	int seeded = 0, i = 1, more;
	char *end;

	g->w = g->h = 20;
	g->nbuildings = 12;
	while ((more = genopt_pair(argc, argv, &i, &opt, &val)) == 1) {
		if (strcmp(opt, "--seed") == 0) {
			if (genopt_number(val, &g->rng) == -1)
				return usage("bad seed '%s'", val);
			seeded = 1;
		} else if (strcmp(opt, "--size") == 0) {
			long w = strtol(val, &end, 10), h = 0;

			if (*end == 'x')
				h = strtol(end + 1, &end, 10);
			if (*end != '\0' || w < 1 || w > DC_MAX_SIDE || h < 1 ||
			    h > DC_MAX_SIDE)
				return usage("bad size '%s' (WxH, 1..50 each)",
				    val);
			g->w = (int)w;
			g->h = (int)h;
		} else if (strcmp(opt, "--buildings") == 0) {
			long k = strtol(val, &end, 10);

			if (*val == '\0' || *end != '\0' || k < 1 ||
			    k > DC_MAX_BUILDINGS)
				return usage("bad building count '%s'"
				    " (1..1000)", val);
			g->nbuildings = (int)k;
		} else {
			return usage("unknown option '%s'", opt);
		}
	}
	if (more == -1)
		return usage(NULL, NULL);
	if (!seeded)
		return usage("missing %s", "--seed");
	return 0;
}

static void
gen_zones(struct gen *g, char *zone)
{
	static const char site_zones[] = "LBI.";
	int nsites = 4 + g->w * g->h / 15, nfrozen = 1 + g->w * g->h / 80;
	int *sx = xmalloc((size_t)nsites * sizeof *sx);
	int *sy = xmalloc((size_t)nsites * sizeof *sy);
	char *sz = xmalloc((size_t)nsites);

	for (int i = 0; i < nsites; i++) {
		sx[i] = below(g, g->w);
		sy[i] = below(g, g->h);
		sz[i] = site_zones[below(g, 4)];
	}
	for (int y = 0; y < g->h; y++) {
		for (int x = 0; x < g->w; x++) {
			int best = 0, bestd = 1 << 30;

			for (int i = 0; i < nsites; i++) {
				int d = abs(x - sx[i]) + abs(y - sy[i]);

				if (d < bestd) {
					best = i;
					bestd = d;
				}
			}
			zone[y * g->w + x] = sz[best];
		}
	}
	for (int i = 0; i < nfrozen; i++) {
		int fw = 1 + below(g, 3), fh = 1 + below(g, 3);
		int fx = below(g, g->w), fy = below(g, g->h);

		for (int y = fy; y < fy + fh && y < g->h; y++)
			for (int x = fx; x < fx + fw && x < g->w; x++)
				zone[y * g->w + x] = '#';
	}
	free(sx);
	free(sy);
	free(sz);
}

/* Grows a 4-connected polyomino of 50..90% of the w x h box. */
static void
gen_mask(struct gen *g, int w, int h, char *mask)
{
	int target = w * h * (50 + below(g, 41)) / 100, area = 1;

	if (target < 1)
		target = 1;
	memset(mask, '.', (size_t)(w * h));
	mask[below(g, w * h)] = 'X';
	while (area < target) {
		int c = below(g, w * h), x = c % w, y = c / w;

		if (mask[c] == 'X')
			continue;
		if ((x > 0 && mask[c - 1] == 'X') ||
		    (x < w - 1 && mask[c + 1] == 'X') ||
		    (y > 0 && mask[c - w] == 'X') ||
		    (y < h - 1 && mask[c + w] == 'X')) {
			mask[c] = 'X';
			area++;
		}
	}
}

static void
gen_buildings(struct gen *g, FILE *out)
{
	int side = (g->w < g->h ? g->w : g->h) / 2, id = below(g, 5);
	char mask[MAX_BOX * MAX_BOX];

	if (side > MAX_BOX)
		side = MAX_BOX;
	if (side < 1)
		side = 1;
	fprintf(out, "buildings %d\n", g->nbuildings);
	for (int k = 0; k < g->nbuildings; k++) {
		int w = 1 + below(g, side < g->w ? side : g->w);
		int h = 1 + below(g, side < g->h ? side : g->h);

		id += 1 + below(g, 3);
		gen_mask(g, w, h, mask);
		fprintf(out, "building %d %d %d %s\n", id, w, h,
		    dcdata_type_word(DC_LIVING + below(g, DC_COLOURS)));
		for (int y = 0; y < h; y++)
			fprintf(out, "%.*s\n", w, mask + y * w);
	}
}

int
dcgen_generate(int argc, char **argv, FILE *out)
{
	struct gen g = { 0 };
	uint64_t seed;
	char *zone;

	if (parse_args(&g, argc, argv) == -1)
		return -1;
	seed = g.rng;
	zone = xmalloc((size_t)(g.w * g.h));
	gen_zones(&g, zone);
	fprintf(out, "; arena gen dreamcity --seed %llu --size %dx%d"
	    " --buildings %d\n", (unsigned long long)seed, g.w, g.h,
	    g.nbuildings);
	fprintf(out, "dreamcity-dataset 1\nsize %d %d\nzones\n", g.w, g.h);
	for (int y = 0; y < g.h; y++)
		fprintf(out, "%.*s\n", g.w, zone + y * g.w);
	gen_buildings(&g, out);
	free(zone);
	return 0;
}
