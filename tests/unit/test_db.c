/*
 * Unit tests for coordinator/db and schema.sql against a throwaway cluster:
 * a hand-built tournament (spec and plan written here, not by spec.c or
 * plan.c) is claimed and recorded game by game, with a duplicate, a stale
 * attempt, an XX, an expired lease and an explicit requeue on the way, and
 * the standings and advancers are compared with tables computed by hand.
 * Then a final stage's game fails DB_MAX_ATTEMPTS times (blocked), is
 * rerun and played; a group game is rerun with another result (history
 * kept, current result moved, standings and advancers changed, the final
 * left as it was); workers are seen; and migration 2 is applied to a
 * database left at migration 1. The tests run in order and share the
 * database.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/proto.h"
#include "coordinator/db.h"
#include "coordinator/tournament.h"
#include "pgtest.h"

/*
 * Group A: P Q R S, group B drawn as V T U (entry indexes 6 4 5). Each
 * match plays dataset 0 twice, a first then b first. Hand-computed:
 *
 *	PQ  P 2-0 games                        P wins on games
 *	PR  1-1 games, net 15 to 2             P wins on net points
 *	PS  two equal-score games              draw
 *	QR  1-1 games, net 3 to 3              draw
 *	QS  Q 2-0                              Q wins
 *	RS  R 1-0 and a drawn game             R wins
 *	VT, VU, TU: every game a draw          draws
 *
 *	A: P 7 pts (gw 3, net 26) rank 1; Q 4 (3, 10) and R 4 (3, 35) both
 *	rank 2; S 1 rank 4. Advance 2: P, then R over Q on net points.
 *	B: T, U, V all 2 pts, rank 1; advance 2 by draw order: V, T.
 */
enum { P, Q, R, S, T, U, V, NENTRIES };

static const char *const names[NENTRIES] = { "P", "Q", "R", "S", "T", "U",
	"V" };

struct scored {
	int first, second;
	int64_t score_first, score_second;
};

/* Every game in plan (claim) order with its result. */
static const struct scored games_table[] = {
	{ P, Q, 10, 4 }, { Q, P, 3, 8 },
	{ P, R, 20, 5 }, { R, P, 12, 10 },
	{ P, S, 7, 7 }, { S, P, 0, 0 },
	{ Q, R, 9, 6 }, { R, Q, 8, 5 },
	{ Q, S, 6, 1 }, { S, Q, 2, 4 },
	{ R, S, 30, 0 }, { S, R, 5, 5 },
	{ V, T, 1, 1 }, { T, V, 2, 2 },
	{ V, U, 3, 3 }, { U, V, 0, 0 },
	{ T, U, 4, 4 }, { U, T, 9, 9 },
};
#define NGAMES (sizeof games_table / sizeof games_table[0])
#define NMATCHES (NGAMES / 2)

static struct pgtest pg;
static struct db *db;
static struct spec spec;
static struct spec_entry entries[NENTRIES];
static struct spec_dataset dataset;
static struct spec_stage stages[2];
static char data_dir[] = "/tmp/arena-testdb-XXXXXX";
static char *dataset_path;
static int64_t tid;

static const char spec_text[] = "tournament: t1\ngame: dreamcity\n";

static void
build_spec(void)
{
	FILE *f;

	assert_non_null(mkdtemp(data_dir));
	dataset_path = xasprintf("%s/d1.txt", data_dir);
	f = fopen(dataset_path, "w");
	assert_non_null(f);
	fputs("a dataset\nline two\n", f);
	fclose(f);
	for (int i = 0; i < NENTRIES; i++) {
		entries[i].name = (char *)names[i];
		entries[i].folder = (char *)"/bots/x";
		entries[i].run = (char *)"./bot";
	}
	entries[P].build = (char *)"make";
	dataset.name = (char *)"d1.txt";
	dataset.path = dataset_path;
	stages[0] = (struct spec_stage){ .name = (char *)"groups",
	    .format = SPEC_ROUND_ROBIN, .groups = 2, .advance = 2 };
	stages[1] = (struct spec_stage){ .name = (char *)"final",
	    .format = SPEC_FINAL };
	spec = (struct spec){ .name = (char *)"t1", .game = (char *)"dreamcity",
	    .seed = 42, .datasets = &dataset, .ndatasets = 1,
	    .entries = entries, .nentries = NENTRIES,
	    .limits = { .call_ms = 1000, .game_ms = 30000, .memory_mb = 512,
	    .resident_mb = 256, .clock = SPEC_CLOCK_CPU, .ponder = true },
	    .stages = stages,
	    .nstages = 2 };
}

