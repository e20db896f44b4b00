/*
 * cmd_show: `arena show game ID | match ID`, a game's whole record as the
 * database keeps it: where it was played, every attempt with each bot's
 * verdict and usage (CPU, wall, peak memory), why attempts ended without
 * a result, the reruns (who asked, why, how the standings changed) and
 * with --replay the moves.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db.h"
#include "coordinator/pgembed.h"

static int
usage(void)
{
	fprintf(stderr, "usage: arena show game ID | match ID [--replay] "
	    "[--db URL] [--data DIR]\n");
	return 2;
}

static void
print_attempt(const struct db_attempt *a, bool replay)
{
	char why[64] = " (superseded)";

	if (a->current)
		snprintf(why, sizeof why, " (counted)");
	else if (a->superseded_by)
		snprintf(why, sizeof why, " (superseded by rerun %" PRId64 ")",
		    a->superseded_by);
	printf("attempt %d%s, worker %s, %s, referee %s\n", a->attempt, why,
	    a->worker, a->at, a->referee);
	for (size_t i = 0; i < a->nseats; i++) {
		const struct db_seat_usage *s = &a->seats[i];

		printf("  %c %-16s score %-6" PRId64 " %s", (int)('A' + i),
		    s->entry, s->score, s->verdict);
		if (s->illegal)
			printf(" (%d illegal)", s->illegal);
		printf("  cpu %" PRId64 " ms, wall %" PRId64 " ms, peak %"
		    PRId64 " MB\n", s->cpu_ms, s->wall_ms,
		    (s->peak_kb + 1023) / 1024);
		if (s->artifact)
			printf("    bot sha256 %s\n", s->artifact);
	}
	printf("  end %s%s%s\n", a->end_reason, *a->detail ? ": " : "",
	    a->detail);
	if (!replay)
		return;
	printf("  replay:\n");
	for (const char *p = a->replay; *p; ) {
		size_t n = strcspn(p, "\n");

		printf("    %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/* A rerun: who asked, why, and the standings rows it changed. */
static int
print_rerun(struct db *db, int64_t id)
{
	struct db_rerun_info r;
	int found = db_rerun_info(db, id, &r);

	if (found <= 0)
		return found < 0 ? -1 : log_error("no rerun %" PRId64, id);
	printf("rerun %" PRId64 " asked by %s at %s: %s\n", r.id, r.by, r.at,
	    r.reason);
	printf("  games %s\n", r.games);
	if (r.nchanges == 0)
		printf("  standings of stage '%s' unchanged%s\n", r.stage,
		    r.complete ? "" : " so far");
	for (size_t i = 0; i < r.nchanges; i++)
		printf("  standings %s %s %s: %s -> %s%s\n", r.stage,
		    r.changes[i].group, r.changes[i].entry,
		    r.changes[i].before ? r.changes[i].before : "-",
		    r.changes[i].after ? r.changes[i].after : "-",
		    r.complete ? "" : " (so far)");
	db_rerun_info_release(&r);
	return 0;
}

/* Says when a later stage no longer follows this game's stage. */
static int
print_stale(struct db *db, const char *tournament, const char *stage)
{
	struct db_stale *rows = NULL;
	int64_t tid;
	size_t n = 0;

	if (db_tournament_find(db, tournament, &tid) != 1 ||
	    db_stale_stages(db, tid, &rows, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].stage, stage) == 0)
			printf("WARNING: stage '%s' now sends on %s, but stage "
			    "'%s' was played by %s and is left as it is\n",
			    rows[i].stage, rows[i].advancers_now, rows[i].next,
			    rows[i].entrants_played);
	db_stale_free(rows, n);
	return 0;
}

static void
print_game(const struct db_game_detail *d, bool replay)
{
	printf("game %" PRId64 " of '%s': stage %s, group %s, match %" PRId64
	    ", game %d; ", d->game, d->tournament, d->stage, d->group,
	    d->match, d->idx + 1);
	if (d->nseats > 2)
		printf("seats %s\n", d->seat_names);
	else
		printf("%s first, %s second\n", d->first, d->second);
	printf("dataset %s, seed %s, %s, attempt %d\n", d->dataset, d->seed,
	    d->state, d->attempt);
	if (d->replaced_by != 0)
		printf("undecided: replaced by game %" PRId64 " on a spare "
		    "dataset, which counts instead\n", d->replaced_by);
	for (size_t i = 0; i < d->nattempts; i++)
		print_attempt(&d->attempts[i], replay);
	for (size_t i = 0; i < d->nevents; i++)
		printf("attempt %d ended without a result: %s: %s (%s, %s)\n",
		    d->events[i].attempt, d->events[i].kind,
		    d->events[i].reason, d->events[i].worker ?
		    d->events[i].worker : "-", d->events[i].at);
	if (strcmp(d->state, "failed") == 0)
		printf("FAILED: not scored, and its stage cannot complete; "
		    "retry with 'arena rerun --game %" PRId64 " --reason "
		    "TEXT'\n", d->game);
}

static int
show_game(struct db *db, int64_t id, bool replay)
{
	struct db_game_detail d;
	int found = db_game_detail(db, id, &d);

	if (found == 0)
		return log_error("no game %" PRId64, id);
	if (found < 0)
		return -1;
	print_game(&d, replay);
	for (size_t i = 0; i < d.nreruns && found == 1; i++)
		if (print_rerun(db, d.reruns[i]) < 0)
			found = -1;
	if (found == 1 && print_stale(db, d.tournament, d.stage) < 0)
		found = -1;
	db_game_detail_release(&d);
	return found == 1 ? 0 : -1;
}

static int
show_match(struct db *db, int64_t id, bool replay)
{
	int64_t *games = NULL;
	size_t n = 0;
	int rc = 0;

	if (db_match_games(db, id, &games, &n) < 0)
		return -1;
	if (n == 0)
		rc = log_error("no match %" PRId64, id);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (i > 0)
			putchar('\n');
		rc = show_game(db, games[i], replay);
	}
	free(games);
	return rc;
}

int
cmd_show(int argc, char **argv)
{
	static const struct option options[] = {
		{ "replay", no_argument, NULL, 'r' },
		{ "db", required_argument, NULL, 'D' },
		{ "data", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_url = NULL, *data_arg = NULL;
	struct db *db;
	bool replay = false;
	long id;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'r': replay = true; break;
		case 'D': db_url = optarg; break;
		case 'd': data_arg = optarg; break;
		default: return usage();
		}
	}
	if (optind != argc - 2 || (strcmp(argv[optind], "game") != 0 &&
	    strcmp(argv[optind], "match") != 0) ||
	    cli_parse_count("the id", argv[optind + 1], 1, INT64_MAX, &id) < 0)
		return usage();
	if ((db = pgembed_connect(db_url, data_arg)) == NULL)
		return 1;
	rc = (strcmp(argv[optind], "game") == 0 ? show_game(db, id, replay) :
	    show_match(db, id, replay)) < 0;
	db_free(db);
	return rc;
}
