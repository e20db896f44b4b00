/*
 * cmd_plan: `arena plan SPEC [--json]`. Checks the spec as `arena check`
 * does, then prints the plan: the first stage's groups, matches and games,
 * and where each later stage's entrants will come from. The same spec
 * always prints the same bytes, so plans can be diffed.
 */
#include "cli/cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/spec.h"
#include "coordinator/plan.h"
#include "coordinator/tournament.h"

static int
usage(FILE *out, int status)
{
	fprintf(out, "usage: arena plan SPEC [--json]\n");
	return status;
}

int
cmd_plan(int argc, char **argv)
{
	const char *path = NULL;
	struct spec *spec;
	bool json = false;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else if (strcmp(argv[i], "--help") == 0)
			return usage(stdout, 0);
		else if (argv[i][0] == '-' || path != NULL)
			return usage(stderr, 2);
		else
			path = argv[i];
	}
	if (path == NULL)
		return usage(stderr, 2);
	if (tournament_load(path, &spec, NULL) < 0)
		return 1;
	rc = json ? plan_print_json(spec, stdout) : plan_print(spec, stdout);
	if (fflush(stdout) != 0)
		rc = log_errno("cannot write the plan");
	spec_free(spec);
	return rc < 0 ? 1 : 0;
}