static size_t group_a[] = { P, Q, R, S };
static size_t group_b[] = { V, T, U };
static struct plan_group groups[] = {
	{ (char *)"A", group_a, 4 },
	{ (char *)"B", group_b, 3 },
};
static struct plan_game plan_games[NGAMES];
static struct plan_match plan_matches[NMATCHES];
static struct plan_stage plan = { 0, groups, 2, plan_matches, NMATCHES };

/* The plan follows games_table: match m is games 2m and 2m+1. */
static void
build_plan(void)
{
	for (size_t i = 0; i < NGAMES; i++) {
		plan_games[i].dataset = 0;
		plan_games[i].first = (size_t)games_table[i].first;
		plan_games[i].second = (size_t)games_table[i].second;
		plan_games[i].seed = 1000 + i;
	}
	plan_games[1].seed = UINT64_MAX - 1;	/* survives the round trip */
	for (size_t m = 0; m < NMATCHES; m++) {
		plan_matches[m].group = m < 6 ? 0 : 1;
		plan_matches[m].a = plan_games[2 * m].first;
		plan_matches[m].b = plan_games[2 * m].second;
		plan_matches[m].games = &plan_games[2 * m];
		plan_matches[m].ngames = 2;
	}
}

static int
setup(void **state)
{
	(void)state;
	log_init("test_db", false);
	if (pgtest_start(&pg) < 0)
		return -1;
	build_plan();
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	db_free(db);
	pgtest_stop(&pg);
	if (dataset_path) {
		unlink(dataset_path);
		rmdir(data_dir);
		free(dataset_path);
	}
	return 0;
}

static struct msg_result
result_for(const struct msg_game *g, int64_t s0, int64_t s1)
{
	struct msg_result r = { .game_id = g->game_id, .attempt = g->attempt,
	    .nseats = 2, .end_reason = (char *)"board full",
	    .detail = (char *)"", .referee = (char *)"dreamcity 1",
	    .replay = (char *)"A 1\nB 2\n" };

	r.seats[0] = (struct msg_seat_result){ .score = s0, .cpu_ms = 5,
	    .wall_ms = 6, .peak_kb = 1024 };
	r.seats[1] = (struct msg_seat_result){ .score = s1, .cpu_ms = 7,
	    .wall_ms = 8, .peak_kb = 2048 };
	return r;
}

static void
game_release(struct msg_game *g)
{
	struct msg m = { .type = MSG_GAME, .u.game = *g };

	msg_release(&m);
	memset(g, 0, sizeof *g);
}

static void
claim(struct msg_game *g, int64_t lease_ms)
{
	assert_int_equal(db_game_claim(db, tid, "w1", lease_ms, g), 1);
}

static void
assert_progress(int64_t done, int64_t total)
{
	int64_t d, t;

	assert_int_equal(db_progress(db, tid, &d, &t), 0);
	assert_int_equal(d, done);
	assert_int_equal(t, total);
}

static void
record(const struct msg_result *r, bool want)
{
	bool recorded = !want;

	assert_int_equal(db_result_record(db, r, "w1", &recorded), 0);
	assert_int_equal(recorded, want);
}

