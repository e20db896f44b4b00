/*
 * cmd_gen: `arena gen GAME [-o FILE] [GAME OPTIONS]` writes a new dataset
 * made by the game's generator to FILE or stdout. -o is taken out here;
 * every other argument goes to the generator, with argv[0] the game name.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/game.h"

static int
gen_usage(void)
{
	log_error("usage: arena gen GAME --seed N [-o FILE] [GAME OPTIONS]");
	return 2;
}

/* Writes to a temporary name first so a failed run leaves no half file. */
static int
gen_to_file(const struct game *g, int argc, char **argv, const char *path)
{
	char *tmp = xasprintf("%s.tmp", path);
	FILE *out = fopen(tmp, "w");
	int rc;

	if (out == NULL) {
		log_errno("cannot open '%s'", tmp);
		free(tmp);
		return 1;
	}
	rc = g->generate(argc, argv, out) == -1 ? 2 : 0;
	if (fclose(out) != 0 && rc == 0) {
		log_errno("cannot write '%s'", tmp);
		rc = 1;
	}
	if (rc == 0 && rename(tmp, path) != 0) {
		log_errno("cannot rename '%s' to '%s'", tmp, path);
		rc = 1;
	}
	if (rc != 0)
		remove(tmp);
	free(tmp);
	return rc;
}

int
cmd_gen(int argc, char **argv)
{
	const struct game *g;
	const char *path = NULL;
	char **args;
	int n = 0, rc;

	if (argc < 2 || argv[1][0] == '-')
		return gen_usage();
	if ((g = games_find(argv[1])) == NULL) {
		log_error("unknown game '%s' (known: %s)", argv[1],
		    games_list());
		return 2;
	}
	if (g->generate == NULL) {
		log_error("game '%s' has no generator", g->name);
		return 2;
	}
	args = xcalloc((size_t)argc, sizeof *args);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && path == NULL)
			path = argv[++i];
		else if (strcmp(argv[i], "-o") == 0)
			return free(args), gen_usage();
		else
			args[n++] = argv[i];
	}
	if (path != NULL) {
		rc = gen_to_file(g, n, args, path);
	} else {
		rc = g->generate(n, args, stdout) == -1 ? 2 : 0;
		if (rc == 0 && fflush(stdout) != 0) {
			log_errno("cannot write the dataset");
			rc = 1;
		}
	}
	free(args);
	return rc;
}
