/*
 * cmd_export: `arena export games`, every game with a result as CSV or
 * JSON, for spreadsheets and scripts.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db.h"
#include "coordinator/export.h"

static int
usage(void)
{
	fprintf(stderr,
	    "usage: arena export games [SPEC] [--tournament NAME] "
	    "[--format csv|json]\n"
	    "           [--db URL] [--data DIR]\n"
	    "One row per game that has a result (games not played yet are\n"
	    "left out): stage,group,match,game,dataset,first,second,\n"
	    "score_first,score_second,winner,end_reason; winner is empty for\n"
	    "a draw. The tournament is SPEC's, or NAME, or else the latest.\n");
	return 2;
}

int
cmd_export(int argc, char **argv)
{
	static const struct option options[] = {
		{ "tournament", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		{ "db", required_argument, NULL, 'D' },
		{ "data", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = NULL, *db_url = NULL, *data = NULL;
	const char *spec_path = NULL;
	enum export_format format = EXPORT_CSV;
	struct db_game_row *rows = NULL;
	struct db *db = NULL;
	char *title = NULL;
	size_t n = 0;
	int64_t id;
	int c, rc = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 't': name = optarg; break;
		case 'D': db_url = optarg; break;
		case 'd': data = optarg; break;
		case 'f':
			if (export_format_parse(optarg, &format) < 0)
				return usage();
			if (format != EXPORT_CSV && format != EXPORT_JSON) {
				log_error("games export only as csv or json");
				return usage();
			}
			break;
		default: return usage();
		}
	}
	if (optind >= argc || strcmp(argv[optind], "games") != 0)
		return usage();
	if (++optind < argc)
		spec_path = argv[optind++];
	if (optind < argc || (spec_path && name))
		return usage();
	if (export_open(spec_path, name, db_url, data, &db, &id, &title) < 0)
		return 1;
	if (db_games(db, id, &rows, &n) == 0 &&
	    export_games(stdout, format, rows, n) == 0)
		rc = 0;
	db_games_free(rows, n);
	db_free(db);
	free(title);
	return rc;
}
