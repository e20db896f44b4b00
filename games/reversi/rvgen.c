/*
 * rvgen: random Reversi openings, so a gauntlet can start its games from
 * varied positions (for bots speaking the protocol natively: the original
 * interface assumes the standard start). A splitmix64 stream seeded from
 * --seed picks each ply uniformly among the legal moves; a forced pass is
 * a ply too. An opening that ends the game is discarded and the stream
 * goes on, so every seed gives a live position.
 */
#include "games/reversi/rvgen.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/reversi/rvboard.h"

#define MAX_PLIES	20

static uint64_t
next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int
parse_num(const char *opt, const char *val, unsigned long long max,
    unsigned long long *out)
{
	char *end;

	if (val == NULL)
		return log_error("usage: option '%s' needs a value", opt);
	errno = 0;
	*out = strtoull(val, &end, 10);
	if (errno != 0 || end == val || *end != '\0' || *out > max ||
	    val[0] == '-')
		return max == UINT64_MAX ?
		    log_error("usage: bad %s '%s'", opt, val) :
		    log_error("usage: bad %s '%s' (0..%llu)", opt, val, max);
	return 0;
}

static int
parse_args(int argc, char **argv, uint64_t *seed, int *plies)
{
	unsigned long long v = 0;
	int seeded = 0;

	*plies = 4;
	for (int i = 1; i < argc; i++) {
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(argv[i], "--seed") == 0) {
			if (parse_num("--seed", val, UINT64_MAX, &v) == -1)
				return -1;
			*seed = v;
			seeded = 1;
		} else if (strcmp(argv[i], "--plies") == 0) {
			if (parse_num("--plies", val, MAX_PLIES, &v) == -1)
				return -1;
			*plies = (int)v;
		} else {
			return log_error("usage: arena gen reversi --seed N "
			    "[--plies 0..%d] (unknown option '%s')", MAX_PLIES,
			    argv[i]);
		}
		i++;
	}
	if (!seeded)
		return log_error("usage: arena gen reversi --seed N "
		    "[--plies 0..%d]", MAX_PLIES);
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

		if (rvboard_over(disc[0], disc[1]))
			return -1;
		for (int n = (int)(next(rng) % (uint64_t)(m ? rvboard_count(m) :
		    1)); m != 0 && n > 0; n--)
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
