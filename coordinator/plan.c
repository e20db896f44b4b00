/*
 * plan: expands a stage into groups, matches and games, and prints a
 * spec's whole plan. A format (format_*.c, one row of the table below)
 * forms the groups, the matches and their games; format.c has what they
 * share.
 */
#include "coordinator/plan.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/log.h"
#include "coordinator/format.h"
#include "games/game.h"

static format_fn *const formats[] = {
	[SPEC_ROUND_ROBIN] = format_round_robin,
	[SPEC_FINAL] = format_final,
	[SPEC_GAUNTLET] = format_gauntlet,
	[SPEC_COMBINATIONS] = format_combinations,
	[SPEC_ALL_VS_ALL] = format_all_vs_all,
};

int
plan_expand(const struct spec *spec, size_t stage, const size_t *entrants,
    size_t nentrants, struct plan_stage **out)
{
	struct plan_stage *ps;

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

size_t
plan_stage_seats(const struct spec *spec, size_t stage)
{
	const struct spec_stage *s = &spec->stages[stage];
	const struct game *g;

	if (s->format != SPEC_COMBINATIONS)
		return 2;
	if (s->seats > 0)
		return s->seats;
	g = games_find(spec->game);
	return g != NULL ? (size_t)g->max_seats : 2;
}

void
plan_stage_size(const struct spec *spec, size_t stage, size_t *nmatches,
    size_t *ngames)
{
	const struct spec_stage *s = &spec->stages[stage];
	size_t n = spec_stage_entrants(spec, stage), k;

	switch (s->format) {
	case SPEC_GAUNTLET:
		*nmatches = spec_stage_matches(spec, stage);
		*ngames = *nmatches * spec_gauntlet_games(spec, stage);
		break;
	case SPEC_COMBINATIONS:
		k = plan_stage_seats(spec, stage);
		*nmatches = spec_choose(n, k);
		*ngames = *nmatches * (s->rotation ? k : 1) * spec->ndatasets;
		break;
	case SPEC_ALL_VS_ALL:
		*nmatches = spec_stage_matches(spec, stage);
		*ngames = *nmatches * spec_pair_games(spec, stage);
		break;
	default:
		*nmatches = spec_stage_matches(spec, stage);
		*ngames = *nmatches * 2 * spec->ndatasets;
	}
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
	size_t n = spec_stage_entrants(spec, i), nmatches, ngames;

	plan_stage_size(spec, i, &nmatches, &ngames);
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
	for (size_t k = 0; k < s->nopponents; k++)
		fprintf(out, "%s%s", k ? ", " : ", opponents ",
		    s->opponents[k].entry);
	if (s->format == SPEC_COMBINATIONS)
		fprintf(out, ", %zu seats%s", plan_stage_seats(spec, i),
		    s->rotation ? ", rotated" : "");
	if (s->format == SPEC_ALL_VS_ALL)
		fprintf(out, ", every pair %zu time%s per dataset and side",
		    s->repeat, s->repeat == 1 ? "" : "s");
	if (s->advance > 0)
		fprintf(out, ", top %zu advance", s->advance);
	fprintf(out, ", %zu matches, %zu games", nmatches, ngames);
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

		fprintf(out, "  match %zu, group %s: ", m + 1,
		    ps->groups[pm->group].name);
		for (size_t k = 0; k < pm->nentries; k++)
			fprintf(out, "%s%s", k ? " vs " : "",
			    entry_name(spec, pm->entries[k]));
		fputc('\n', out);
		for (size_t k = 0; k < pm->ngames; k++) {
			const struct plan_game *pg = &pm->games[k];

			fprintf(out, "    game %zu: %s", ++number,
			    spec->datasets[pg->dataset].name);
			for (size_t t = 0; t < pg->nseats; t++)
				fprintf(out, ", %c %s", (char)('A' + t),
				    entry_name(spec, pg->seats[t]));
			fprintf(out, ", seed %" PRIu64 "\n", pg->seed);
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
	/* Only when given, so older plans print as they did. */
	if (spec->nspares > 0)
		fprintf(out, "\nspare datasets (for undecided games):");
	for (size_t d = 0; d < spec->nspares; d++)
		fprintf(out, "%s %s", d ? "," : "", spec->spares[d].name);
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
	/* Two seats keep their old keys, so old plans still diff clean. */
	if (pg->nseats == 2) {
		fputs(", \"first\": ", out);
		json_write_string(out, entry_name(spec, pg->seats[0]));
		fputs(", \"second\": ", out);
		json_write_string(out, entry_name(spec, pg->seats[1]));
	} else {
		fputs(", \"seats\": ", out);
		json_names(out, spec, pg->seats, pg->nseats);
	}
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
		if (pm->nentries == 2) {
			fputs(", \"a\": ", out);
			json_write_string(out, entry_name(spec,
			    pm->entries[0]));
			fputs(", \"b\": ", out);
			json_write_string(out, entry_name(spec,
			    pm->entries[1]));
		} else {
			fputs(", \"entries\": ", out);
			json_names(out, spec, pm->entries, pm->nentries);
		}
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
	size_t n = spec_stage_entrants(spec, i), nmatches, ngames;

	plan_stage_size(spec, i, &nmatches, &ngames);
	fputs("  {\"name\": ", out);
	json_write_string(out, s->name);
	fputs(", \"format\": ", out);
	json_write_string(out, spec_format_name(s->format));
	fprintf(out, ", \"entrants\": %zu, \"ngroups\": %zu, "
	    "\"advance\": %zu, \"nmatches\": %zu, \"ngames\": %zu, "
	    "\"expanded\": %s", n, spec_stage_ngroups(spec, i, n), s->advance,
	    nmatches, ngames, i == 0 ? "true" :
	    "false");
	if (s->format == SPEC_ALL_VS_ALL)
		fprintf(out, ", \"repeat\": %zu", s->repeat);
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
	if (spec->nspares > 0)
		fputs("],\n \"spare_datasets\": [", out);
	for (size_t d = 0; d < spec->nspares; d++) {
		if (d)
			fputs(", ", out);
		json_write_string(out, spec->spares[d].name);
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
