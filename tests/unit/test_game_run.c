/* Unit tests for worker/game_run with a fake game ("sum": each seat answers
 * a number N times, the highest sum wins) and the script bots of
 * tests/data/bots: normal end, illegal answers, faults, the per-game time
 * budget, builds, and our own failures; the same game with per-turn bots
 * (a failed call is a pass, the game goes on; the seat's folder is its
 * memory, wiped after), and a persistent bot writing after the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "common/tree.h"
#include "worker/game_run.h"

struct game_dataset {
	int calls;		/* calls per seat */
};

struct game_state {
	int calls, seats, made;	/* calls made so far, all seats */
	int64_t sum[PROTO_MAX_SEATS];
	int faulted;		/* seat, or -1 */
};

static struct game_dataset *
sum_parse(const char *name, const char *text, size_t len, char *err,
    size_t errlen)
{
	struct game_dataset *ds;
	char *end;
	long n = strtol(text, &end, 10);

	(void)len;
	if (end == text || n < 1) {
		snprintf(err, errlen, "%s:1:1: expected a number", name);
		return NULL;
	}
	ds = xmalloc(sizeof *ds);
	ds->calls = (int)n;
	return ds;
}

static void
sum_dataset_free(struct game_dataset *ds)
{
	free(ds);
}

static struct game_state *
sum_start(const struct game_dataset *ds, int seats, uint64_t seed)
{
	struct game_state *s = xcalloc(1, sizeof *s);

	(void)seed;
	s->calls = ds->calls;
	s->seats = seats;
	s->faulted = -1;
	return s;
}

static void
sum_free(struct game_state *s)
{
	free(s);
}

static int
sum_next(const struct game_state *s)
{
	if (s->faulted >= 0 || s->made >= s->calls * s->seats)
		return -1;
	return s->made % s->seats;
}

static char *
sum_view(const struct game_state *s, int seat, int64_t remaining_ms)
{
	(void)seat;
	return xasprintf("turn %d %lld\n", s->made, (long long)remaining_ms);
}

static enum game_move
sum_apply(struct game_state *s, int seat, const char *answer)
{
	char *end;
	long v = strtol(answer, &end, 10);

	s->made++;
	if (end == answer || *end)
		return GAME_MOVE_ILLEGAL;
	s->sum[seat] += v;
	return GAME_MOVE_OK;
}

static void
sum_fault(struct game_state *s, int seat)
{
	s->faulted = seat;
}

static void
sum_scores(const struct game_state *s, int64_t *scores)
{
	for (int i = 0; i < s->seats; i++)
		scores[i] = i == s->faulted ? -1 : s->sum[i];
}

static const char *
sum_end_reason(const struct game_state *s)
{
	if (sum_next(s) >= 0)
		return NULL;
	return s->faulted >= 0 ? "fault" : "done";
}

static const struct game sum_game = {
	.name = "sum",
	.version = "0.1",
	.min_seats = 2,
	.max_seats = 3,
	.dataset_parse = sum_parse,
	.dataset_free = sum_dataset_free,
	.start = sum_start,
	.free_state = sum_free,
	.next_seat = sum_next,
	.view = sum_view,
	.apply = sum_apply,
	.fault = sum_fault,
	.scores = sum_scores,
	.end_reason = sum_end_reason,
};

/* With per-turn bots "" is the game's "no answer": a pass. */
static enum game_move
sum_turn_apply(struct game_state *s, int seat, const char *answer)
{
	if (*answer == '\0') {
		s->made++;
		return GAME_MOVE_PASS;
	}
	return sum_apply(s, seat, answer);
}

static const struct game sum_turn_game = {
	.name = "sum",
	.version = "0.1",
	.min_seats = 2,
	.max_seats = 3,
	.bots = GAME_BOTS_PER_TURN_ARG,
	.dataset_parse = sum_parse,
	.dataset_free = sum_dataset_free,
	.start = sum_start,
	.free_state = sum_free,
	.next_seat = sum_next,
	.view = sum_view,
	.apply = sum_turn_apply,
	.fault = sum_fault,
	.scores = sum_scores,
	.end_reason = sum_end_reason,
};

static char bots_dir[4096];
static char data_dir[64];
static char turn_bots[128];	/* bots written by main() */

