/* Unit tests for the dispatch loop's batches (coordinator/db_claim.c,
 * db_result.c): leasing several games in one statement, and recording
 * many results in one, each exactly once per (game, attempt), a bad one
 * losing only itself. A throwaway cluster holds one round robin of 4
 * entries, 6 matches of 2 games: 12 games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db.h"
#include "coordinator/db_internal.h"
#include "coordinator/tournament.h"
#include "pgtest.h"

#define NGAMES 12

static struct pgtest pg;
static struct db *db;
static struct spec spec;
static struct spec_entry entries[4];
static struct spec_dataset dataset;
static struct spec_stage stage = { .name = (char *)"all",
	.format = SPEC_ROUND_ROBIN, .groups = 1 };
static int64_t tid;
static int64_t ids[NGAMES];	/* in the order they were leased */

static int
setup(void **state)
{
	static const char *names[] = { "A", "B", "C", "D" };
	char *path;
	FILE *f;
	bool finished;

	(void)state;
	log_init("test", false);
	if (pgtest_start(&pg) < 0 || (db = db_open(pg.conninfo)) == NULL)
		return -1;
	path = xasprintf("%s/d.txt", pg.dir);
	if ((f = fopen(path, "w")) == NULL || fputs("a dataset\n", f) < 0 ||
	    fclose(f) != 0)
		return -1;
	dataset = (struct spec_dataset){ .name = (char *)"d.txt",
	    .path = path };
	for (int i = 0; i < 4; i++)
		entries[i] = (struct spec_entry){ .name = (char *)names[i],
		    .folder = (char *)"/bots/e", .run = (char *)"./bot" };
	spec = (struct spec){ .name = (char *)"t", .game = (char *)"dreamcity",
	    .seed = 1, .datasets = &dataset, .ndatasets = 1,
	    .entries = entries, .nentries = 4, .limits = { .call_ms = 1000,
	    .game_ms = 30000, .memory_mb = 512, .resident_mb = 256 },
	    .stages = &stage, .nstages = 1 };
	if (db_tournament_open(db, &spec, "tournament: t\n", &tid) < 0 ||
	    tournament_advance(db, &spec, tid, &finished) < 0)
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	db_free(db);
	pgtest_stop(&pg);
	free((char *)dataset.path);
	return 0;
}

/* The one text cell of sql with $1 = v. */
static char *
cell(const char *sql, int64_t v)
{
	struct num n;
	const char *params[] = { db_i64(&n, v) };
	PGresult *res = db_query(db, sql, 1, params);
	char *s;

	assert_non_null(res);
	assert_int_equal(PQntuples(res), 1);
	s = db_get_str(res, 0, 0);
	PQclear(res);
	return s;
}

static void
expect_cell(const char *sql, int64_t v, const char *want)
{
	char *got = cell(sql, v);

	assert_string_equal(got, want);
	free(got);
}

static void
test_claim(void **state)
{
	struct msg games[16];
	int n, total = 0;

	(void)state;
	/* 5, then the 7 left though 16 are asked, then none. */
	for (int round = 0; round < 3; round++) {
		assert_int_equal(db_games_claim(db, tid, "w1", 60000, games,
		    round == 0 ? 5 : 16, &n), 0);
		assert_int_equal(n, round == 0 ? 5 : round == 1 ? 7 : 0);
		for (int i = 0; i < n; i++) {
			const struct msg_game *g = &games[i].u.game;

			assert_int_equal(games[i].type, MSG_GAME);
			assert_int_equal(g->attempt, 1);
			assert_int_equal(g->nseats, 2);
			assert_string_equal(g->game, "dreamcity");
			assert_string_equal(g->dataset, "a dataset\n");
			assert_string_not_equal(g->seats[0].entry,
			    g->seats[1].entry);
			/* Plan order: ids grow. */
			if (total > 0)
				assert_true(g->game_id > ids[total - 1]);
			ids[total++] = g->game_id;
			msg_release(&games[i]);
		}
	}
	assert_int_equal(total, NGAMES);
	expect_cell("SELECT count(*) FILTER (WHERE state = 'running' AND "
	    "worker = 'w1')::text FROM games WHERE id >= $1", ids[0], "12");
}

static struct msg_result
result(int64_t game, int32_t attempt, int64_t score)
{
	struct msg_result r = { .game_id = game, .attempt = attempt,
	    .nseats = 2, .end_reason = (char *)"all_placed",
	    .detail = (char *)"", .referee = (char *)"dreamcity 1",
	    .replay = (char *)"A 1 2\nB 3 4\n" };

	r.seats[0] = (struct msg_seat_result){ .score = score,
	    .verdict = VERDICT_OK, .cpu_ms = 5, .wall_ms = 6, .peak_kb = 7 };
	r.seats[1] = (struct msg_seat_result){ .score = -score,
	    .verdict = VERDICT_WA, .illegal = 2, .cpu_ms = 8, .wall_ms = 9,
	    .peak_kb = 10 };
	return r;
}

