/*
 * cmd_rerun: `arena rerun [SPEC] (--game ID | --match ID)... --reason TEXT`,
 * disputes. One transaction records who asked and why with the stage's
 * standings before, and puts the games back in the queue with attempt + 1
 * (their old results stay in the history, no longer counted). Then, unless
 * --queue-only (a coordinator already serves the tournament elsewhere),
 * the games are played as `arena run` plays a tournament, with the same
 * seeds, and the standings rows that changed are printed.
 *
 * A later stage already expanded from this stage's standings is left as
 * it was played (see coordinator/db_rerun.c); when the advancers now
 * differ from its entrants this says so loudly, as do `arena show` and
 * `arena status`.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "coordinator/db.h"
#include "coordinator/export.h"
#include "coordinator/pgembed.h"

#define RERUN_MAX_IDS 256

struct rerun_opts {
	const char *spec_path, *reason, *by, *db_url, *data_arg;
	int64_t games[RERUN_MAX_IDS], matches[RERUN_MAX_IDS];
	size_t ngames, nmatches;
	long workers;
	bool queue_only;
};

static int
usage(void)
{
	fprintf(stderr, "usage: arena rerun [SPEC] (--game ID | --match ID)... "
	    "--reason TEXT [--by NAME]\n"
	    "        [--workers N] [--queue-only] [--db URL] [--data DIR]\n");
	return 2;
}

static int
add_id(const char *opt, const char *arg, int64_t *ids, size_t *n)
{
	long v;

	if (*n == RERUN_MAX_IDS) {
		fprintf(stderr, "arena: at most %d %s options\n", RERUN_MAX_IDS,
		    opt);
		return -1;
	}
	if (cli_parse_count(opt, arg, 1, INT64_MAX, &v) < 0)
		return -1;
	ids[(*n)++] = v;
	return 0;
}

static int
parse_opts(int argc, char **argv, struct rerun_opts *o)
{
	static const struct option options[] = {
		{ "game", required_argument, NULL, 'g' },
		{ "match", required_argument, NULL, 'm' },
		{ "reason", required_argument, NULL, 'r' },
		{ "by", required_argument, NULL, 'b' },
		{ "workers", required_argument, NULL, 'w' },
		{ "queue-only", no_argument, NULL, 'q' },
		{ "db", required_argument, NULL, 'D' },
		{ "data", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		int rc = 0;

		switch (c) {
		case 'g': rc = add_id("--game", optarg, o->games, &o->ngames); break;
		case 'm': rc = add_id("--match", optarg, o->matches,
		    &o->nmatches); break;
		case 'r': o->reason = optarg; break;
		case 'b': o->by = optarg; break;
		case 'w': rc = cli_parse_count("--workers", optarg, 1, 64,
		    &o->workers); break;
		case 'q': o->queue_only = true; break;
		case 'D': o->db_url = optarg; break;
		case 'd': o->data_arg = optarg; break;
		default: return -1;
		}
		if (rc < 0)
			return -1;
	}
	if (optind < argc)
		o->spec_path = argv[optind++];
	if (optind < argc || o->ngames + o->nmatches == 0)
		return -1;
	if (o->reason == NULL || *o->reason == '\0') {
		fprintf(stderr, "arena: a rerun needs --reason TEXT: why the "
		    "games are played again, for the record\n");
		return -1;
	}
	if (o->spec_path == NULL && !o->queue_only) {
		fprintf(stderr, "arena: give the SPEC to play the games, or "
		    "--queue-only to leave them to a running coordinator\n");
		return -1;
	}
	return 0;
}

/* The games asked for: --game ids, then every game of each --match.
 * Caller owns *games; free(). */
static int
collect_games(struct db *db, const struct rerun_opts *o, int64_t **games,
    size_t *n)
{
	*games = xcalloc(o->ngames + 1, sizeof **games);
	memcpy(*games, o->games, o->ngames * sizeof **games);
	*n = o->ngames;
	for (size_t i = 0; i < o->nmatches; i++) {
		int64_t *mg;
		size_t mn;

		if (db_match_games(db, o->matches[i], &mg, &mn) < 0)
			return -1;
		if (mn == 0) {
			free(mg);
			return log_error("no match %" PRId64, o->matches[i]);
		}
		*games = xrealloc(*games, (*n + mn) * sizeof **games);
		memcpy(*games + *n, mg, mn * sizeof *mg);
		*n += mn;
		free(mg);
	}
	return 0;
}