/* Shell builtins only: a bot may not start processes. */
static const char *const turn_scripts[][2] = {
	{ "count.sh", "n=0\n[ -f count ] && read -r n < count\n"
	    "n=$((n + 1))\necho $n > count\necho $n\n" },
	{ "spin.sh", "while :; do :; done\n" },
	{ "after.sh", "read -r l\necho 5\nread -r l\necho after\n" },
};

/* A game of `calls` calls per seat between the bots run by run[]. */
static void
setup_game(struct msg *m, const char *calls, const char *const *run,
    uint32_t nseats)
{
	struct msg_game *g = &m->u.game;

	memset(m, 0, sizeof *m);
	m->type = MSG_GAME;
	g->game_id = 9;
	g->attempt = 1;
	g->game = xstrdup("sum");
	g->dataset_name = xstrdup("calls.txt");
	g->dataset = xstrdup(calls);
	g->seed = 1;
	g->limits = (struct spec_limits){ .call_ms = 200, .game_ms = 5000,
	    .memory_mb = 256, .resident_mb = 128, .clock = SPEC_CLOCK_WALL };
	g->nseats = nseats;
	for (uint32_t i = 0; i < nseats; i++) {
		g->seats[i].entry = xasprintf("bot%u", i);
		g->seats[i].folder = xstrdup(bots_dir);
		g->seats[i].run = xstrdup(run[i]);
	}
}

/* Built folders under <data>/builds holding file. */
static int
built_count(const char *file)
{
	char path[128], *f;
	DIR *d;
	struct dirent *de;
	int n = 0;

	snprintf(path, sizeof path, "%s/builds", data_dir);
	d = opendir(path);
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		f = xasprintf("%s/%s/box/%s", path, de->d_name, file);
		n += access(f, F_OK) == 0;
		free(f);
	}
	closedir(d);
	return n;
}

static int
play(struct msg *game, struct msg *result)
{
	int rc;

	memset(result, 0, sizeof *result);
	result->type = MSG_RESULT;
	rc = game_run(&sum_game, &game->u.game, data_dir, &result->u.result);
	return rc;
}

static void
test_normal(void **state)
{
	const char *const run[] = { "sh ./number.sh 3", "sh ./number.sh 5" };
	struct msg g, res;
	struct msg_result *r = &res.u.result;

	(void)state;
	setup_game(&g, "3", run, 2);
	assert_int_equal(play(&g, &res), 0);
	assert_int_equal(r->nseats, 2);
	assert_int_equal(r->seats[0].score, 9);
	assert_int_equal(r->seats[1].score, 15);
	assert_int_equal(r->seats[0].verdict, VERDICT_OK);
	assert_int_equal(r->seats[1].verdict, VERDICT_OK);
	assert_string_equal(r->end_reason, "done");
	assert_string_equal(r->referee, "sum 0.1");
	assert_string_equal(r->replay, "A 3\nB 5\nA 3\nB 5\nA 3\nB 5\n");
	assert_true(r->seats[0].wall_ms >= 0 && r->seats[0].peak_kb > 0);
	msg_release(&res);
	msg_release(&g);
}

static void
test_illegal(void **state)
{
	const char *const run[] = { "sh ./garbage.sh", "sh ./number.sh 1",
	    "sh ./echo.sh" };
	struct msg g, res;
	struct msg_result *r = &res.u.result;

	(void)state;
	setup_game(&g, "2", run, 3);
	assert_int_equal(play(&g, &res), 0);
	assert_int_equal(r->seats[0].verdict, VERDICT_WA);
	assert_int_equal(r->seats[0].illegal, 2);
	assert_int_equal(r->seats[1].verdict, VERDICT_OK);
	assert_int_equal(r->seats[1].score, 2);
	assert_int_equal(r->seats[2].verdict, VERDICT_WA);
	msg_release(&res);
	msg_release(&g);
}