static void
test_open(void **state)
{
	(void)state;
	db = db_open(pg.conninfo);
	assert_non_null(db);
	/* A second open finds the schema current and changes nothing. */
	struct db *again = db_open(pg.conninfo);
	assert_non_null(again);
	db_free(again);
	assert_null(db_open("host=/nonexistent dbname=arena"));
}

static void
test_tournament(void **state)
{
	int64_t id2, found;
	char *other;

	(void)state;
	build_spec();
	assert_int_equal(db_tournament_find(db, NULL, &found), 0);
	assert_int_equal(db_tournament_open(db, &spec, spec_text, &tid), 0);
	assert_int_equal(db_tournament_open(db, &spec, spec_text, &id2), 0);
	assert_int_equal(id2, tid);
	other = xasprintf("%s# changed\n", spec_text);
	assert_int_equal(db_tournament_open(db, &spec, other, &id2), -1);
	free(other);
	assert_int_equal(db_tournament_find(db, "t1", &found), 1);
	assert_int_equal(found, tid);
	assert_int_equal(db_tournament_find(db, NULL, &found), 1);
	assert_int_equal(found, tid);
	assert_int_equal(db_tournament_find(db, "nope", &found), 0);
}

static void
test_stage_store(void **state)
{
	enum db_stage_state st;

	(void)state;
	assert_int_equal(db_stage_state(db, tid, 0, &st), 0);
	assert_int_equal(st, DB_STAGE_PENDING);
	assert_int_equal(db_stage_state(db, tid, 5, &st), -1);
	assert_int_equal(db_stage_store(db, tid, &plan), 0);
	assert_int_equal(db_stage_store(db, tid, &plan), 0);	/* no-op */
	assert_progress(0, NGAMES);
	assert_int_equal(db_stage_state(db, tid, 0, &st), 0);
	assert_int_equal(st, DB_STAGE_RUNNING);
	assert_int_equal(db_stage_state(db, tid, 1, &st), 0);
	assert_int_equal(st, DB_STAGE_PENDING);
}

static void
check_first_game(const struct msg_game *g)
{
	assert_int_equal(g->attempt, 1);
	assert_string_equal(g->game, "dreamcity");
	assert_string_equal(g->dataset_name, "d1.txt");
	assert_string_equal(g->dataset, "a dataset\nline two\n");
	assert_true(g->seed == 1000);
	assert_int_equal(g->limits.call_ms, 1000);
	assert_int_equal(g->limits.game_ms, 30000);
	assert_int_equal(g->limits.memory_mb, 512);
	assert_int_equal(g->limits.resident_mb, 256);
	assert_int_equal(g->limits.clock, SPEC_CLOCK_CPU);
	assert_true(g->limits.ponder);
	assert_int_equal(g->nseats, 2);
	assert_string_equal(g->seats[0].entry, "P");
	assert_string_equal(g->seats[0].build, "make");
	assert_string_equal(g->seats[0].folder, "/bots/x");
	assert_string_equal(g->seats[0].run, "./bot");
	assert_string_equal(g->seats[1].entry, "Q");
	assert_null(g->seats[1].build);
}

