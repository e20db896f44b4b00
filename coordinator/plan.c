/*
 * plan: expands a stage into groups, matches and games, and prints a
 * spec's whole plan.
 *
 * A format (format_*.c, one row of the table below) forms the groups;
 * everything after is shared. Each group plays a single round-robin by the
 * circle method: members stand in draw order, the first stays put and the
 * others turn one place a round, so every pair meets exactly once and
 * nobody plays twice in a round (an odd group gets a bye). A match lists
 * the member drawn first as a. Each match plays every dataset twice, a
 * first then b first, and each game's seed is a hash of (spec seed,
 * stage, group, match, game): a game can be replayed alone, and changing
 * one stage never moves another's seeds.
 */
#include "coordinator/plan.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/log.h"
#include "coordinator/format.h"

/* Game seeds stay below 2^53 so they survive JSON readers that hold
 * numbers in doubles, and PostgreSQL's signed bigint. */
#define SEED_MASK ((UINT64_C(1) << 53) - 1)

static format_groups_fn *const formats[] = {
	[SPEC_ROUND_ROBIN] = format_round_robin_groups,
	[SPEC_FINAL] = format_final_groups,
};

static void
add_games(const struct spec *spec, size_t stage, struct plan_match *m,
    size_t index)
{
	m->ngames = 2 * spec->ndatasets;
	m->games = xcalloc(m->ngames + 1, sizeof *m->games);
	for (size_t k = 0; k < m->ngames; k++) {
		struct plan_game *g = &m->games[k];
		uint64_t h = format_mix(spec->seed, stage);

		h = format_mix(format_mix(h, m->group), index);
		g->dataset = k / 2;
		g->first = k % 2 ? m->b : m->a;
		g->second = k % 2 ? m->a : m->b;
		g->seed = format_mix(h, k) & SEED_MASK;
	}
}

static void
add_match(const struct spec *spec, struct plan_stage *ps, size_t group,
    size_t x, size_t y)
{
	const struct plan_group *grp = &ps->groups[group];
	struct plan_match *m = &ps->matches[ps->nmatches];

	m->group = group;
	m->a = grp->members[x < y ? x : y];
	m->b = grp->members[x < y ? y : x];
	add_games(spec, ps->stage, m, ps->nmatches);
	ps->nmatches++;
}

/* The circle method over member positions; position n is the bye. */
static void
group_matches(const struct spec *spec, struct plan_stage *ps, size_t group)
{
	size_t n = ps->groups[group].nmembers, slots = n + n % 2;
	size_t *at = xcalloc(slots + 1, sizeof *at);

	for (size_t i = 0; i < slots; i++)
		at[i] = i;
	for (size_t round = 0; round + 1 < slots; round++) {
		size_t last = at[slots - 1];

		for (size_t i = 0; i < slots / 2; i++)
			if (at[i] < n && at[slots - 1 - i] < n)
				add_match(spec, ps, group, at[i],
				    at[slots - 1 - i]);
		memmove(at + 2, at + 1, (slots - 2) * sizeof *at);
		at[1] = last;
	}
	free(at);
}

int
plan_expand(const struct spec *spec, size_t stage, const size_t *entrants,
    size_t nentrants, struct plan_stage **out)
{
	struct plan_stage *ps;
	size_t total = 0;

	*out = NULL;
	if (stage >= spec->nstages)
		return log_error("no stage %zu in '%s'", stage, spec->path);
	ps = xcalloc(1, sizeof *ps);
	ps->stage = stage;
	if (formats[spec->stages[stage].format](spec, stage, entrants,
	    nentrants, ps) < 0) {
		plan_stage_free(ps);
		return -1;
	}
	for (size_t g = 0; g < ps->ngroups; g++)
		total += ps->groups[g].nmembers * (ps->groups[g].nmembers - 1) /
		    2;
	ps->matches = xcalloc(total + 1, sizeof *ps->matches);
	for (size_t g = 0; g < ps->ngroups; g++)
		group_matches(spec, ps, g);
	*out = ps;
	return 0;
}

void
plan_stage_free(struct plan_stage *ps)
{
	if (ps == NULL)
		return;
	for (size_t g = 0; g < ps->ngroups; g++) {
		free(ps->groups[g].name);
		free(ps->groups[g].members);
	}
	for (size_t m = 0; m < ps->nmatches; m++)
		free(ps->matches[m].games);
	free(ps->groups);
	free(ps->matches);
	free(ps);
}

