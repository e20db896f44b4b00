/*
 * cmd_standings: `arena standings`, the tables of one tournament as the
 * database's standings view computes them, in one of export's formats.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/log.h"
#include "coordinator/db.h"
#include "coordinator/export.h"

static int
usage(void)
{
	fprintf(stderr,
	    "usage: arena standings [SPEC] [--tournament NAME] [--stage NAME]\n"
	    "           [--format table|csv|md|json|html] [--db URL] "
	    "[--data DIR]\n"
	    "The tournament is SPEC's, or NAME, or else the latest one; every\n"
	    "stage unless one is named. Only matches whose games all have a\n"
	    "result count: a match in progress is not in the table yet.\n");
	return 2;
}

int
cmd_standings(int argc, char **argv)
{
	static const struct option options[] = {
		{ "tournament", required_argument, NULL, 't' },
		{ "stage", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "db", required_argument, NULL, 'D' },
		{ "data", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = NULL, *stage = NULL, *db_url = NULL, *data = NULL;
	const char *spec_path = NULL;
	enum export_format format = EXPORT_TABLE;
	struct db_standing *rows = NULL;
	struct db *db = NULL;
	char *title = NULL;
	size_t n = 0;
	int64_t id;
	int c, rc = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 't': name = optarg; break;
		case 's': stage = optarg; break;
		case 'D': db_url = optarg; break;
		case 'd': data = optarg; break;
		case 'f':
			if (export_format_parse(optarg, &format) < 0)
				return usage();
			break;
		default: return usage();
		}
	}
	if (optind < argc)
		spec_path = argv[optind++];
	if (optind < argc || (spec_path && name))
		return usage();
	if (export_open(spec_path, name, db_url, data, &db, &id, &title) < 0)
		return 1;
	if (db_standings(db, id, stage, &rows, &n) == 0 &&
	    export_standings(stdout, format, title, rows, n) == 0)
		rc = 0;
	db_standings_free(rows, n);
	db_free(db);
	free(title);
	return rc;
}
