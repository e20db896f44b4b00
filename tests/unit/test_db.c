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
 * database left at migration 1. A gauntlet and a combinations stage (two
 * more tournaments) are played from hand-made results and their tables
 * compared with hand-computed ones, and so is an all_vs_all stage (also
 * with no positive total); undecided games are played again on spare
 * datasets, through both recording paths, until the spares run out;
 * migration 4 is applied to a database holding migration-3 data. The
 * tests run in order and share the database.
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
		plan_games[i].nseats = 2;
		plan_games[i].seats[0] = (size_t)games_table[i].first;
		plan_games[i].seats[1] = (size_t)games_table[i].second;
		plan_games[i].seed = 1000 + i;
	}
	plan_games[1].seed = UINT64_MAX - 1;	/* survives the round trip */
	for (size_t m = 0; m < NMATCHES; m++) {
		plan_matches[m].group = m < 6 ? 0 : 1;
		plan_matches[m].nentries = 2;
		plan_matches[m].entries[0] = plan_games[2 * m].seats[0];
		plan_matches[m].entries[1] = plan_games[2 * m].seats[1];
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
static struct plan_game final_games[] = { { .dataset = 0,
	.seats = { P, R }, .nseats = 2, .seed = 77 } };
static struct plan_match final_matches[] = { { .group = 0,
	.entries = { P, R }, .nentries = 2, .games = final_games,
	.ngames = 1 } };
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
	assert_string_equal(line, "55\n");
	free(cmd);
	free(conninfo);
}

/* ---- gauntlet: tournament t2 ----
 *
 * Entries A B O1 O2 (0..3); opponents O1 by weight 10, O2 by the table
 * [40, 20, 0]; games_per_side 1 on one dataset: 2 games per opponent, the
 * entrant first in game 0. Results (seat A score, seat B score):
 *
 *	A-O1: A 5-3 O1 (won), O1 2-2 A (draw)	lost 0: 10 * 2 / 2 = 10.000
 *	A-O2: A 1-4 O2 (lost), O2 6-0 A (lost)	lost 2: points[2] = 0
 *	B-O1: B 0-1 O1 (lost), O1 0-3 B (won)	lost 1: 10 * 1 / 2 = 5.000
 *	B-O2: B 2-1 O2 (won), O2 1-1 B (draw)	lost 0: points[0] = 40
 *
 *	B 45.000 (lost 1) rank 1; A 10.000 (lost 2) rank 2. Advance 1: B.
 */
static struct spec_entry g_entries[4];
static struct spec_opponent g_opp[2];
static int64_t g_points[] = { 40, 20, 0 };
static struct spec_stage g_stage;
static struct spec g_spec;
static int64_t g_tid;

static const struct scored g_games[] = {
	{ 0, 2, 5, 3 }, { 2, 0, 2, 2 },
	{ 0, 3, 1, 4 }, { 3, 0, 6, 0 },
	{ 1, 2, 0, 1 }, { 2, 1, 0, 3 },
	{ 1, 3, 2, 1 }, { 3, 1, 1, 1 },
};

static void
build_other_spec(struct spec *sp, struct spec_entry *e, size_t n,
    const char *const *enames, const char *name, struct spec_stage *st)
{
	for (size_t i = 0; i < n; i++)
		e[i] = (struct spec_entry){ .name = (char *)enames[i],
		    .folder = (char *)"/bots/x", .run = (char *)"./bot" };
	*sp = spec;
	sp->name = (char *)name;
	sp->entries = e;
	sp->nentries = n;
	sp->stages = st;
	sp->nstages = 1;
}

/* Stores ps, then claims every game in order (checking its seats) and
 * records the scores: game i has nseats scores from scores[i]. */
static void
play_all(int64_t t, const struct plan_stage *ps, const char *const *enames,
    const int64_t (*scores)[4])
{
	size_t i = 0;

	assert_int_equal(db_stage_store(db, t, ps), 0);
	for (size_t m = 0; m < ps->nmatches; m++) {
		for (size_t k = 0; k < ps->matches[m].ngames; k++, i++) {
			const struct plan_game *gm = &ps->matches[m].games[k];
			struct msg_game g;
			struct msg_result r;

			assert_int_equal(db_game_claim(db, t, "w1", 60000, &g),
			    1);
			assert_int_equal(g.nseats, gm->nseats);
			r = result_for(&g, 0, 0);
			r.nseats = (uint32_t)gm->nseats;
			for (size_t s = 0; s < gm->nseats; s++) {
				assert_string_equal(g.seats[s].entry,
				    enames[gm->seats[s]]);
				r.seats[s] = r.seats[0];
				r.seats[s].score = scores[i][s];
			}
			record(&r, true);
			game_release(&g);
		}
	}
}