/* The first match, through every path that must not count twice. */
static void
test_first_match(void **state)
{
	struct msg_game g;
	struct msg_result r;
	struct db_standing *rows;
	size_t n, *adv;
	int expired;

	(void)state;
	claim(&g, 60000);
	check_first_game(&g);
	r = result_for(&g, 10, 4);
	record(&r, true);
	record(&r, false);			/* duplicate */
	game_release(&g);
	assert_progress(1, NGAMES);

	/* Half a match is not in the standings. */
	assert_int_equal(db_standings(db, tid, "groups", &rows, &n), 0);
	assert_int_equal(n, NENTRIES);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(rows[i].played, 0);
		assert_int_equal(rows[i].rank, 1);
	}
	db_standings_free(rows, n);
	assert_int_equal(db_stage_advancers(db, tid, 0, &adv, &n), -1);

	claim(&g, 60000);
	assert_string_equal(g.seats[0].entry, "Q");
	assert_true(g.seed == UINT64_MAX - 1);
	r = result_for(&g, 3, 8);
	r.attempt = 2;
	record(&r, false);			/* stale attempt */
	r.attempt = 1;
	r.seats[1].verdict = VERDICT_XX;
	r.detail = (char *)"worker disk full";
	record(&r, false);			/* XX: requeued */
	game_release(&g);
	assert_progress(1, NGAMES);

	claim(&g, 1);				/* the same game again */
	assert_string_equal(g.seats[0].entry, "Q");
	assert_int_equal(g.attempt, 2);
	usleep(50 * 1000);
	assert_int_equal(db_leases_expire(db, tid, &expired), 0);
	assert_int_equal(expired, 1);
	r = result_for(&g, 3, 8);
	record(&r, false);			/* its lease ran out */
	game_release(&g);

	claim(&g, 60000);
	assert_int_equal(g.attempt, 3);
	assert_int_equal(db_game_requeue(db, g.game_id, 2, "stale"), 0);
	assert_int_equal(db_game_requeue(db, g.game_id, 3, "worker lost"), 0);
	game_release(&g);
	claim(&g, 60000);
	assert_int_equal(g.attempt, 4);
	/* Its worker died: only that worker's games come back, at once. */
	assert_int_equal(db_worker_lost(db, tid, "w2", &expired), 0);
	assert_int_equal(expired, 0);
	assert_int_equal(db_worker_lost(db, tid, "w1", &expired), 0);
	assert_int_equal(expired, 1);
	r = result_for(&g, 3, 8);
	record(&r, false);			/* from the dead worker */
	game_release(&g);
	claim(&g, 60000);
	assert_int_equal(g.attempt, 5);
	r = result_for(&g, 3, 8);
	record(&r, true);
	game_release(&g);
	assert_progress(2, NGAMES);

	r.game_id = 999999;
	record(&r, false);			/* no such game */
	r.nseats = 3;
	record(&r, false);			/* malformed */
}

/* The rest in claim order, which must be the plan's order. */
static void
test_all_games(void **state)
{
	struct msg_game g;
	enum db_stage_state st;
	int expired;

	(void)state;
	for (size_t i = 2; i < NGAMES; i++) {
		const struct scored *s = &games_table[i];
		struct msg_result r;

		claim(&g, 60000);
		assert_string_equal(g.seats[0].entry, names[s->first]);
		assert_string_equal(g.seats[1].entry, names[s->second]);
		assert_true(g.seed == 1000 + i);
		r = result_for(&g, s->score_first, s->score_second);
		if (i == 3) {
			r.seats[0].verdict = VERDICT_TO;
			r.end_reason = (char *)"TO";
		}
		record(&r, true);
		game_release(&g);
	}
	assert_int_equal(db_game_claim(db, tid, "w1", 60000, &g), 0);
	assert_progress(NGAMES, NGAMES);
	assert_int_equal(db_leases_expire(db, tid, &expired), 0);
	assert_int_equal(expired, 0);
	assert_int_equal(db_stage_state(db, tid, 0, &st), 0);
	assert_int_equal(st, DB_STAGE_DONE);
}

struct expected {
	const char *group;
	int rank;
	const char *entry;
	int played, won, drawn, lost, points, games_won;
	int64_t net_points;
};

static const struct expected table[] = {
	{ "A", 1, "P", 3, 2, 1, 0, 7, 3, 26 },
	{ "A", 2, "Q", 3, 1, 1, 1, 4, 3, 10 },
	{ "A", 2, "R", 3, 1, 1, 1, 4, 3, 35 },
	{ "A", 4, "S", 3, 0, 1, 2, 1, 0, 0 },
	{ "B", 1, "T", 2, 0, 2, 0, 2, 0, 0 },
	{ "B", 1, "U", 2, 0, 2, 0, 2, 0, 0 },
	{ "B", 1, "V", 2, 0, 2, 0, 2, 0, 0 },
};