static void
test_fault(void **state)
{
	const char *const run[] = { "sh ./number.sh 4", "sh ./crash.sh" };
	struct msg g, res;
	struct msg_result *r = &res.u.result;

	(void)state;
	setup_game(&g, "3", run, 2);
	assert_int_equal(play(&g, &res), 0);
	assert_int_equal(r->seats[0].verdict, VERDICT_OK);
	assert_int_equal(r->seats[1].verdict, VERDICT_RE);
	assert_int_equal(r->seats[0].score, 4);
	assert_int_equal(r->seats[1].score, -1);
	assert_string_equal(r->end_reason, "RE");
	assert_non_null(strstr(r->detail, "seat B (bot1)"));
	assert_string_equal(r->replay, "A 4\n! B RE\n");
	msg_release(&res);
	msg_release(&g);
}

static void
test_game_time(void **state)
{
	const char *const run[] = { "sh ./slow.sh", "sh ./number.sh 1" };
	struct msg g, res;
	struct msg_result *r = &res.u.result;

	(void)state;
	/* 80 ms a call, 200 ms a game: the third call runs out. */
	setup_game(&g, "10", run, 2);
	g.u.game.limits.game_ms = 200;
	assert_int_equal(play(&g, &res), 0);
	assert_int_equal(r->seats[0].verdict, VERDICT_TO);
	assert_int_equal(r->seats[1].verdict, VERDICT_OK);
	assert_non_null(strstr(r->detail, "game time exceeded"));
	assert_true(r->seats[0].wall_ms >= 190 && r->seats[0].wall_ms < 400);
	assert_string_equal(r->replay, "A 1\nB 1\nA 1\nB 1\n! A TO\n");
	msg_release(&res);
	msg_release(&g);
}

static void
test_build(void **state)
{
	const char *const run[] = { "sh ./file.sh", "sh ./number.sh 1" };
	struct msg g, res;
	struct msg_result *r = &res.u.result;

	(void)state;
	setup_game(&g, "2", run, 2);
	/* The build runs in the sandbox too, and may start processes. */
	g.u.game.seats[0].build = xstrdup("echo 7 > n.txt && cat n.txt");
	assert_int_equal(play(&g, &res), 0);
	assert_int_equal(r->seats[0].score, 14);
	/* Built once in its own folder, which keeps the build's output. */
	assert_int_equal(built_count("n.txt"), 1);
	msg_release(&res);
	/* A failing build is the entry's fault, reported with its output. */
	free(g.u.game.seats[1].build);
	g.u.game.seats[1].build = xstrdup("echo compiling; echo oops >&2; "
	    "exit 1");
	assert_int_equal(play(&g, &res), 0);
	assert_int_equal(r->seats[1].verdict, VERDICT_RE);
	assert_string_equal(r->end_reason, "RE");
	assert_non_null(strstr(r->detail, "build failed (exit code 1): oops"));
	assert_string_equal(r->replay, "! B RE\n");
	msg_release(&res);
	/* The failure is remembered, not rebuilt. */
	assert_int_equal(play(&g, &res), 0);
	assert_non_null(strstr(r->detail, "build failed (exit code 1): oops"));
	msg_release(&res);
	msg_release(&g);
}

/* What a bot writes in its folder stays in its game's sandbox: the built
 * folder the next game starts from is unchanged. */
static void
test_scratch_wiped(void **state)
{
	const char *const run[] = { "sh ./scribble.sh", "sh ./number.sh 1" };
	struct msg g, res;

	(void)state;
	setup_game(&g, "2", run, 2);
	assert_int_equal(play(&g, &res), 0);
	assert_int_equal(res.u.result.seats[0].verdict, VERDICT_OK);
	assert_int_equal(res.u.result.seats[0].score, 2);
	assert_true(built_count("scribble.sh") >= 1);
	assert_int_equal(built_count("scribble.txt"), 0);
	msg_release(&res);
	msg_release(&g);
}

/* Per-turn bots: seat B always late (TO, a pass each time, the game goes
 * on); seat A counts its calls in its folder. */
