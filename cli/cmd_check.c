/*
 * cmd_check: `arena check SPEC`. Loads the spec (its own shape), checks it
 * against its game (name, seats, every dataset through the game's parser),
 * prints every problem to stderr, and for a good spec one summary line to
 * stdout, so a script can tell what the tournament will play.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "common/spec.h"
#include "coordinator/plan.h"
#include "coordinator/tournament.h"

static void
print_stage(const struct spec *spec, size_t i, FILE *out)
{
	const struct spec_stage *s = &spec->stages[i];
	size_t n = spec_stage_entrants(spec, i);
	size_t ngroups = spec_stage_ngroups(spec, i, n);
	size_t nmatches, ngames;

	plan_stage_size(spec, i, &nmatches, &ngames);

	fprintf(out, "%s %s (", i ? "," : "", s->name);
	if (i > 0)
		fprintf(out, "%zu entrants, ", n);
	if (s->format == SPEC_ROUND_ROBIN)
		fprintf(out, "%zu group%s, ", ngroups, ngroups == 1 ? "" : "s");
	if (s->advance > 0)
		fprintf(out, "top %zu advance, ", s->advance);
	fprintf(out, "%zu matches, %zu games)", nmatches, ngames);
}

static void
print_summary(const struct spec *spec, FILE *out)
{
	fprintf(out, "%s: '%s', game %s, %zu entr%s, %zu dataset%s,",
	    spec->path, spec->name, spec->game, spec->nentries,
	    spec->nentries == 1 ? "y" : "ies", spec->ndatasets,
	    spec->ndatasets == 1 ? "" : "s");
	if (spec->nspares > 0)
		fprintf(out, " %zu spare%s,", spec->nspares,
		    spec->nspares == 1 ? "" : "s");
	fputs(" stages:", out);
	for (size_t i = 0; i < spec->nstages; i++)
		print_stage(spec, i, out);
	fputc('\n', out);
}

int
cmd_check(int argc, char **argv)
{
	struct spec *spec;

	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		printf("usage: arena check SPEC\n");
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: arena check SPEC\n");
		return 2;
	}
	if (tournament_load(argv[1], &spec, NULL) < 0)
		return 1;
	print_summary(spec, stdout);
	spec_free(spec);
	return 0;
}