static void
test_gauntlet(void **state)
{
	static const char *const en[] = { "A", "B", "O1", "O2" };
	static struct plan_game gm[8];
	static struct plan_match pm[4];
	static size_t members[] = { 0, 1 };
	static struct plan_group grp[] = { { (char *)"A", members, 2 } };
	struct plan_stage ps = { 0, grp, 1, pm, 4 };
	int64_t scores[8][4] = { { 0 } };
	struct db_rows t;
	char **cols;
	size_t *adv, n;
	static const char *const want_cols[] = { "stage", "group", "rank",
	    "entry", "O1 lost", "O1 points", "O2 lost", "O2 points", "played",
	    "lost", "points" };
	static const char *const want[2][11] = {
		{ "evaluation", "A", "1", "B", "1", "5.000", "0", "40", "4",
		    "1", "45.000" },
		{ "evaluation", "A", "2", "A", "0", "10.000", "2", "0", "4",
		    "2", "10.000" },
	};

	(void)state;
	g_opp[0] = (struct spec_opponent){ .entry = (char *)"O1",
	    .weight = 10 };
	g_opp[1] = (struct spec_opponent){ .entry = (char *)"O2",
	    .points = g_points, .npoints = 3 };
	g_stage = (struct spec_stage){ .name = (char *)"evaluation",
	    .format = SPEC_GAUNTLET, .games_per_side = 1, .opponents = g_opp,
	    .nopponents = 2, .advance = 1 };
	build_other_spec(&g_spec, g_entries, 4, en, "t2", &g_stage);
	assert_int_equal(db_tournament_open(db, &g_spec, "t2", &g_tid), 0);
	for (size_t i = 0; i < 8; i++) {
		gm[i] = (struct plan_game){ .dataset = 0, .nseats = 2,
		    .seats = { (size_t)g_games[i].first,
		    (size_t)g_games[i].second }, .seed = 500 + i };
		scores[i][0] = g_games[i].score_first;
		scores[i][1] = g_games[i].score_second;
	}
	for (size_t m = 0; m < 4; m++)
		pm[m] = (struct plan_match){ .group = 0, .nentries = 2,
		    .entries = { gm[2 * m].seats[0], gm[2 * m].seats[1] },
		    .games = &gm[2 * m], .ngames = 2 };
	play_all(g_tid, &ps, en, (const int64_t (*)[4])scores);

	assert_int_equal(db_stage_table(db, g_tid, "evaluation", "gauntlet",
	    &t, &cols), 0);
	assert_int_equal(t.ncols, 11);
	assert_int_equal(t.nrows, 2);
	for (size_t c = 0; c < 11; c++) {
		assert_string_equal(cols[c], want_cols[c]);
		for (size_t r = 0; r < 2; r++)
			assert_string_equal(db_rows_cell(&t, r, c),
			    want[r][c]);
	}
	db_cols_free(cols, t.ncols);
	db_rows_release(&t);
	assert_int_equal(db_stage_advancers(db, g_tid, 0, &adv, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(adv[0], 1);
	free(adv);
}

/* ---- combinations: tournament t3 ----
 *
 * Entries a b c d, every 3-subset once on one dataset, seats in subset
 * order (rotation false). Scores by seat:
 *
 *	abc: a 3, b 1, c 2	a alone on top
 *	abd: a 0, b 4, d 4	b and d share the top: nobody won
 *	acd: a 6, c 0, d 3	a
 *	bcd: b 2, c 2, d 5	d
 *
 *	d: 4+3+5 = 12 / 3 = 4.000, won 1	rank 1
 *	a: 3+0+6 = 9 / 3 = 3.000, won 2		rank 2
 *	b: 1+4+2 = 7 / 3 = 2.333, won 0		rank 3
 *	c: 2+0+2 = 4 / 3 = 1.333, won 0		rank 4
 */
/* Game abd played again: a 9, b 0, d 0. a: 3+9+6 = 18 / 3 = 6.000, won
 * 3, rank 1; d: 0+3+5 = 8 / 3 = 2.667, won 1, rank 2; c 1.333
 * rank 3 (was 4); b: 1+0+2 = 3 / 3 = 1.000, rank 4. Every row changed;
 * changes come in the order of the rows after. */
static void
rerun_combination(int64_t t, int64_t game)
{
	struct db_rerun_info info;
	struct msg_game g;
	struct msg_result r;
	bool complete;
	int64_t rid;

	assert_int_equal(db_rerun_request(db, t, &game, 1, "cy", "replay",
	    &rid), 0);
	assert_int_equal(db_game_claim(db, t, "w1", 60000, &g), 1);
	assert_int_equal(g.game_id, game);
	assert_int_equal(g.nseats, 3);
	r = result_for(&g, 9, 0);
	r.nseats = 3;
	r.seats[2] = r.seats[1];
	record(&r, true);
	game_release(&g);
	assert_int_equal(db_rerun_finish(db, rid, &complete), 0);
	assert_true(complete);
	assert_int_equal(db_rerun_info(db, rid, &info), 1);
	assert_int_equal(info.nchanges, 4);
	assert_string_equal(info.changes[0].entry, "a");
	assert_string_equal(info.changes[0].before,
	    "rank 2, 3.000 pts (2-0-0), games won 2, net 9");
	assert_string_equal(info.changes[0].after,
	    "rank 1, 6.000 pts (3-0-0), games won 3, net 18");
	assert_string_equal(info.changes[1].entry, "d");
	assert_string_equal(info.changes[1].after,
	    "rank 2, 2.667 pts (1-0-0), games won 1, net 8");
	db_rerun_info_release(&info);
}

static void
test_combinations(void **state)
{
	static const char *const en[] = { "a", "b", "c", "d" };
	static const size_t subsets[4][3] = { { 0, 1, 2 }, { 0, 1, 3 },
	    { 0, 2, 3 }, { 1, 2, 3 } };
	static const int64_t scores[4][4] = { { 3, 1, 2 }, { 0, 4, 4 },
	    { 6, 0, 3 }, { 2, 2, 5 } };
	static const char *const want[4][8] = {
		{ "koth", "A", "1", "d", "3", "1", "12", "4.000" },
		{ "koth", "A", "2", "a", "3", "2", "9", "3.000" },
		{ "koth", "A", "3", "b", "3", "0", "7", "2.333" },
		{ "koth", "A", "4", "c", "3", "0", "4", "1.333" },
	};
	static struct plan_game gm[4];
	static struct plan_match pm[4];
	static size_t members[] = { 0, 1, 2, 3 };
	static struct plan_group grp[] = { { (char *)"A", members, 4 } };
	struct plan_stage ps = { 0, grp, 1, pm, 4 };
	static struct spec_entry c_entries[4];
	static struct spec_stage c_stage;
	static struct spec c_spec;
	struct db_game_row *rows;
	struct db_rows t;
	int64_t c_tid;
	char **cols;
	size_t n;

	(void)state;
	c_stage = (struct spec_stage){ .name = (char *)"koth",
	    .format = SPEC_COMBINATIONS, .seats = 3 };
	build_other_spec(&c_spec, c_entries, 4, en, "t3", &c_stage);
	assert_int_equal(db_tournament_open(db, &c_spec, "t3", &c_tid), 0);
	for (size_t m = 0; m < 4; m++) {
		gm[m] = (struct plan_game){ .dataset = 0, .nseats = 3,
		    .seed = 900 + m };
		pm[m] = (struct plan_match){ .group = 0, .nentries = 3,
		    .games = &gm[m], .ngames = 1 };
		memcpy(gm[m].seats, subsets[m], sizeof subsets[m]);
		memcpy(pm[m].entries, subsets[m], sizeof subsets[m]);
	}
	play_all(c_tid, &ps, en, scores);
	assert_int_equal(db_stage_table(db, c_tid, "koth", "combinations", &t,
	    &cols), 0);
	assert_int_equal(t.ncols, 8);
	assert_int_equal(t.nrows, 4);
	assert_string_equal(cols[7], "average");
	for (size_t r = 0; r < 4; r++)
		for (size_t c = 0; c < 8; c++)
			assert_string_equal(db_rows_cell(&t, r, c),
			    want[r][c]);
	db_cols_free(cols, t.ncols);
	db_rows_release(&t);
	/* Games list every seat; the winner is the one top score. */
	assert_int_equal(db_games(db, c_tid, &rows, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(rows[1].seats, "a,b,d");
	assert_string_equal(rows[1].scores, "0,4,4");
	assert_int_equal(rows[1].nseats, 3);
	assert_string_equal(rows[1].winner, "");
	assert_string_equal(rows[3].winner, "d");
	rerun_combination(c_tid, rows[1].game);
	db_games_free(rows, n);
}

/* ---- all_vs_all: tournament t4 ----
 *
 * Entries x y z, one dataset, repeat 2: each pair plays 4 games, first
 * entrant first in games 0 and 2. Scores (first seat, second seat):
 *
 *	xy: x 10-2 y, y 4-6 x, x 8-0 y, y 1-1 x	x 25, y 7
 *	xz: x 3-5 z, z 2-2 x, x 0-9 z, z 4-4 x		x 9, z 20
 *	yz: y 6-0 z, z 3-3 y, y 5-5 z, z 0-2 y		y 16, z 8
 *
 *	x: 34 / 2 = 17.000, mark 10.000			rank 1
 *	z: 28 / 2 = 14.000, mark 10 x 28 / 34 = 8.235	rank 2
 *	y: 23 / 2 = 11.500, mark 10 x 23 / 34 = 6.765	rank 3
 *
 * Advance 2: x, z. Then a copy where every odd score up to 4 is -1 and
 * the others 0: x -2, y -2, z -1 (totals -1, -1, -0.5); the best total
 * is below 0, so every mark is 0.
 */
static void
all_vs_all_plan(struct plan_stage *ps, struct plan_match *pm,
    struct plan_game *gm, uint64_t seed)
{
	static const size_t pairs[3][2] = { { 0, 1 }, { 0, 2 }, { 1, 2 } };

	for (size_t m = 0; m < 3; m++) {
		pm[m] = (struct plan_match){ .group = 0, .nentries = 2,
		    .games = &gm[4 * m], .ngames = 4 };
		memcpy(pm[m].entries, pairs[m], sizeof pairs[m]);
		for (size_t k = 0; k < 4; k++) {
			struct plan_game *g = &gm[4 * m + k];

			*g = (struct plan_game){ .dataset = 0, .nseats = 2,
			    .seed = seed + 4 * m + k };
			g->seats[0] = pairs[m][k % 2];
			g->seats[1] = pairs[m][1 - k % 2];
		}
	}
	ps->matches = pm;
	ps->nmatches = 3;
}

static void
check_table(int64_t t, const char *stage, const char *const (*want)[7],
    size_t nrows)
{
	struct db_rows rows;
	char **cols;

	assert_int_equal(db_stage_table(db, t, stage, "all_vs_all", &rows,
	    &cols), 0);
	assert_int_equal(rows.ncols, 7);
	assert_int_equal(rows.nrows, nrows);
	assert_string_equal(cols[5], "total");
	assert_string_equal(cols[6], "mark");
	for (size_t r = 0; r < nrows; r++)
		for (size_t c = 0; c < 7; c++)
			assert_string_equal(db_rows_cell(&rows, r, c),
			    want[r][c]);
	db_cols_free(cols, rows.ncols);
	db_rows_release(&rows);
}

/* Game xz 3 (z 4-4 x) played again: z 9-0 x. z 33 / 2 = 16.500, rank
 * 1, x 30 / 2 = 15.000, mark 10 x 30 / 33 = 9.091. */
static void
rerun_all_vs_all(int64_t t)
{
	static const char *const want[3][7] = {
		{ "ranking", "A", "1", "z", "8", "16.500", "10.000" },
		{ "ranking", "A", "2", "x", "8", "15.000", "9.091" },
		{ "ranking", "A", "3", "y", "8", "11.500", "6.970" },
	};
	struct db_rerun_info info;
	struct db_game_row *rows;
	struct msg_game g;
	struct msg_result r;
	int64_t game, rid;
	bool complete;
	size_t n;

	assert_int_equal(db_games(db, t, &rows, &n), 0);
	assert_int_equal(n, 12);
	game = rows[7].game;
	assert_string_equal(rows[7].first, "z");
	db_games_free(rows, n);
	assert_int_equal(db_rerun_request(db, t, &game, 1, "dee", "replay",
	    &rid), 0);
	assert_int_equal(db_game_claim(db, t, "w1", 60000, &g), 1);
	assert_int_equal(g.game_id, game);
	r = result_for(&g, 9, 0);
	record(&r, true);
	game_release(&g);
	assert_int_equal(db_rerun_finish(db, rid, &complete), 0);
	assert_true(complete);
	assert_int_equal(db_rerun_info(db, rid, &info), 1);
	assert_int_equal(info.nchanges, 2);
	assert_string_equal(info.changes[0].entry, "z");
	assert_string_equal(info.changes[0].before,
	    "rank 2, 14.000 pts (0-0-0), games won 0, net 28");
	assert_string_equal(info.changes[0].after,
	    "rank 1, 16.500 pts (0-0-0), games won 0, net 33");
	db_rerun_info_release(&info);
	check_table(t, "ranking", want, 3);
}

static void
test_all_vs_all(void **state)
{
	static const char *const en[] = { "x", "y", "z" };
	static const int64_t scores[12][4] = {
		{ 10, 2 }, { 4, 6 }, { 8, 0 }, { 1, 1 },
		{ 3, 5 }, { 2, 2 }, { 0, 9 }, { 4, 4 },
		{ 6, 0 }, { 3, 3 }, { 5, 5 }, { 0, 2 },
	};
	static const char *const want[3][7] = {
		{ "ranking", "A", "1", "x", "8", "17.000", "10.000" },
		{ "ranking", "A", "2", "z", "8", "14.000", "8.235" },
		{ "ranking", "A", "3", "y", "8", "11.500", "6.765" },
	};
	static const char *const want_neg[3][7] = {
		{ "neg", "A", "1", "z", "8", "-0.500", "0.000" },
		{ "neg", "A", "2", "x", "8", "-1.000", "0.000" },
		{ "neg", "A", "2", "y", "8", "-1.000", "0.000" },
	};
	static int64_t neg[12][4];
	static struct plan_game gm[12];
	static struct plan_match pm[3];
	static size_t members[] = { 0, 1, 2 };
	static struct plan_group grp[] = { { (char *)"A", members, 3 } };
	static struct spec_entry a_entries[3];
	static struct spec_stage a_stage[2];
	static struct spec a_spec;
	struct plan_stage ps = { 0, grp, 1, NULL, 0 };
	int64_t a_tid;
	size_t *adv, n;

	(void)state;
	a_stage[0] = (struct spec_stage){ .name = (char *)"ranking",
	    .format = SPEC_ALL_VS_ALL, .repeat = 2, .advance = 2 };
	build_other_spec(&a_spec, a_entries, 3, en, "t4", a_stage);
	assert_int_equal(db_tournament_open(db, &a_spec, "t4", &a_tid), 0);
	all_vs_all_plan(&ps, pm, gm, 500);
	play_all(a_tid, &ps, en, scores);
	check_table(a_tid, "ranking", want, 3);
	assert_int_equal(db_stage_advancers(db, a_tid, 0, &adv, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(adv[0], 0);
	assert_int_equal(adv[1], 2);
	free(adv);
	rerun_all_vs_all(a_tid);

	for (size_t i = 0; i < 12; i++)
		for (size_t k = 0; k < 2; k++)
			neg[i][k] = scores[i][k] > 4 ? 0 : -scores[i][k] % 2;
	a_stage[0].name = (char *)"neg";
	a_stage[0].advance = 0;
	build_other_spec(&a_spec, a_entries, 3, en, "t4neg", a_stage);
	assert_int_equal(db_tournament_open(db, &a_spec, "t4neg", &a_tid), 0);
	all_vs_all_plan(&ps, pm, gm, 600);
	play_all(a_tid, &ps, en, (const int64_t (*)[4])neg);
	check_table(a_tid, "neg", want_neg, 3);
}

/* ---- spare datasets: tournament t5 ----
 *
 * Entries x y, one match of two games on dataset d1, spares s1 and s2.
 * Game 0 is undecided (3-3): a follow-up on s1, same seats; undecided
 * again: one on s2; undecided again: no spare left, it counts, a draw.
 * Game 1 (y first) is undecided once, recorded through the batch path:
 * its follow-up on s1 is won by y 5-1. The match counts games 0'' (3-3)
 * and 1' (y 5-1): y wins it; the replaced games are kept for audit.
 */
static struct msg_game
claim_spare(int64_t t, const char *dataset_name, const char *first)
{
	struct msg_game g;

	assert_int_equal(db_game_claim(db, t, "w1", 60000, &g), 1);
	assert_string_equal(g.dataset_name, dataset_name);
	assert_string_equal(g.seats[0].entry, first);
	return g;
}

static void
record_undecided(struct msg_game *g, int64_t s0, int64_t s1, bool batch)
{
	struct msg_result r = result_for(g, s0, s1);
	struct db_record rec = { .r = &r, .worker = "w1" };

	r.end_reason = (char *)(s0 == s1 ? "undecided" : "won");
	if (batch) {
		assert_int_equal(db_results_record(db, &rec, 1), 0);
		assert_int_equal(rec.outcome, DB_RECORDED);
	} else
		record(&r, true);
	game_release(g);
}

static int64_t
count_rows(int64_t t, const char *where)
{
	char *cmd = xasprintf("psql -At -X \"%s\" -c \"SELECT count(*) FROM "
	    "games g JOIN matches m ON m.id = g.match_id JOIN stages s ON "
	    "s.id = m.stage_id WHERE s.tournament_id = %lld AND %s\"",
	    pg.conninfo, (long long)t, where);
	FILE *f = popen(cmd, "r");
	long long v = -1;

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lld", &v), 1);
	pclose(f);
	free(cmd);
	return v;
}

static void
test_spare_datasets(void **state)
{
	static const char *const en[] = { "x", "y" };
	static struct spec_entry s_entries[2];
	static struct spec_stage s_stage;
	static struct spec_dataset spares[2];
	static struct spec s_spec;
	static struct plan_game gm[2];
	static struct plan_match pm[1];
	static size_t members[] = { 0, 1 };
	static struct plan_group grp[] = { { (char *)"A", members, 2 } };
	struct plan_stage ps = { 0, grp, 1, pm, 1 };
	struct db_standing *rows;
	struct db_game_row *games;
	struct db_game_detail detail;
	struct msg_game g;
	int64_t s_tid, d, total, first_id;
	size_t n;

	(void)state;
	s_stage = (struct spec_stage){ .name = (char *)"rr",
	    .format = SPEC_ROUND_ROBIN, .groups = 1 };
	build_other_spec(&s_spec, s_entries, 2, en, "t5", &s_stage);
	spares[0] = (struct spec_dataset){ .name = (char *)"s1",
	    .path = dataset_path };
	spares[1] = (struct spec_dataset){ .name = (char *)"s2",
	    .path = dataset_path };
	s_spec.spares = spares;
	s_spec.nspares = 2;
	assert_int_equal(db_tournament_open(db, &s_spec, "t5", &s_tid), 0);
	pm[0] = (struct plan_match){ .group = 0, .nentries = 2, .games = gm,
	    .ngames = 2, .entries = { 0, 1 } };
	gm[0] = (struct plan_game){ .nseats = 2, .seats = { 0, 1 },
	    .seed = 77 };
	gm[1] = (struct plan_game){ .nseats = 2, .seats = { 1, 0 },
	    .seed = 78 };
	assert_int_equal(db_stage_store(db, s_tid, &ps), 0);

	g = claim_spare(s_tid, "d1.txt", "x");
	first_id = g.game_id;
	record_undecided(&g, 3, 3, false);
	assert_int_equal(count_rows(s_tid, "g.replaced_by IS NOT NULL"), 1);
	assert_int_equal(count_rows(s_tid, "g.state = 'queued'"), 2);
	g = claim_spare(s_tid, "d1.txt", "y");
	record_undecided(&g, 2, 2, true);
	/* Follow-ups come after in the match: game 0's, then game 1's. */
	g = claim_spare(s_tid, "s1", "x");
	assert_true(g.seed != 77 && g.seed < (UINT64_C(1) << 53));
	assert_string_equal(g.seats[1].entry, "y");
	record_undecided(&g, 3, 3, false);
	g = claim_spare(s_tid, "s1", "y");
	record_undecided(&g, 5, 1, true);
	/* Not done until the second follow-up of game 0 is played. */
	assert_int_equal(db_standings(db, s_tid, "rr", &rows, &n), 0);
	assert_int_equal(rows[0].played, 0);
	db_standings_free(rows, n);
	g = claim_spare(s_tid, "s2", "x");
	record_undecided(&g, 3, 3, false);
	assert_int_equal(db_game_claim(db, s_tid, "w1", 60000, &g), 0);
	assert_int_equal(count_rows(s_tid, "true"), 5);
	assert_int_equal(count_rows(s_tid, "g.replaced_by IS NOT NULL"), 3);
	assert_int_equal(db_progress(db, s_tid, &d, &total), 0);
	assert_int_equal(d, 5);
	assert_int_equal(total, 5);
	/* y won the match: a draw (the last undecided) and a win. */
	assert_int_equal(db_standings(db, s_tid, "rr", &rows, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].entry, "y");
	assert_int_equal(rows[0].points, 3);
	assert_int_equal(rows[0].games_won, 1);
	assert_int_equal(rows[0].net_points, 4);
	assert_string_equal(rows[1].entry, "x");
	assert_int_equal(rows[1].played, 1);
	assert_int_equal(rows[1].lost, 1);
	db_standings_free(rows, n);
	/* Only the counted games are exported. */
	assert_int_equal(db_games(db, s_tid, &games, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(games[0].dataset, "s1");
	assert_string_equal(games[0].winner, "y");
	assert_string_equal(games[1].dataset, "s2");
	assert_string_equal(games[1].end_reason, "undecided");
	assert_string_equal(games[1].winner, "");
	/* The undecided game is kept, pointing at its follow-up. */
	assert_int_equal(db_game_detail(db, first_id, &detail), 1);
	/* Game 0's first follow-up came just before game 1's. */
	assert_int_equal(detail.replaced_by, games[0].game - 1);
	assert_int_equal(detail.nattempts, 1);
	assert_string_equal(detail.attempts[0].end_reason, "undecided");
	db_game_detail_release(&detail);
	assert_int_equal(db_game_detail(db, games[1].game, &detail), 1);
	assert_int_equal(detail.replaced_by, 0);
	db_game_detail_release(&detail);
	db_games_free(games, n);
}

/* A database at migration 3 holding one played match (x-y: x 5-3 y, then
 * y 1-1 x) gets migration 4: seats and entries moved, standings kept (x
 * won the match: 3 points, 1 game won, net 2). */
static void
test_migration4(void **state)
{
	const char *src = getenv("ARENA_SOURCE_DIR");
	char *cmd, *conninfo;
	struct db *old;
	struct db_standing *rows;
	size_t n;

	(void)state;
	assert_non_null(src);
	cmd = xasprintf("psql -q -X -v ON_ERROR_STOP=1 \"%s\" -c 'CREATE "
	    "DATABASE m3' && sed '/^-- migration 4/,$d' '%s/coordinator/"
	    "schema.sql' | psql -q -X -v ON_ERROR_STOP=1 \"%s dbname=m3\" && "
	    "psql -q -X -v ON_ERROR_STOP=1 \"%s dbname=m3\" -f '%s/tests/"
	    "unit/test_db_m3.sql'", pg.conninfo, src, pg.conninfo,
	    pg.conninfo, src);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	conninfo = xasprintf("%s dbname=m3", pg.conninfo);
	old = db_open(conninfo);
	assert_non_null(old);
	assert_int_equal(db_standings(old, 1, "rr", &rows, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].entry, "x");
	assert_int_equal(rows[0].points, 3);
	assert_int_equal(rows[0].games_won, 1);
	assert_int_equal(rows[0].net_points, 2);
	assert_string_equal(rows[1].entry, "y");
	assert_int_equal(rows[1].played, 1);
	assert_int_equal(rows[1].points, 0);
	db_standings_free(rows, n);
	db_free(old);
	cmd = xasprintf("psql -At -X \"%s\" -c \"SELECT string_agg(x, ' ' "
	    "ORDER BY x) FROM (SELECT 'm' || match_id || pos || entry_id AS x "
	    "FROM match_entries UNION ALL SELECT 'g' || game_id || seat || "
	    "entry_id FROM game_seats) s\" | grep -qx 'g101 g112 g202 g211 "
	    "m101 m112'", conninfo);
	assert_int_equal(system(cmd), 0);
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
		cmocka_unit_test(test_gauntlet),
		cmocka_unit_test(test_combinations),
		cmocka_unit_test(test_all_vs_all),
		cmocka_unit_test(test_spare_datasets),
		cmocka_unit_test(test_migration4),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
