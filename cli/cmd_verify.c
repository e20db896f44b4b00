/*
 * cmd_verify: `arena verify GAME... | --all [SPEC]`, plays each game's
 * counted result again with its referee on the stored moves, without the
 * bots, and says whether the scores and the end agree with what was
 * recorded. Exit 0 when every game matches, 1 when one does not or cannot
 * be checked.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db.h"
#include "coordinator/export.h"
#include "coordinator/pgembed.h"
#include "games/replay.h"

static int
usage(void)
{
	fprintf(stderr, "usage: arena verify GAME... | --all [SPEC] "
	    "[--db URL] [--data DIR]\n");
	return 2;
}

static void
print_scores(const int64_t *scores, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%s%" PRId64, i ? " " : "", scores[i]);
}

static bool
agrees(const struct db_counted *c, const struct replay_outcome *o)
{
	if ((size_t)o->nseats != c->nseats ||
	    strcmp(o->end_reason, c->end_reason) != 0)
		return false;
	for (size_t i = 0; i < c->nseats; i++)
		if (o->scores[i] != c->scores[i])
			return false;
	return true;
}

/* 0 when the replay reproduces the counted result, 1 when it does not or
 * cannot be played, -1 on a database error. */
static int
verify_counted(const struct db_counted *c)
{
	const struct game *g = games_find(c->referee_game);
	struct replay_outcome o;
	char err[512], *now;
	bool same;

	printf("game %" PRId64 " attempt %d: ", c->game, c->attempt);
	if (g == NULL) {
		printf("CANNOT VERIFY: no referee '%s' here\n", c->referee_game);
		return 1;
	}
	if (replay_run(g, c->dataset_name, c->dataset, c->seed,
	    (int)c->nseats, c->replay, &o, err, sizeof err) == -1) {
		printf("CANNOT VERIFY: %s\n", err);
		return 1;
	}
	same = agrees(c, &o);
	printf("%s: %zu moves, scores ", same ? "match" : "MISMATCH", o.calls);
	print_scores(o.scores, (size_t)o.nseats);
	printf(" (%s)", o.end_reason);
	if (!same) {
		printf(", recorded ");
		print_scores(c->scores, c->nseats);
		printf(" (%s)", c->end_reason);
	}
	/* A newer referee may legitimately disagree: say which one judged. */
	now = xasprintf("%s %s", g->name, g->version);
	if (strcmp(c->referee, now) != 0)
		printf("; played by referee %s, verified with %s", c->referee,
		    now);
	free(now);
	printf("\n");
	return same ? 0 : 1;
}

static int
verify_game(struct db *db, int64_t id)
{
	struct db_counted c;
	int found = db_game_counted(db, id, &c), rc;

	if (found < 0)
		return -1;
	if (found == 0) {
		printf("game %" PRId64 ": CANNOT VERIFY: no such game, or no "
		    "counted result yet\n", id);
		return 1;
	}
	rc = verify_counted(&c);
	db_counted_release(&c);
	return rc;
}

/* Every counted game of the tournament; a summary line at the end. */
static int
verify_all(struct db *db, int64_t tid)
{
	int64_t *ids = NULL;
	size_t n = 0, bad = 0;
	int rc = 0;

	if (db_counted_games(db, tid, &ids, &n) < 0)
		return -1;
	for (size_t i = 0; i < n && rc >= 0; i++)
		if ((rc = verify_game(db, ids[i])) > 0)
			bad++;
	free(ids);
	if (rc < 0)
		return -1;
	printf("%zu games verified, %zu match, %zu do not\n", n, n - bad, bad);
	return bad > 0;
}

static int
verify_ids(int argc, char **argv, const char *db_url, const char *data)
{
	long *ids = xcalloc((size_t)argc, sizeof *ids);
	struct db *db = NULL;
	int rc = 0, r;

	for (int i = 0; i < argc && rc == 0; i++)
		if (cli_parse_count("a game id", argv[i], 1, INT64_MAX,
		    &ids[i]) < 0)
			rc = 2;
	if (rc == 0 && (db = pgembed_connect(db_url, data)) == NULL)
		rc = 1;
	for (int i = 0; i < argc && db != NULL && rc >= 0; i++)
		if ((r = verify_game(db, ids[i])) != 0)
			rc = r;
	db_free(db);
	free(ids);
	return rc == 2 ? 2 : rc != 0;
}

int
cmd_verify(int argc, char **argv)
{
	static const struct option options[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "db", required_argument, NULL, 'D' },
		{ "data", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db_url = NULL, *data_arg = NULL;
	bool all = false;
	struct db *db;
	char *data, *title = NULL;
	int64_t tid;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'a': all = true; break;
		case 'D': db_url = optarg; break;
		case 'd': data_arg = optarg; break;
		default: return usage();
		}
	}
	if (!all)
		return optind < argc ? verify_ids(argc - optind, argv + optind,
		    db_url, data_arg) : usage();
	if (argc - optind > 1)
		return usage();
	data = pgembed_data_dir(data_arg);
	rc = export_open(optind < argc ? argv[optind] : NULL, NULL, db_url,
	    data, &db, &tid, &title);
	free(data);
	if (rc < 0)
		return 1;
	printf("tournament '%s'\n", title);
	rc = verify_all(db, tid) != 0;
	free(title);
	db_free(db);
	return rc;
}
