/*
 * rvgen: random Reversi openings, so a gauntlet can start its games from
 * varied positions (for bots speaking the protocol natively: the original
 * interface assumes the standard start). A splitmix64 stream seeded from
 * --seed picks each ply uniformly among the legal moves; a forced pass is
 * a ply too. An opening that ends the game is discarded and the stream
 * goes on, so every seed gives a live position.
 */
#include "games/reversi/rvgen.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/genopt.h"
#include "games/reversi/rvboard.h"

#define MAX_PLIES	20

static int
usage(void)
{
	return log_error("usage: arena gen reversi --seed N [--plies 0..%d]",
	    MAX_PLIES);
}

static int
parse_args(int argc, char **argv, uint64_t *seed, int *plies)
{
	const char *opt, *val;
	int seeded = 0, i = 1, more;
	uint64_t v;

	*plies = 4;
	while ((more = genopt_pair(argc, argv, &i, &opt, &val)) == 1) {
		if (strcmp(opt, "--seed") == 0) {
			if (genopt_number(val, seed) == -1)
				return log_error("usage: bad --seed '%s'", val);
			seeded = 1;
		} else if (strcmp(opt, "--plies") == 0) {
			if (genopt_number(val, &v) == -1 || v > MAX_PLIES)
				return log_error("usage: bad --plies '%s' "
				    "(0..%d)", val, MAX_PLIES);
			*plies = (int)v;
		} else {
			return log_error("usage: arena gen reversi --seed N "
			    "[--plies 0..%d] (unknown option '%s')", MAX_PLIES,
			    opt);
		}
	}
	if (more == -1 || !seeded)
		return usage();
	return 0;
}

/* Plays plies random plies for disc[side]; 0 if the game is still on. */
static int
opening(uint64_t *rng, int plies, uint64_t disc[2], int *side)
{
	disc[0] = RV_START_BLACK;
	disc[1] = RV_START_WHITE;
	*side = 0;
	for (int k = 0; k < plies; k++) {
		uint64_t m = rvboard_moves(disc[*side], disc[!*side]);
		int n;

		if (rvboard_over(disc[0], disc[1]))
			return -1;
		n = (int)(genopt_random(rng) %
		    (uint64_t)(m ? rvboard_count(m) : 1));
		for (; m != 0 && n > 0; n--)
			m &= m - 1;
		if (m != 0)
			rvboard_play(&disc[*side], &disc[!*side],
			    __builtin_ctzll(m));
		*side = !*side;
	}
	return rvboard_over(disc[0], disc[1]) ? -1 : 0;
}

int
rvgen_generate(int argc, char **argv, FILE *out)
{
	uint64_t seed = 0, rng, disc[2];
	int plies, side;

	if (parse_args(argc, argv, &seed, &plies) == -1)
		return -1;
	rng = seed;
	while (opening(&rng, plies, disc, &side) == -1)
		;
	fprintf(out, "# arena gen reversi --seed %llu --plies %d\n",
	    (unsigned long long)seed, plies);
	for (int sq = 0; sq < 64; sq++)
		fprintf(out, "%c%s", disc[0] >> sq & 1 ? 'X' :
		    disc[1] >> sq & 1 ? 'O' : '.', sq % 8 == 7 ? "\n" : "");
	fprintf(out, "%s\n", side ? "white" : "black");
	return 0;
}