static void
record(struct msg_result *r, struct db_record *recs, size_t n, int rc)
{
	for (size_t i = 0; i < n; i++)
		recs[i] = (struct db_record){ .r = &r[i], .worker = "w1" };
	assert_int_equal(db_results_record(db, recs, n), rc);
}

static void
test_record(void **state)
{
	struct msg_result r[7];
	struct db_record recs[7];

	(void)state;
	r[0] = result(ids[0], 1, 11);
	r[1] = r[0];			/* the same, twice in one batch */
	r[2] = result(ids[1], 2, 12);	/* an attempt it is not at */
	r[3] = result(INT64_MAX, 1, 13);	/* no such game */
	r[4] = result(ids[2], 1, 14);
	r[4].nseats = 1;		/* malformed */
	r[5] = result(ids[3], 1, 15);
	r[5].seats[1].verdict = VERDICT_XX;	/* our failure */
	r[5].detail = (char *)"disk full";
	r[6] = result(ids[4], 1, 16);
	/* Text as the array literal's syntax would read it. */
	r[6].replay = (char *)"{\"a\",b}\\ \"q\" NULL, {}\n\t";
	record(r, recs, 7, 0);
	assert_int_equal(recs[0].outcome, DB_RECORDED);
	assert_int_equal(recs[1].outcome, DB_DUPLICATE);
	assert_string_equal(recs[1].state, "already recorded");
	assert_int_equal(recs[2].outcome, DB_STALE);
	assert_string_equal(recs[2].state, "game is running at attempt 1");
	assert_int_equal(recs[3].outcome, DB_STALE);
	assert_string_equal(recs[3].state, "game is unknown");
	assert_int_equal(recs[4].outcome, DB_INVALID);
	assert_int_equal(recs[5].outcome, DB_REQUEUED);
	assert_int_equal(recs[6].outcome, DB_RECORDED);

	expect_cell("SELECT state || ' ' || attempt FROM games WHERE id = $1",
	    ids[0], "done 1");
	expect_cell("SELECT string_agg(seat || ':' || score || ':' || verdict "
	    "|| ':' || illegal || ':' || cpu_ms || ':' || wall_ms || ':' || "
	    "peak_kb, ' ' ORDER BY seat) FROM result_seats s JOIN games g ON "
	    "g.result_id = s.result_id WHERE g.id = $1", ids[0],
	    "0:11:OK:0:5:6:7 1:-11:WA:2:8:9:10");
	expect_cell("SELECT count(*)::text FROM results WHERE game_id = $1",
	    ids[0], "1");
	expect_cell("SELECT r.replay FROM results r JOIN games g ON "
	    "g.result_id = r.id WHERE g.id = $1", ids[4],
	    "{\"a\",b}\\ \"q\" NULL, {}\n\t");
	expect_cell("SELECT state || ' ' || attempt FROM games WHERE id = $1",
	    ids[1], "running 1");
	expect_cell("SELECT state || ' ' || attempt FROM games WHERE id = $1",
	    ids[2], "running 1");
	/* XX: back in the queue at attempt 2, why in its history. */
	expect_cell("SELECT state || ' ' || attempt FROM games WHERE id = $1",
	    ids[3], "queued 2");
	expect_cell("SELECT reason FROM game_events WHERE game_id = $1",
	    ids[3], "disk full");

	/* Delivered again: the game is done, nothing changes. The live
	 * attempt is taken. */
	r[1] = result(ids[1], 1, 17);
	record(r, recs, 2, 0);
	assert_int_equal(recs[0].outcome, DB_STALE);
	assert_string_equal(recs[0].state, "game is done");
	assert_int_equal(recs[1].outcome, DB_RECORDED);
	expect_cell("SELECT string_agg(score::text, ' ' ORDER BY seat) FROM "
	    "result_seats s JOIN games g ON g.result_id = s.result_id "
	    "WHERE g.id = $1", ids[0], "11 -11");
	r[0] = result(ids[0], 2, 18);
	record(r, recs, 1, 0);
	assert_int_equal(recs[0].outcome, DB_STALE);
	assert_string_equal(recs[0].state, "game is done");
	/* Three seats for a two-seat game: refused, the game plays on. */
	r[0] = result(ids[9], 1, 19);
	r[0].nseats = 3;
	r[0].seats[2] = r[0].seats[0];
	record(r, recs, 1, 0);
	assert_int_equal(recs[0].outcome, DB_INVALID);
	assert_string_equal(recs[0].state, "3 seats, the game has 2");
	expect_cell("SELECT state FROM games WHERE id = $1", ids[9],
	    "running");
}