static void
test_standings(void **state)
{
	struct db_standing *rows;
	size_t n;

	(void)state;
	assert_int_equal(db_standings(db, tid, NULL, &rows, &n), 0);
	assert_int_equal(n, sizeof table / sizeof table[0]);
	for (size_t i = 0; i < n; i++) {
		const struct expected *e = &table[i];
		const struct db_standing *s = &rows[i];

		assert_string_equal(s->stage, "groups");
		assert_string_equal(s->group, e->group);
		assert_string_equal(s->entry, e->entry);
		assert_int_equal(s->rank, e->rank);
		assert_int_equal(s->played, e->played);
		assert_int_equal(s->won, e->won);
		assert_int_equal(s->drawn, e->drawn);
		assert_int_equal(s->lost, e->lost);
		assert_int_equal(s->points, e->points);
		assert_int_equal(s->games_won, e->games_won);
		assert_int_equal(s->net_points, e->net_points);
	}
	db_standings_free(rows, n);
	assert_int_equal(db_standings(db, tid, "final", &rows, &n), 0);
	assert_int_equal(n, 0);
	db_standings_free(rows, n);
	assert_int_equal(db_standings(db, tid, "nope", &rows, &n), -1);
}

static void
test_advancers(void **state)
{
	const size_t want[] = { P, R, V, T };
	size_t *adv, n;

	(void)state;
	assert_int_equal(db_stage_advancers(db, tid, 0, &adv, &n), 0);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(adv[i], want[i]);
	free(adv);
}

static void
test_games(void **state)
{
	struct db_game_row *rows;
	size_t n;

	(void)state;
	assert_int_equal(db_games(db, tid, &rows, &n), 0);
	assert_int_equal(n, NGAMES);
	for (size_t i = 0; i < n; i++) {
		const struct scored *s = &games_table[i];
		const char *winner = s->score_first > s->score_second ?
		    names[s->first] : s->score_first < s->score_second ?
		    names[s->second] : "";

		assert_string_equal(rows[i].stage, "groups");
		assert_string_equal(rows[i].group, i < 12 ? "A" : "B");
		assert_string_equal(rows[i].dataset, "d1.txt");
		assert_string_equal(rows[i].first, names[s->first]);
		assert_string_equal(rows[i].second, names[s->second]);
		assert_int_equal(rows[i].score_first, s->score_first);
		assert_int_equal(rows[i].score_second, s->score_second);
		assert_string_equal(rows[i].winner, winner);
		assert_string_equal(rows[i].end_reason,
		    i == 3 ? "TO" : "board full");
		assert_true(i < 2 || rows[i].match != rows[i - 2].match);
		assert_true(i % 2 == 0 || rows[i].match == rows[i - 1].match);
	}
	db_games_free(rows, n);
}

/* The final, stored by hand: the advancers P R V T, one match P-R of one
 * game, which fails on our side until the cap. */
static size_t final_members[] = { P, R, V, T };
static struct plan_group final_groups[] = {
	{ (char *)"A", final_members, 4 },
};
static struct plan_game final_games[] = { { 0, P, R, 77 } };
static struct plan_match final_matches[] = { { 0, P, R, final_games, 1 } };
static struct plan_stage final_plan = { 1, final_groups, 1, final_matches,
	1 };
static int64_t final_game;

static void
assert_state(size_t stage, enum db_stage_state want)
{
	enum db_stage_state st;

	assert_int_equal(db_stage_state(db, tid, stage, &st), 0);
	assert_int_equal(st, want);
}

