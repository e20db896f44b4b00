/*
 * cmd_report: the two commands that read a tournament back, with the same
 * options: `arena standings`, the tables as the database's standings view
 * computes them, and `arena export games`, every played game, for
 * spreadsheets and scripts. Both only read; formats are export.c's.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db.h"
#include "coordinator/export.h"

struct report_opts {
	const char *spec_path;	/* the tournament of this spec, or */
	const char *name;	/* --tournament; neither: the latest */
	const char *stage;	/* --stage (standings only) */
	const char *db_url;
	const char *data;
	enum export_format format;
};

static int
standings_usage(void)
{
	fprintf(stderr,
	    "usage: arena standings [SPEC] [--tournament NAME] [--stage NAME]\n"
	    "           [--format table|csv|md|json|html] [--db URL] "
	    "[--data DIR]\n"
	    "The tournament is SPEC's, or NAME, or else the latest one; every\n"
	    "stage unless one is named. Only matches whose games all have a\n"
	    "result count: a match in progress is not in the table yet.\n"
	    "A gauntlet stage shows games lost and points per opponent; a\n"
	    "combinations stage games played and the average score; an\n"
	    "all_vs_all stage games played, the score total (per repeat)\n"
	    "and the mark, 10 x total / the best total.\n");
	return 2;
}

static int
export_usage(void)
{
	fprintf(stderr,
	    "usage: arena export games [SPEC] [--tournament NAME] "
	    "[--format csv|json]\n"
	    "           [--db URL] [--data DIR]\n"
	    "One row per game that counts and has a result (games not played\n"
	    "yet, and undecided games replayed on a spare dataset, are left\n"
	    "out): stage,group,match,game,dataset,first,second,\n"
	    "score_first,score_second,winner,end_reason (and seats,scores\n"
	    "when a game has more than two seats); winner is empty for a\n"
	    "draw. The tournament is SPEC's, or NAME, or else the latest.\n");
	return 2;
}

/* Options, then word (if any: "games" for export), then [SPEC]; --stage
 * only when stage is true. -1 on a usage error. */
static int
parse_opts(int argc, char **argv, const char *word, bool stage,
    struct report_opts *o)
{
	static const struct option options[] = {
		{ "tournament", required_argument, NULL, 't' },
		{ "stage", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "db", required_argument, NULL, 'D' },
		{ "data", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 't': o->name = optarg; break;
		case 's': if (!stage) return -1; o->stage = optarg; break;
		case 'D': o->db_url = optarg; break;
		case 'd': o->data = optarg; break;
		case 'f':
			if (export_format_parse(optarg, &o->format) < 0)
				return -1;
			break;
		default: return -1;
		}
	}
	if (word && (optind >= argc || strcmp(argv[optind++], word) != 0))
		return -1;
	if (optind < argc)
		o->spec_path = argv[optind++];
	return optind < argc || (o->spec_path && o->name) ? -1 : 0;
}

/* Round-robin and final stages (stage NULL: all of them). */
static int
write_round_robin(struct db *db, int64_t id, const char *stage,
    const struct report_opts *o, const char *title)
{
	struct db_standing *rows = NULL;
	size_t n = 0;
	int rc = -1;

	if (db_standings(db, id, stage, &rows, &n) == 0 &&
	    export_standings(stdout, o->format, title, rows, n) == 0)
		rc = 0;
	db_standings_free(rows, n);
	return rc;
}

static int
write_other(struct db *db, int64_t id, const char *stage, const char *format,
    const struct report_opts *o, const char *title)
{
	struct db_rows t;
	char **cols = NULL;
	int rc = -1;

	if (db_stage_table(db, id, stage, format, &t, &cols) == 0 &&
	    export_table(stdout, o->format, title, &t,
	    (const char *const *)cols) == 0)
		rc = 0;
	db_cols_free(cols, t.ncols);
	db_rows_release(&t);
	return rc;
}

static bool
is_round_robin(const char *format)
{
	return strcmp(format, "round_robin") == 0 ||
	    strcmp(format, "final") == 0;
}

/* Round-robin stages share one table; any other stage
 * has columns of its own, so a tournament with one is written stage by
 * stage, each its own table (in csv, its own header; in json, an array
 * of one array per stage). */
static int
write_standings(struct db *db, int64_t id, const struct report_opts *o,
    const char *title)
{
	struct db_rows st;
	bool plain = true;
	int rc = 0;

	if (db_stage_formats(db, id, o->stage, &st) < 0)
		return -1;
	for (size_t r = 0; r < st.nrows; r++)
		plain = plain && is_round_robin(db_rows_cell(&st, r, 1));
	if (plain)
		rc = write_round_robin(db, id, o->stage, o, title);
	else if (o->format == EXPORT_JSON && st.nrows > 1)
		fputs("[", stdout);
	for (size_t r = 0; !plain && rc == 0 && r < st.nrows; r++) {
		const char *name = db_rows_cell(&st, r, 0);
		const char *format = db_rows_cell(&st, r, 1);

		if (r > 0)
			fputs(o->format == EXPORT_JSON ? "," : o->format ==
			    EXPORT_CSV ? "" : "\n", stdout);
		rc = is_round_robin(format) ?
		    write_round_robin(db, id, name, o, title) :
		    write_other(db, id, name, format, o, title);
	}
	if (!plain && o->format == EXPORT_JSON && st.nrows > 1)
		fputs("]\n", stdout);
	db_rows_release(&st);
	return rc;
}

int
cli_print_standings(struct db *db, int64_t tournament_id, const char *title)
{
	struct report_opts o = { .format = EXPORT_TABLE };

	return write_standings(db, tournament_id, &o, title);
}

int
cmd_standings(int argc, char **argv)
{
	struct report_opts o = { .format = EXPORT_TABLE };
	struct db *db;
	char *title = NULL;
	int64_t id;
	int rc = 1;

	if (parse_opts(argc, argv, NULL, true, &o) < 0)
		return standings_usage();
	if (export_open(o.spec_path, o.name, o.db_url, o.data, &db, &id,
	    &title) < 0)
		return 1;
	if (write_standings(db, id, &o, title) == 0)
		rc = 0;
	db_free(db);
	free(title);
	return rc;
}

int
cmd_export(int argc, char **argv)
{
	struct report_opts o = { .format = EXPORT_CSV };
	struct db_game_row *rows = NULL;
	struct db *db;
	char *title = NULL;
	size_t n = 0;
	int64_t id;
	int rc = 1;

	if (parse_opts(argc, argv, "games", false, &o) < 0)
		return export_usage();
	if (o.format != EXPORT_CSV && o.format != EXPORT_JSON) {
		log_error("games export only as csv or json");
		return export_usage();
	}
	if (export_open(o.spec_path, o.name, o.db_url, o.data, &db, &id,
	    &title) < 0)
		return 1;
	if (db_games(db, id, &rows, &n) == 0 &&
	    export_games(stdout, o.format, rows, n) == 0)
		rc = 0;
	db_games_free(rows, n);
	db_free(db);
	free(title);
	return rc;
}