size_t
plan_stage_entrants(const struct spec *spec, size_t stage)
{
	return spec_stage_entrants(spec, stage);
}

/* ---- printing ---- */

static int
expand_first(const struct spec *spec, struct plan_stage **ps)
{
	size_t *all = xcalloc(spec->nentries + 1, sizeof *all);
	int rc;

	for (size_t i = 0; i < spec->nentries; i++)
		all[i] = i;
	rc = plan_expand(spec, 0, all, spec->nentries, ps);
	free(all);
	return rc;
}

static const char *
entry_name(const struct spec *spec, size_t e)
{
	return spec->entries[e].name;
}

static void
print_stage_head(const struct spec *spec, size_t i, FILE *out)
{
	const struct spec_stage *s = &spec->stages[i];
	size_t n = spec_stage_entrants(spec, i);
	size_t nmatches = spec_stage_matches(spec, i);

	fprintf(out, "\nstage '%s' (%s): ", s->name,
	    spec_format_name(s->format));
	if (i == 0)
		fprintf(out, "%zu entrants", n);
	else
		fprintf(out, "entrants: top %zu of each group of '%s' "
		    "(%zu entrants)", spec->stages[i - 1].advance,
		    spec->stages[i - 1].name, n);
	if (s->format == SPEC_ROUND_ROBIN)
		fprintf(out, ", %zu group%s", spec_stage_ngroups(spec, i, n),
		    spec_stage_ngroups(spec, i, n) == 1 ? "" : "s");
	if (s->advance > 0)
		fprintf(out, ", top %zu advance", s->advance);
	fprintf(out, ", %zu matches, %zu games", nmatches,
	    nmatches * 2 * spec->ndatasets);
	if (i > 0)
		fprintf(out, "; expanded when '%s' is done",
		    spec->stages[i - 1].name);
	fputc('\n', out);
}

static void
print_expanded(const struct spec *spec, const struct plan_stage *ps,
    FILE *out)
{
	size_t number = 0;

	for (size_t g = 0; g < ps->ngroups; g++) {
		const struct plan_group *grp = &ps->groups[g];

		fprintf(out, "  group %s:", grp->name);
		for (size_t k = 0; k < grp->nmembers; k++)
			fprintf(out, "%s %s", k ? "," : "",
			    entry_name(spec, grp->members[k]));
		fputc('\n', out);
	}
	for (size_t m = 0; m < ps->nmatches; m++) {
		const struct plan_match *pm = &ps->matches[m];

		fprintf(out, "  match %zu, group %s: %s vs %s\n", m + 1,
		    ps->groups[pm->group].name, entry_name(spec, pm->a),
		    entry_name(spec, pm->b));
		for (size_t k = 0; k < pm->ngames; k++) {
			const struct plan_game *pg = &pm->games[k];

			fprintf(out, "    game %zu: %s, A %s, B %s, seed %"
			    PRIu64 "\n", ++number,
			    spec->datasets[pg->dataset].name,
			    entry_name(spec, pg->first),
			    entry_name(spec, pg->second), pg->seed);
		}
	}
}

int
plan_print(const struct spec *spec, FILE *out)
{
	struct plan_stage *ps;

	if (expand_first(spec, &ps) < 0)
		return -1;
	fprintf(out, "tournament '%s', game %s, seed %" PRIu64 "\n",
	    spec->name, spec->game, spec->seed);
	fprintf(out, "datasets:");
	for (size_t d = 0; d < spec->ndatasets; d++)
		fprintf(out, "%s %s", d ? "," : "", spec->datasets[d].name);
	fprintf(out, "\nentries:");
	for (size_t e = 0; e < spec->nentries; e++)
		fprintf(out, "%s %s", e ? "," : "", entry_name(spec, e));
	fputc('\n', out);
	for (size_t i = 0; i < spec->nstages; i++) {
		print_stage_head(spec, i, out);
		if (i == 0)
			print_expanded(spec, ps, out);
	}
	plan_stage_free(ps);
	return ferror(out) ? log_error("cannot write the plan") : 0;
}

/* ---- JSON ---- */

static void
json_names(FILE *out, const struct spec *spec, const size_t *entries,
    size_t n)
{
	fputc('[', out);
	for (size_t k = 0; k < n; k++) {
		if (k)
			fputs(", ", out);
		json_write_string(out, entry_name(spec, entries[k]));
	}
	fputc(']', out);
}