static void
test_attempt_cap(void **state)
{
	struct msg_game g;
	struct msg_result r;
	struct db_game_detail d;
	struct db_rows t;
	int64_t *failed, active;
	size_t n;
	int moved;

	(void)state;
	assert_int_equal(db_stage_store(db, tid, &final_plan), 0);
	assert_state(1, DB_STAGE_RUNNING);
	assert_int_equal(tournament_blocked(db, tid), 0);
	/* Every way an attempt ends without a result counts. */
	for (int i = 1; i <= DB_MAX_ATTEMPTS; i++) {
		claim(&g, i == 2 ? 1 : 60000);
		assert_int_equal(g.attempt, i);
		final_game = g.game_id;
		if (i == 1) {
			r = result_for(&g, 1, 2);
			r.seats[0].verdict = VERDICT_XX;
			record(&r, false);
		} else if (i == 2) {
			usleep(50 * 1000);
			assert_int_equal(db_leases_expire(db, tid, &moved), 0);
			assert_int_equal(moved, 1);
		} else if (i == 3) {
			assert_int_equal(db_worker_lost(db, tid, "w1", &moved),
			    0);
			assert_int_equal(moved, 1);
		} else
			assert_int_equal(db_game_requeue(db, g.game_id, i,
			    "worker unreachable"), 0);
		game_release(&g);
		if (i < DB_MAX_ATTEMPTS)
			assert_state(1, DB_STAGE_RUNNING);
	}
	/* Given up: not queued again, not scored, the stage is stuck. */
	assert_int_equal(db_game_claim(db, tid, "w1", 60000, &g), 0);
	assert_state(1, DB_STAGE_BLOCKED);
	assert_int_equal(tournament_blocked(db, tid), 1);
	assert_int_equal(db_games_failed(db, tid, &failed, &n, &active), 0);
	assert_int_equal(n, 1);
	assert_int_equal(active, 0);
	assert_int_equal(failed[0], final_game);
	free(failed);
	assert_int_equal(db_game_detail(db, final_game, &d), 1);
	assert_string_equal(d.state, "failed");
	assert_int_equal(d.attempt, DB_MAX_ATTEMPTS);
	assert_int_equal(d.nattempts, 0);
	assert_int_equal(d.nevents, DB_MAX_ATTEMPTS + 1);
	assert_string_equal(d.events[1].kind, "lease_expired");
	assert_string_equal(d.events[2].kind, "worker_lost");
	assert_string_equal(d.events[DB_MAX_ATTEMPTS].kind, "gave_up");
	db_game_detail_release(&d);
	assert_int_equal(db_status_failing(db, tid, &t), 0);
	assert_int_equal(t.nrows, 1);
	assert_string_equal(db_rows_cell(&t, 0, 2), "failed");
	assert_string_equal(db_rows_cell(&t, 0, 4), "gave_up");
	db_rows_release(&t);
}

/* A failed game is rerun like any other and gets its own attempts. */
static void
test_rerun_failed(void **state)
{
	struct msg_game g;
	struct msg_result r;
	int64_t rid, other = 1;
	bool complete;

	(void)state;
	assert_int_equal(db_rerun_request(db, tid, &final_game, 1, "ann@host",
	    "disk full on w1, fixed", &rid), 0);
	/* Games of two stages in one rerun, or of no tournament: refused. */
	int64_t two[] = { final_game, other };
	assert_int_equal(db_rerun_request(db, tid, two, 2, "ann", "x", &rid),
	    -1);
	other = 999999;
	assert_int_equal(db_rerun_request(db, tid, &other, 1, "ann", "x", &rid),
	    -1);
	assert_state(1, DB_STAGE_RUNNING);
	assert_int_equal(db_rerun_finish(db, rid, &complete), 0);
	assert_false(complete);
	claim(&g, 60000);
	assert_int_equal(g.game_id, final_game);
	assert_int_equal(g.attempt, DB_MAX_ATTEMPTS + 1);
	assert_true(g.seed == 77);
	/* One failure after a rerun does not give up at once. */
	assert_int_equal(db_game_requeue(db, g.game_id, g.attempt, "x"), 0);
	game_release(&g);
	claim(&g, 60000);
	r = result_for(&g, 5, 3);
	record(&r, true);
	game_release(&g);
	assert_state(1, DB_STAGE_DONE);
	assert_int_equal(db_rerun_finish(db, rid, &complete), 0);
	assert_true(complete);
}