static void
test_per_turn(void **state)
{
	const char *const run[] = { "sh ./count.sh", "sh ./spin.sh" };
	struct msg g, res;
	struct msg_result *r = &res.u.result;

	(void)state;
	setup_game(&g, "3", run, 2);
	g.u.game.limits.call_ms = 50;
	for (int i = 0; i < 2; i++) {
		free(g.u.game.seats[i].folder);
		g.u.game.seats[i].folder = xstrdup(turn_bots);
	}
	memset(&res, 0, sizeof res);
	res.type = MSG_RESULT;
	assert_int_equal(game_run(&sum_turn_game, &g.u.game, data_dir, r), 0);
	assert_int_equal(r->seats[0].verdict, VERDICT_OK);
	assert_int_equal(r->seats[0].score, 6);
	assert_int_equal(r->seats[1].verdict, VERDICT_TO);
	assert_int_equal(r->seats[1].score, 0);
	assert_true(r->seats[1].wall_ms >= 150 && r->seats[1].cpu_ms > 0);
	assert_string_equal(r->end_reason, "done");
	assert_non_null(strstr(r->detail, "seat B (bot1): no answer within "
	    "50 ms"));
	assert_string_equal(r->replay, "A 1\nB \nA 2\nB \nA 3\nB \n");
	msg_release(&res);
	msg_release(&g);
}

/* A persistent bot that writes once its game is over: WA, its score
 * kept. */
static void
test_wrote_after(void **state)
{
	const char *const run[] = { "sh ./after.sh", "sh ./number.sh 1" };
	struct msg g, res;
	struct msg_result *r = &res.u.result;

	(void)state;
	setup_game(&g, "1", run, 2);
	free(g.u.game.seats[0].folder);
	g.u.game.seats[0].folder = xstrdup(turn_bots);
	assert_int_equal(play(&g, &res), 0);
	assert_int_equal(r->seats[0].verdict, VERDICT_WA);
	assert_int_equal(r->seats[0].score, 5);
	assert_int_equal(r->seats[1].verdict, VERDICT_OK);
	assert_string_equal(r->end_reason, "done");
	assert_non_null(strstr(r->detail, "wrote after the game ended"));
	assert_string_equal(r->replay, "A 5\nB 1\n");
	msg_release(&res);
	msg_release(&g);
}

/* Writes turn_scripts into turn_bots. */
static int
write_turn_bots(void)
{
	FILE *f;
	char *path;

	snprintf(turn_bots, sizeof turn_bots, "%s/turn-bots", data_dir);
	if (mkdir(turn_bots, 0755) == -1)
		return -1;
	for (size_t i = 0; i < sizeof turn_scripts / sizeof turn_scripts[0];
	    i++) {
		path = xasprintf("%s/%s", turn_bots, turn_scripts[i][0]);
		f = fopen(path, "w");
		free(path);
		if (f == NULL || fputs(turn_scripts[i][1], f) == EOF ||
		    fclose(f) == EOF)
			return -1;
	}
	return 0;
}

static void
test_our_failures(void **state)
{
	const char *const run[] = { "sh ./echo.sh", "sh ./echo.sh" };
	struct msg g, res;
	struct msg_result *r = &res.u.result;

	(void)state;
	setup_game(&g, "none", run, 2);
	assert_int_equal(play(&g, &res), -1);
	assert_int_equal(r->seats[0].verdict, VERDICT_XX);
	assert_int_equal(r->seats[1].verdict, VERDICT_XX);
	assert_non_null(strstr(r->detail, "calls.txt:1:1"));
	msg_release(&res);
	g.u.game.nseats = 1;
	assert_int_equal(play(&g, &res), -1);
	assert_int_equal(r->seats[0].verdict, VERDICT_XX);
	msg_release(&res);
	g.u.game.nseats = 2;
	msg_release(&g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normal),
		cmocka_unit_test(test_illegal),
		cmocka_unit_test(test_fault),
		cmocka_unit_test(test_game_time),
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_scratch_wiped),
		cmocka_unit_test(test_our_failures),
		cmocka_unit_test(test_per_turn),
		cmocka_unit_test(test_wrote_after),
	};
	const char *src = getenv("ARENA_SOURCE_DIR");
	int rc;

	log_init("test", false);
	snprintf(bots_dir, sizeof bots_dir, "%s/tests/data/bots",
	    src ? src : ".");
	snprintf(data_dir, sizeof data_dir, "/tmp/arena-test-gr-XXXXXX");
	/* The sandbox's uids must reach the copies inside. */
	if (mkdtemp(data_dir) == NULL || chmod(data_dir, 0755) == -1 ||
	    write_turn_bots() == -1)
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (tree_remove(data_dir) == -1)
		rc = 1;
	return rc;
}