/* Connects; with a spec, *tid is its tournament (every game must belong
 * to it) and *have_tid is set. */
static int
open_db(const struct rerun_opts *o, struct db **db, int64_t *tid,
    bool *have_tid)
{
	char *title = NULL, *data = pgembed_data_dir(o->data_arg);
	int rc = 0;

	*have_tid = o->spec_path != NULL;
	if (o->spec_path) {
		rc = export_open(o->spec_path, NULL, o->db_url, data, db, tid,
		    &title);
		free(title);
	} else if ((*db = pgembed_connect(o->db_url, data)) == NULL)
		rc = -1;
	free(data);
	return rc;
}

static void
print_changes(const struct db_rerun_info *r)
{
	if (r->nchanges == 0) {
		printf("standings of stage '%s': unchanged\n", r->stage);
		return;
	}
	printf("standings of stage '%s' changed%s:\n", r->stage, r->complete ?
	    "" : " (so far; games left to play)");
	for (size_t i = 0; i < r->nchanges; i++) {
		const struct db_change *c = &r->changes[i];

		printf("  %s %-12s before: %s\n", c->group, c->entry,
		    c->before ? c->before : "-");
		printf("  %s %-12s after:  %s\n", c->group, c->entry,
		    c->after ? c->after : "-");
	}
}

/* Says loudly which later stages no longer follow their predecessor. */
static int
warn_stale(struct db *db, int64_t tid)
{
	struct db_stale *rows = NULL;
	size_t n = 0;

	if (db_stale_stages(db, tid, &rows, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "arena: WARNING: stage '%s' now sends on %s, "
		    "but stage '%s' was already played by %s; it is left as "
		    "it is: rerun its matches, or run the spec again as a new "
		    "tournament, if it must follow\n", rows[i].stage,
		    rows[i].advancers_now, rows[i].next,
		    rows[i].entrants_played);
	db_stale_free(rows, n);
	return 0;
}

static int
report(struct db *db, int64_t rerun_id)
{
	struct db_rerun_info r;
	bool complete;
	int found;

	if (db_rerun_finish(db, rerun_id, &complete) < 0 ||
	    (found = db_rerun_info(db, rerun_id, &r)) < 0)
		return -1;
	if (found == 0)
		return log_error("no rerun %" PRId64, rerun_id);
	print_changes(&r);
	db_rerun_info_release(&r);
	return 0;
}

/* user@host, for the record, when --by is not given. */
static char *
who(const char *by)
{
	const char *user = getenv("USER");
	char host[256];

	if (by)
		return xstrdup(by);
	if (gethostname(host, sizeof host) < 0)
		strcpy(host, "?");
	host[sizeof host - 1] = '\0';
	return xasprintf("%s@%s", user && *user ? user : "?", host);
}

static int
rerun(const struct rerun_opts *o)
{
	struct db *db = NULL;
	int64_t *games = NULL, tid, rid;
	size_t n;
	char *by = who(o->by);
	bool have_tid;
	int rc = 1, found;

	if (open_db(o, &db, &tid, &have_tid) < 0 ||
	    collect_games(db, o, &games, &n) < 0)
		goto out;
	if (!have_tid && (found = db_game_tournament(db, games[0], &tid)) != 1) {
		if (found == 0)
			log_error("no game %" PRId64, games[0]);
		goto out;
	}
	if (db_rerun_request(db, tid, games, n, by, o->reason, &rid) < 0)
		goto out;
	printf("rerun %" PRId64 " by %s: %zu game%s queued again\n", rid, by,
	    n, n == 1 ? "" : "s");
	if (!o->queue_only && cli_run_queued(o->spec_path, o->db_url,
	    o->data_arg, o->workers) != 0) {
		log_error("the rerun games were not all played; 'arena status' "
		    "says where they are");
		goto out;
	}
	if (report(db, rid) < 0 || warn_stale(db, tid) < 0)
		goto out;
	rc = 0;
out:
	free(games);
	free(by);
	db_free(db);
	return rc;
}

int
cmd_rerun(int argc, char **argv)
{
	struct rerun_opts o = { .workers = 2 };

	if (parse_opts(argc, argv, &o) < 0)
		return usage();
	return rerun(&o);
}
