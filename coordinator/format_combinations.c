/*
 * format_combinations: every k-subset of the entrants meets, one match per
 * subset, subsets in lexicographic order of the entrants' positions (so
 * the first is the first k entrants). With rotation each dataset is played
 * k times, the subset turned one seat further each time (game r seats
 * subset[(i + r) % k] in seat i), so everyone plays every seat; without
 * it once per dataset in subset order, as the original controller did.
 * One group "A" of every entrant.
 */
#include "coordinator/format.h"

#include <stdlib.h>

#include "common/log.h"

static void
subset_match(const struct spec *spec, struct plan_stage *ps,
    const size_t *entries, size_t k)
{
	size_t nrot = spec->stages[ps->stage].rotation ? k : 1;
	struct plan_match *m = format_add_match(spec, ps, 0, entries, k,
	    nrot * spec->ndatasets);

	for (size_t g = 0; g < m->ngames; g++) {
		struct plan_game *pg = &m->games[g];

		pg->dataset = g / nrot;
		pg->nseats = k;
		for (size_t i = 0; i < k; i++)
			pg->seats[i] = entries[(i + g % nrot) % k];
	}
}

/* Next k-subset of positions 0..n-1 after pos, lexicographically; false
 * after the last. */
static bool
next_subset(size_t *pos, size_t k, size_t n)
{
	size_t i = k;

	while (i > 0 && pos[i - 1] == n - k + i - 1)
		i--;
	if (i == 0)
		return false;
	pos[i - 1]++;
	for (size_t j = i; j < k; j++)
		pos[j] = pos[j - 1] + 1;
	return true;
}

int
format_combinations(const struct spec *spec, size_t stage,
    const size_t *entrants, size_t n, struct plan_stage *ps)
{
	const struct spec_stage *s = &spec->stages[stage];
	size_t k = plan_stage_seats(spec, stage), total;
	size_t pos[PROTO_MAX_SEATS], entries[PROTO_MAX_SEATS];

	if (k < 2 || k > PROTO_MAX_SEATS || k > n)
		return log_error("stage '%s': cannot seat %zu of %zu entrants",
		    s->name, k, n);
	total = spec_choose(n, k);
	if (total > 1000000)
		return log_error("stage '%s': %zu subsets are too many",
		    s->name, total);
	format_one_group(ps, entrants, n);
	ps->matches = xcalloc(total + 1, sizeof *ps->matches);
	for (size_t i = 0; i < k; i++)
		pos[i] = i;
	do {
		for (size_t i = 0; i < k; i++)
			entries[i] = entrants[pos[i]];
		subset_match(spec, ps, entries, k);
	} while (next_subset(pos, k, n));
	return 0;
}
