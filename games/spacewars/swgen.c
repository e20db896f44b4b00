/*
 * swgen: writes a random point-symmetric Space Wars field. Asteroids come
 * in mirror pairs: K/2 distinct cells are drawn from the upper half of the
 * field (the cells before the centre in reading order, whose mirrors are
 * exactly the cells after it), away from the start cells and their
 * neighbours, by a partial Fisher-Yates shuffle driven by a splitmix64
 * stream seeded from --seed; so a seed always gives the same file.
 */
#include "games/spacewars/swgen.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/genopt.h"
#include "games/spacewars/swfield.h"

#define HALF		(SW_ROWS * SW_COLS / 2)
#define DEFAULT_ASTEROIDS 100

struct gen {
	uint64_t rng;		/* splitmix64 state */
	int asteroids;		/* even */
};

static int
usage(void)
{
	return log_error("usage: arena gen spacewars --seed N"
	    " [--asteroids K] [-o FILE]");
}

/* The cells of the upper half where an asteroid pair may go. */
static int
free_cells(int *cells)
{
	int n = 0;

	for (int i = 0; i < HALF; i++)
		if (!swfield_near_start(i / SW_COLS, i % SW_COLS))
			cells[n++] = i;
	return n;
}

static int
parse_args(struct gen *g, int argc, char **argv, int max)
{
	const char *opt, *val;
	bool seeded = false;
	int i = 1, more;
	char *end;

	g->asteroids = DEFAULT_ASTEROIDS;
	while ((more = genopt_pair(argc, argv, &i, &opt, &val)) == 1) {
		if (strcmp(opt, "--seed") == 0) {
			if (genopt_number(val, &g->rng) == -1) {
				log_error("bad seed '%s'", val);
				return usage();
			}
			seeded = true;
		} else if (strcmp(opt, "--asteroids") == 0) {
			long k = strtol(val, &end, 10);

			if (*val == '\0' || *end != '\0' || k < 0 ||
			    k > 2 * max || k % 2 != 0) {
				log_error("bad asteroid count '%s' (they come"
				    " in mirror pairs: even, 0..%d)", val,
				    2 * max);
				return usage();
			}
			g->asteroids = (int)k;
		} else {
			log_error("unknown option '%s'", opt);
			return usage();
		}
	}
	if (more == -1)
		return usage();
	if (!seeded) {
		log_error("missing --seed");
		return usage();
	}
	return 0;
}

int
swgen_generate(int argc, char **argv, FILE *out)
{
	bool rock[SW_ROWS][SW_COLS];
	int cells[HALF], n = free_cells(cells);
	struct gen g = { 0 };
	uint64_t seed;

	if (parse_args(&g, argc, argv, n) == -1)
		return -1;
	seed = g.rng;
	memset(rock, 0, sizeof rock);
	for (int k = 0; k < g.asteroids / 2; k++) {
		int j = k + (int)(genopt_random(&g.rng) % (uint64_t)(n - k)), t = cells[j];
		int r = t / SW_COLS, c = t % SW_COLS;

		cells[j] = cells[k];
		cells[k] = t;
		rock[r][c] = rock[sw_mirror_row(r)][sw_mirror_col(c)] = true;
	}
	fprintf(out, "; arena gen spacewars --seed %llu --asteroids %d\n"
	    SW_FIELD_HEADER "\n", (unsigned long long)seed, g.asteroids);
	for (int r = 0; r < SW_ROWS; r++) {
		for (int c = 0; c < SW_COLS; c++) {
			char ch = swfield_start_symbol(r, c);

			fputc(ch != ' ' ? ch : rock[r][c] ? '#' : ' ', out);
		}
		fputc('\n', out);
	}
	return 0;
}
