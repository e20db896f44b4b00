/*
 * cmd_status: `arena status [SPEC]`, a tournament in progress as the
 * database sees it: games per stage and state, the workers the
 * coordinator has heard from and their health, the running games with
 * their worker and lease, the games that failed at least once with their
 * last event, and later stages a rerun left behind. Read-only: it can run
 * next to a coordinator at any time.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db.h"
#include "coordinator/export.h"
#include "coordinator/pgembed.h"

static int
usage(void)
{
	fprintf(stderr, "usage: arena status [SPEC] [--db URL] [--data DIR]\n");
	return 2;
}

#define CELL(t, r, c) db_rows_cell(t, r, c)

static int
print_stages(struct db *db, int64_t tid, int64_t *failed)
{
	struct db_rows t;

	if (db_status_stages(db, tid, &t) < 0)
		return -1;
	printf("stages:\n");
	for (size_t r = 0; r < t.nrows; r++) {
		if (strcmp(CELL(&t, r, 1), "t") != 0) {
			printf("  %-12s not expanded yet\n", CELL(&t, r, 0));
			continue;
		}
		printf("  %-12s %s/%s done, %s running, %s queued, %s failed\n",
		    CELL(&t, r, 0), CELL(&t, r, 3), CELL(&t, r, 2),
		    CELL(&t, r, 4), CELL(&t, r, 5), CELL(&t, r, 6));
		*failed += atoll(CELL(&t, r, 6));
	}
	db_rows_release(&t);
	return 0;
}

static int
print_workers(struct db *db, int64_t tid)
{
	struct db_rows t;

	if (db_status_workers(db, tid, &t) < 0)
		return -1;
	printf("workers: %zu seen\n", t.nrows);
	for (size_t r = 0; r < t.nrows; r++)
		printf("  %-16s %s slots, %s running, %s games done, %s "
		    "failures, last seen %s (%ss ago)%s%s\n", CELL(&t, r, 0),
		    CELL(&t, r, 2), CELL(&t, r, 7), CELL(&t, r, 5),
		    CELL(&t, r, 6), CELL(&t, r, 3), CELL(&t, r, 4),
		    *CELL(&t, r, 1) ? ", at " : "", CELL(&t, r, 1));
	db_rows_release(&t);
	return 0;
}

static int
print_running(struct db *db, int64_t tid)
{
	struct db_rows t;

	if (db_status_running(db, tid, &t) < 0)
		return -1;
	printf("running: %zu games\n", t.nrows);
	for (size_t r = 0; r < t.nrows; r++)
		printf("  game %s (match %s) attempt %s on %s, lease until %s "
		    "(%ss left)\n", CELL(&t, r, 0), CELL(&t, r, 1),
		    CELL(&t, r, 3), CELL(&t, r, 2), CELL(&t, r, 4),
		    CELL(&t, r, 5));
	db_rows_release(&t);
	return 0;
}

static int
print_failing(struct db *db, int64_t tid)
{
	struct db_rows t;

	if (db_status_failing(db, tid, &t) < 0)
		return -1;
	printf("failing: %zu games\n", t.nrows);
	for (size_t r = 0; r < t.nrows; r++)
		printf("  game %s (match %s) %s at attempt %s; last: %s: %s "
		    "(%s, %s)\n", CELL(&t, r, 0), CELL(&t, r, 1),
		    strcmp(CELL(&t, r, 2), "failed") == 0 ? "FAILED" :
		    CELL(&t, r, 2), CELL(&t, r, 3), CELL(&t, r, 4),
		    CELL(&t, r, 5), *CELL(&t, r, 6) ? CELL(&t, r, 6) : "-",
		    CELL(&t, r, 7));
	db_rows_release(&t);
	return 0;
}

static int
print_stale(struct db *db, int64_t tid)
{
	struct db_stale *rows = NULL;
	size_t n = 0;

	if (db_stale_stages(db, tid, &rows, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		printf("WARNING: stage '%s' now sends on %s, but stage '%s' was "
		    "played by %s and is left as it is\n", rows[i].stage,
		    rows[i].advancers_now, rows[i].next,
		    rows[i].entrants_played);
	db_stale_free(rows, n);
	return 0;
}

int
cmd_status(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'D' },
		{ "data", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_url = NULL, *data_arg = NULL, *spec_path = NULL;
	char *data, *title = NULL;
	struct db *db;
	int64_t tid, failed = 0;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'D': db_url = optarg; break;
		case 'd': data_arg = optarg; break;
		default: return usage();
		}
	}
	if (optind < argc)
		spec_path = argv[optind++];
	if (optind < argc)
		return usage();
	data = pgembed_data_dir(data_arg);
	rc = export_open(spec_path, NULL, db_url, data, &db, &tid, &title);
	free(data);
	if (rc < 0)
		return 1;
	printf("tournament '%s'\n", title);
	rc = print_stages(db, tid, &failed) < 0 || print_workers(db, tid) < 0 ||
	    print_running(db, tid) < 0 || print_failing(db, tid) < 0 ||
	    print_stale(db, tid) < 0;
	if (rc == 0 && failed > 0)
		printf("BLOCKED: %lld failed games are not scored and their "
		    "stage cannot complete; retry each with 'arena rerun SPEC "
		    "--game ID --reason TEXT'\n", (long long)failed);
	free(title);
	db_free(db);
	return rc;
}