static void
json_game(FILE *out, const struct spec *spec, const struct plan_game *pg,
    size_t number)
{
	fprintf(out, "{\"game\": %zu, \"dataset\": ", number);
	json_write_string(out, spec->datasets[pg->dataset].name);
	fputs(", \"first\": ", out);
	json_write_string(out, entry_name(spec, pg->first));
	fputs(", \"second\": ", out);
	json_write_string(out, entry_name(spec, pg->second));
	fprintf(out, ", \"seed\": %" PRIu64 "}", pg->seed);
}

static void
json_expanded(FILE *out, const struct spec *spec, const struct plan_stage *ps)
{
	size_t number = 0;

	fputs(",\n   \"groups\": [", out);
	for (size_t g = 0; g < ps->ngroups; g++) {
		fprintf(out, "%s\n    {\"name\": ", g ? "," : "");
		json_write_string(out, ps->groups[g].name);
		fputs(", \"members\": ", out);
		json_names(out, spec, ps->groups[g].members,
		    ps->groups[g].nmembers);
		fputc('}', out);
	}
	fputs("],\n   \"matches\": [", out);
	for (size_t m = 0; m < ps->nmatches; m++) {
		const struct plan_match *pm = &ps->matches[m];

		fprintf(out, "%s\n    {\"match\": %zu, \"group\": ",
		    m ? "," : "", m + 1);
		json_write_string(out, ps->groups[pm->group].name);
		fputs(", \"a\": ", out);
		json_write_string(out, entry_name(spec, pm->a));
		fputs(", \"b\": ", out);
		json_write_string(out, entry_name(spec, pm->b));
		fputs(", \"games\": [", out);
		for (size_t k = 0; k < pm->ngames; k++) {
			fputs(k ? ",\n      " : "\n      ", out);
			json_game(out, spec, &pm->games[k], ++number);
		}
		fputs("]}", out);
	}
	fputc(']', out);
}

static void
json_stage(FILE *out, const struct spec *spec, size_t i,
    const struct plan_stage *ps)
{
	const struct spec_stage *s = &spec->stages[i];
	size_t n = spec_stage_entrants(spec, i);
	size_t nmatches = spec_stage_matches(spec, i);

	fputs("  {\"name\": ", out);
	json_write_string(out, s->name);
	fputs(", \"format\": ", out);
	json_write_string(out, spec_format_name(s->format));
	fprintf(out, ", \"entrants\": %zu, \"ngroups\": %zu, "
	    "\"advance\": %zu, \"nmatches\": %zu, \"ngames\": %zu, "
	    "\"expanded\": %s", n, spec_stage_ngroups(spec, i, n), s->advance,
	    nmatches, nmatches * 2 * spec->ndatasets, i == 0 ? "true" :
	    "false");
	if (i > 0) {
		fputs(",\n   \"from\": {\"stage\": ", out);
		json_write_string(out, spec->stages[i - 1].name);
		fprintf(out, ", \"top\": %zu}", spec->stages[i - 1].advance);
	} else
		json_expanded(out, spec, ps);
	fputc('}', out);
}

int
plan_print_json(const struct spec *spec, FILE *out)
{
	struct plan_stage *ps;

	if (expand_first(spec, &ps) < 0)
		return -1;
	fputs("{\"tournament\": ", out);
	json_write_string(out, spec->name);
	fputs(",\n \"game\": ", out);
	json_write_string(out, spec->game);
	fprintf(out, ",\n \"seed\": %" PRIu64 ",\n \"datasets\": [",
	    spec->seed);
	for (size_t d = 0; d < spec->ndatasets; d++) {
		if (d)
			fputs(", ", out);
		json_write_string(out, spec->datasets[d].name);
	}
	fputs("],\n \"entries\": [", out);
	for (size_t e = 0; e < spec->nentries; e++) {
		if (e)
			fputs(", ", out);
		json_write_string(out, entry_name(spec, e));
	}
	fputs("],\n \"stages\": [\n", out);
	for (size_t i = 0; i < spec->nstages; i++) {
		json_stage(out, spec, i, ps);
		fputs(i + 1 < spec->nstages ? ",\n" : "\n", out);
	}
	fputs(" ]}\n", out);
	plan_stage_free(ps);
	return ferror(out) ? log_error("cannot write the plan") : 0;
}