static void
test_rerun_done(void **state)
{
	const size_t want[] = { Q, R, V, T };
	struct msg_game g;
	struct msg_result r;
	struct db_game_detail d;
	struct db_game_row *rows;
	struct db_rerun_info info;
	struct db_stale *stale;
	size_t n, *adv;
	int64_t first, rid;
	bool complete;

	(void)state;
	assert_int_equal(db_games(db, tid, &rows, &n), 0);
	first = rows[0].game;		/* P-Q, 10-4 */
	db_games_free(rows, n);
	assert_int_equal(db_rerun_request(db, tid, &first, 1, "bob@judges",
	    "P's bot was the wrong version", &rid), 0);
	/* No longer counted: the match is incomplete until played again. */
	assert_int_equal(db_games(db, tid, &rows, &n), 0);
	assert_int_equal(n, NGAMES);		/* 17 groups + 1 final */
	db_games_free(rows, n);
	assert_state(0, DB_STAGE_RUNNING);
	claim(&g, 60000);
	assert_int_equal(g.game_id, first);
	assert_int_equal(g.attempt, 2);
	assert_true(g.seed == 1000);
	r = result_for(&g, 4, 10);		/* now Q wins it */
	record(&r, true);
	game_release(&g);
	assert_state(0, DB_STAGE_DONE);

	/* Both attempts kept, the old one superseded by the rerun. */
	assert_int_equal(db_game_detail(db, first, &d), 1);
	assert_int_equal(d.nattempts, 2);
	assert_false(d.attempts[0].current);
	assert_int_equal(d.attempts[0].superseded_by, rid);
	assert_true(d.attempts[1].current);
	assert_int_equal(d.nreruns, 1);
	assert_int_equal(d.reruns[0], rid);
	db_game_detail_release(&d);
	assert_int_equal(db_games(db, tid, &rows, &n), 0);
	assert_int_equal(n, NGAMES + 1);
	assert_int_equal(rows[0].game, first);
	assert_int_equal(rows[0].score_first, 4);
	assert_string_equal(rows[0].winner, "Q");
	db_games_free(rows, n);

	/*
	 * Q now wins P-Q (1-1 games, net 6 to 5): Q 7 points, rank 1; R 4
	 * (3 games won) rank 2; P 4 (2 games won, net 5 + 15) rank 3. Only
	 * P and Q rows change.
	 */
	assert_int_equal(db_rerun_finish(db, rid, &complete), 0);
	assert_true(complete);
	assert_int_equal(db_rerun_info(db, rid, &info), 1);
	assert_string_equal(info.by, "bob@judges");
	assert_string_equal(info.reason, "P's bot was the wrong version");
	assert_string_equal(info.stage, "groups");
	assert_int_equal(info.nchanges, 2);
	assert_string_equal(info.changes[0].entry, "Q");
	assert_string_equal(info.changes[0].before,
	    "rank 2, 4 pts (1-1-1), games won 3, net 10");
	assert_string_equal(info.changes[0].after,
	    "rank 1, 7 pts (2-1-0), games won 4, net 16");
	assert_string_equal(info.changes[1].entry, "P");
	assert_string_equal(info.changes[1].after,
	    "rank 3, 4 pts (1-1-1), games won 2, net 20");
	db_rerun_info_release(&info);
	assert_int_equal(db_stage_advancers(db, tid, 0, &adv, &n), 0);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(adv[i], want[i]);
	free(adv);
	/* The final was played by P R V T: left as it is, and said so. */
	assert_int_equal(db_stale_stages(db, tid, &stale, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(stale[0].stage, "groups");
	assert_string_equal(stale[0].next, "final");
	assert_string_equal(stale[0].advancers_now, "Q, R, V, T");
	assert_string_equal(stale[0].entrants_played, "P, R, V, T");
	db_stale_free(stale, n);
}

static void
test_workers(void **state)
{
	struct db_rows t;

	(void)state;
	assert_int_equal(db_worker_seen(db, tid, "w1", NULL, 4), 0);
	assert_int_equal(db_worker_seen(db, tid, "w1", "10.0.0.2", 2), 0);
	assert_int_equal(db_worker_seen(db, tid, "w1", NULL, 3), 0);
	assert_int_equal(db_worker_seen(db, tid, "w9", NULL, 1), 0);
	assert_int_equal(db_status_workers(db, tid, &t), 0);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(db_rows_cell(&t, 0, 0), "w1");
	assert_string_equal(db_rows_cell(&t, 0, 1), "10.0.0.2");
	assert_string_equal(db_rows_cell(&t, 0, 2), "3");
	/* Every recorded result was from w1: groups (18), the final and
	 * the rerun; failures are its attempts that ended without one: 4
	 * in the first match, 5 in the final (the 'gave_up' has no
	 * worker) and 1 after its rerun. */
	assert_string_equal(db_rows_cell(&t, 0, 5), "20");
	assert_string_equal(db_rows_cell(&t, 0, 6), "10");
	assert_string_equal(db_rows_cell(&t, 1, 5), "0");
	db_rows_release(&t);
	assert_int_equal(db_status_stages(db, tid, &t), 0);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(db_rows_cell(&t, 1, 3), "1");	/* done */
	assert_string_equal(db_rows_cell(&t, 1, 6), "0");	/* failed */
	db_rows_release(&t);
}

/* A database left at migration 1 (made with psql from schema.sql's first
 * section) is brought to the latest by db_open(). */
static void
test_migration(void **state)
{
	const char *src = getenv("ARENA_SOURCE_DIR");
	char *cmd, *conninfo;
	struct db *old;
	struct db_rows t;
	FILE *out;
	char line[64] = "";

	(void)state;
	assert_non_null(src);
	cmd = xasprintf("psql -q -X -v ON_ERROR_STOP=1 \"%s\" -c 'CREATE "
	    "DATABASE m1' && sed '/^-- migration 2/,$d' '%s/coordinator/"
	    "schema.sql' | psql -q -X -v ON_ERROR_STOP=1 \"%s dbname=m1\" && "
	    "psql -q -X -v ON_ERROR_STOP=1 \"%s dbname=m1\" -c 'CREATE TABLE "
	    "schema_version (version integer PRIMARY KEY, applied_at "
	    "timestamptz NOT NULL DEFAULT now()); INSERT INTO schema_version "
	    "VALUES (1)'", pg.conninfo, src, pg.conninfo, pg.conninfo);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	conninfo = xasprintf("%s dbname=m1", pg.conninfo);
	old = db_open(conninfo);
	assert_non_null(old);
	assert_int_equal(db_worker_seen(old, 1, "w", NULL, 1), -1); /* no t1 */
	assert_int_equal(db_status_stages(old, 1, &t), 0);
	assert_int_equal(t.nrows, 0);
	db_rows_release(&t);
	db_free(old);
	cmd = xasprintf("psql -At -X \"%s\" -c 'SELECT max(version)::text || "
	    "count(*) FROM schema_version'", conninfo);
	out = popen(cmd, "r");
	assert_non_null(out);
	assert_non_null(fgets(line, sizeof line, out));
	pclose(out);
	assert_string_equal(line, "33\n");
	free(cmd);
	free(conninfo);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open),
		cmocka_unit_test(test_tournament),
		cmocka_unit_test(test_stage_store),
		cmocka_unit_test(test_first_match),
		cmocka_unit_test(test_all_games),
		cmocka_unit_test(test_standings),
		cmocka_unit_test(test_advancers),
		cmocka_unit_test(test_games),
		cmocka_unit_test(test_attempt_cap),
		cmocka_unit_test(test_rerun_failed),
		cmocka_unit_test(test_rerun_done),
		cmocka_unit_test(test_workers),
		cmocka_unit_test(test_migration),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