/* Text that is not UTF-8 is stored with each bad byte as \xNN: the
 * result counts. */
static void
test_not_utf8(void **state)
{
	struct msg_result r[2];
	struct db_record recs[2];

	(void)state;
	r[0] = result(ids[5], 1, 20);
	/* Overlong, a surrogate, past U+10FFFF, cut short, never valid;
	 * then valid 2-, 3- and 4-byte characters and text that is quoted
	 * in an array literal. */
	r[0].replay = (char *)"\xc0\x80 \xed\xa0\x80 \xf4\x90\x80\x80 "
	    "a\xe2\x82 \xff | \xc3\xa9\xe2\x82\xac\xf0\x9f\x8e\xb2 \"\\";
	r[0].detail = (char *)"\xfe";
	record(r, recs, 1, 0);
	assert_int_equal(recs[0].outcome, DB_RECORDED);
	expect_cell("SELECT r.replay FROM results r JOIN games g ON "
	    "g.result_id = r.id WHERE g.id = $1", ids[5],
	    "\\xc0\\x80 \\xed\\xa0\\x80 \\xf4\\x90\\x80\\x80 a\\xe2\\x82 "
	    "\\xff | \xc3\xa9\xe2\x82\xac\xf0\x9f\x8e\xb2 \"\\");
	expect_cell("SELECT r.detail FROM results r JOIN games g ON "
	    "g.result_id = r.id WHERE g.id = $1", ids[5], "\\xfe");
	/* A worker's name too; an XX result's detail goes to the history. */
	r[0] = result(ids[6], 1, 21);
	r[1] = result(ids[10], 1, 22);
	r[1].seats[0].verdict = VERDICT_XX;
	r[1].detail = (char *)"disk \xff";
	for (size_t i = 0; i < 2; i++)
		recs[i] = (struct db_record){ .r = &r[i], .worker = "w\xff" };
	assert_int_equal(db_results_record(db, recs, 2), 0);
	assert_int_equal(recs[0].outcome, DB_RECORDED);
	assert_int_equal(recs[1].outcome, DB_REQUEUED);
	expect_cell("SELECT worker FROM results WHERE game_id = $1", ids[6],
	    "w\\xff");
	expect_cell("SELECT reason FROM game_events WHERE game_id = $1",
	    ids[10], "disk \\xff");
}

/* A result the database refuses fails the batch's statement: each is
 * then tried alone, and only the bad one is refused, for good (the link
 * is fine: it would fail again). A constraint of this test's stands for
 * whatever the checks before missed. */
static void
test_bad_one(void **state)
{
	struct msg_result r[3];
	struct db_record recs[3];

	(void)state;
	assert_int_equal(db_exec(db, "ALTER TABLE results ADD CONSTRAINT "
	    "test_refuse CHECK (detail <> 'refuse me')", 0, NULL), 0);
	r[0] = result(ids[7], 1, 31);
	r[1] = result(ids[8], 1, 32);
	r[1].detail = (char *)"refuse me";
	r[2] = result(ids[9], 1, 33);
	record(r, recs, 3, 0);
	assert_int_equal(recs[0].outcome, DB_RECORDED);
	assert_int_equal(recs[1].outcome, DB_INVALID);
	assert_string_equal(recs[1].state, "refused by the database");
	assert_int_equal(recs[2].outcome, DB_RECORDED);
	expect_cell("SELECT state FROM games WHERE id = $1", ids[7], "done");
	expect_cell("SELECT state FROM games WHERE id = $1", ids[8],
	    "running");
	expect_cell("SELECT state FROM games WHERE id = $1", ids[9], "done");
	assert_int_equal(db_exec(db, "ALTER TABLE results DROP CONSTRAINT "
	    "test_refuse", 0, NULL), 0);
}

/* Prepared statements survive a new connection: the server forgot them. */
static void
test_reconnect(void **state)
{
	struct msg_result r[1];
	struct db_record recs[1];

	(void)state;
	PQreset(db->conn);
	r[0] = result(ids[8], 1, 41);
	record(r, recs, 1, 0);
	assert_int_equal(recs[0].outcome, DB_RECORDED);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claim),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_not_utf8),
		cmocka_unit_test(test_bad_one),
		cmocka_unit_test(test_reconnect),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
