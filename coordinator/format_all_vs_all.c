/*
 * format_all_vs_all: Space Wars' official ranking. Every pair of entrants
 * meets, one match per pair in the order of their positions (so the
 * first is the first two entrants), on every dataset from both sides,
 * repeat times each: game (d * repeat + r) * 2 + s is dataset d,
 * repetition r, the pair's first entrant first when s is 0, second when
 * it is 1. Every game has its own seed, so the repetitions of random
 * bots differ. One group "A" of every entrant; the standings (schema.sql,
 * all_vs_all_standings) sum each entry's scores.
 */
#include "coordinator/format.h"

#include <stdlib.h>

#include "common/log.h"

static void
pair_match(const struct spec *spec, struct plan_stage *ps, size_t x,
    size_t y)
{
	size_t pair[2] = { x, y };
	size_t repeat = spec->stages[ps->stage].repeat;
	struct plan_match *m = format_add_match(spec, ps, 0, pair, 2,
	    spec_pair_games(spec, ps->stage));

	for (size_t k = 0; k < m->ngames; k++) {
		struct plan_game *g = &m->games[k];

		g->dataset = k / (2 * repeat);
		g->nseats = 2;
		g->seats[0] = pair[k % 2];
		g->seats[1] = pair[1 - k % 2];
	}
}

int
format_all_vs_all(const struct spec *spec, size_t stage,
    const size_t *entrants, size_t n, struct plan_stage *ps)
{
	const struct spec_stage *s = &spec->stages[stage];

	if (n < 2)
		return log_error("stage '%s': all_vs_all needs 2 entrants, "
		    "not %zu", s->name, n);
	if (s->repeat < 1)
		return log_error("stage '%s': 'repeat' is 0", s->name);
	format_one_group(ps, entrants, n);
	ps->matches = xcalloc(spec_choose(n, 2) + 1, sizeof *ps->matches);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			pair_match(spec, ps, entrants[i], entrants[j]);
	return 0;
}
