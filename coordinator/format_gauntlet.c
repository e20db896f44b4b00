/*
 * format_gauntlet: each ranked entrant plays each listed opponent, one
 * match per (entrant, opponent), in entrant then opponent order. A match
 * plays each dataset 2 * games_per_side times, the entrant first in the
 * even games and the opponent first in the odd ones, so both colours are
 * played equally. The opponents are not ranked: the stage's one group "A"
 * holds the other entrants, in the order they come.
 */
#include "coordinator/format.h"

#include <stdlib.h>

#include "common/log.h"

static void
opponent_match(const struct spec *spec, struct plan_stage *ps, size_t entry,
    size_t opponent)
{
	const struct spec_stage *s = &spec->stages[ps->stage];
	size_t pair[2] = { entry, opponent };
	size_t block = 2 * s->games_per_side;
	struct plan_match *m = format_add_match(spec, ps, 0, pair, 2,
	    spec_gauntlet_games(spec, ps->stage));

	for (size_t k = 0; k < m->ngames; k++) {
		struct plan_game *g = &m->games[k];

		g->dataset = k / block;
		g->nseats = 2;
		g->seats[0] = pair[k % 2];
		g->seats[1] = pair[1 - k % 2];
	}
}

int
format_gauntlet(const struct spec *spec, size_t stage, const size_t *entrants,
    size_t n, struct plan_stage *ps)
{
	const struct spec_stage *s = &spec->stages[stage];
	size_t *opp = xcalloc(s->nopponents + 1, sizeof *opp);
	struct plan_group *grp;

	for (size_t k = 0; k < s->nopponents; k++) {
		int e = spec_entry_index(spec, s->opponents[k].entry);

		if (e < 0) {
			free(opp);
			return log_error("gauntlet '%s': no entry '%s'",
			    s->name, s->opponents[k].entry);
		}
		opp[k] = (size_t)e;
	}
	/* The group ranks the entrants that are not opponents. */
	grp = format_one_group(ps, entrants, n);
	grp->nmembers = 0;
	for (size_t i = 0; i < n; i++)
		if (!spec_is_opponent(spec, stage, entrants[i]))
			grp->members[grp->nmembers++] = entrants[i];
	if (grp->nmembers == 0) {
		free(opp);
		return log_error("gauntlet '%s' ranks nobody: every entrant "
		    "is an opponent", s->name);
	}
	ps->matches = xcalloc(grp->nmembers * s->nopponents + 1,
	    sizeof *ps->matches);
	for (size_t i = 0; i < grp->nmembers; i++)
		for (size_t k = 0; k < s->nopponents; k++)
			opponent_match(spec, ps, grp->members[i], opp[k]);
	free(opp);
	return 0;
}
