/*
 * format_final: one group "A" of the advancers of the stage before, in the
 * order they come (db_stage_advancers(): by group, then rank), so the
 * winners of the groups are listed, and so seated, first; then a single
 * round-robin.
 */
#include "coordinator/format.h"

#include "common/log.h"

int
format_final(const struct spec *spec, size_t stage,
    const size_t *entrants, size_t n, struct plan_stage *ps)
{
	if (n < 2)
		return log_error("final '%s' has %zu entrants; it needs at "
		    "least 2", spec->stages[stage].name, n);
	format_one_group(ps, entrants, n);
	format_round_robin_matches(spec, ps);
	return 0;
}
