/* Unit tests for games/replay with a fake game ("sum": seats answer in
 * turn, each answer a number added to its score, `calls` answers per seat;
 * a negative number is illegal and adds nothing): replays that reproduce
 * a result, faults (also before the first call), and every malformed
 * replay named by its line; a watcher sees every state in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/replay.h"

struct game_dataset {
	int calls;
};

struct game_state {
	int calls, seats, made, faulted;
	int64_t sum[REPLAY_MAX_SEATS];
};

static struct game_dataset *
sum_parse(const char *name, const char *text, size_t len, char *err,
    size_t errlen)
{
	struct game_dataset *ds;
	int n = atoi(text);

	(void)len;
	if (n < 1) {
		snprintf(err, errlen, "%s:1:1: expected a number", name);
		return NULL;
	}
	ds = xmalloc(sizeof *ds);
	ds->calls = n;
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

	s->calls = ds->calls;
	s->seats = seats;
	s->faulted = -1;
	s->sum[0] = (int64_t)(seed % 10);	/* the seed matters */
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
sum_view(const struct game_state *s, int seat, int64_t ms)
{
	(void)s; (void)seat; (void)ms;
	return xstrdup("go\n");
}

static enum game_move
sum_apply(struct game_state *s, int seat, const char *answer)
{
	long v = *answer ? atol(answer) : 0;

	s->made++;
	if (v < 0)
		return GAME_MOVE_ILLEGAL;
	s->sum[seat] += v;
	return v ? GAME_MOVE_OK : GAME_MOVE_PASS;
}

static void
sum_fault(struct game_state *s, int seat)
{
	s->faulted = seat;
	s->sum[seat] = -1;
}

static void
sum_scores(const struct game_state *s, int64_t *scores)
{
	memcpy(scores, s->sum, sizeof s->sum[0] * (size_t)s->seats);
}

static const char *
sum_end(const struct game_state *s)
{
	return sum_next(s) >= 0 ? NULL : s->faulted >= 0 ? "fault" : "done";
}

/* The sums so far, "3 0 0": the frame the watcher test records. */
static char *
sum_frame(const struct game_state *s)
{
	char buf[200];
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < s->seats; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%lld",
		    i ? " " : "", (long long)s->sum[i]);
	return xstrdup(buf);
}

static const struct game sum_game = {
	.name = "sum", .version = "1", .min_seats = 2, .max_seats = 4,
	.dataset_parse = sum_parse, .dataset_free = sum_dataset_free,
	.start = sum_start, .free_state = sum_free, .next_seat = sum_next,
	.view = sum_view, .apply = sum_apply, .fault = sum_fault,
	.scores = sum_scores, .end_reason = sum_end, .frame = sum_frame,
};

static int
run(const char *dataset, uint64_t seed, int seats, const char *text,
    struct replay_outcome *o, char *err)
{
	return replay_run(&sum_game, "d", dataset, seed, seats, text, o, err,
	    256);
}

static void
test_reproduces_a_game(void **state)
{
	struct replay_outcome o;
	char err[256] = "";

	(void)state;
	assert_int_equal(run("2", 13, 3, "A 5\nB 1\nC\nA -4\nB 7\nC 2\n", &o,
	    err), 0);
	assert_int_equal(o.nseats, 3);
	assert_int_equal(o.scores[0], 3 + 5);
	assert_int_equal(o.scores[1], 8);
	assert_int_equal(o.scores[2], 2);
	assert_string_equal(o.end_reason, "done");
	assert_int_equal(o.calls, 6);
}

static void
test_fault_ends_with_its_verdict(void **state)
{
	struct replay_outcome o;
	char err[256] = "";

	(void)state;
	assert_int_equal(run("3", 0, 2, "A 4\nB 2\nA 1\n! B TO\n", &o, err), 0);
	assert_int_equal(o.scores[0], 5);
	assert_int_equal(o.scores[1], -1);
	assert_string_equal(o.end_reason, "TO");
	/* A build failure: seat B faults before anyone is called. */
	assert_int_equal(run("3", 0, 2, "! B RE\n", &o, err), 0);
	assert_int_equal(o.scores[1], -1);
	assert_string_equal(o.end_reason, "RE");
	assert_int_equal(o.calls, 0);
}

static void
expect_error(const char *dataset, int seats, const char *text,
    const char *want)
{
	struct replay_outcome o;
	char err[256] = "";

	assert_int_equal(run(dataset, 0, seats, text, &o, err), -1);
	if (strstr(err, want) == NULL)
		fail_msg("error \"%s\" does not contain \"%s\"", err, want);
}

static void
test_malformed_replays_are_named(void **state)
{
	(void)state;
	expect_error("2", 2, "A 1\nA 1\n", "replay line 2: seat B is to move");
	expect_error("1", 2, "A 1\nB 1\nA 1\n",
	    "replay line 3: \"A 1\" after the end");
	expect_error("2", 2, "A 1\nB 1\n",
	    "replay line 2: the replay stops while seat A is to move");
	expect_error("2", 2, "A 1\nB 1\n! truncated\n",
	    "replay line 3: the replay was cut");
	expect_error("2", 2, "A 1\n! B XY\n", "replay line 2: expected");
	expect_error("2", 2, "A 1\n! A TO\n", "replay line 2: expected");
	expect_error("2", 2, "A1\n", "replay line 1: seat A is to move");
	expect_error("0", 2, "", "d:1:1: expected a number");
	expect_error("2", 5, "", "sum cannot have 5 seats");
}

struct seen {
	char text[1024];	/* "seat line: frame" per call, one a line */
	int frames;
};

static void
record(const struct game_state *s, int seat, const char *line, void *arg)
{
	struct seen *v = arg;
	char *f = sum_game.frame(s);
	size_t n = strlen(v->text);

	snprintf(v->text + n, sizeof v->text - n, "%d %s: %s\n", seat,
	    line ? line : "-", f);
	free(f);
	v->frames++;
}

static int
watch(const char *dataset, int seats, const char *text, struct seen *v,
    struct replay_outcome *o, char *err)
{
	struct replay_watcher w = { .frame = record, .arg = v };

	memset(v, 0, sizeof *v);
	return replay_watch(&sum_game, "d", dataset, 13, seats, text, &w, o,
	    err, 256);
}

static void
test_watcher_sees_every_state(void **state)
{
	struct replay_outcome o;
	struct seen v;
	char err[256] = "";

	(void)state;
	assert_int_equal(watch("2", 3, "A 5\nB 1\nC\nA -4\nB 7\nC 2\n", &v,
	    &o, err), 0);
	assert_int_equal(v.frames, 7);
	assert_string_equal(v.text, "-1 -: 3 0 0\n0 A 5: 8 0 0\n"
	    "1 B 1: 8 1 0\n2 C: 8 1 0\n0 A -4: 8 1 0\n1 B 7: 8 8 0\n"
	    "2 C 2: 8 8 2\n");
	assert_int_equal(o.scores[1], 8);
	/* The fault is a step too; a build failure is the only one. */
	assert_int_equal(watch("3", 2, "A 4\nB 2\n! A ML\n", &v, &o, err), 0);
	assert_string_equal(v.text, "-1 -: 3 0\n0 A 4: 7 0\n1 B 2: 7 2\n"
	    "0 ! A ML: -1 2\n");
	assert_int_equal(watch("3", 2, "! B RE\n", &v, &o, err), 0);
	assert_string_equal(v.text, "-1 -: 3 0\n1 ! B RE: 3 -1\n");
	/* A bad line is not shown: the frames stop before it. */
	assert_int_equal(watch("2", 2, "A 1\nA 1\n", &v, &o, err), -1);
	assert_string_equal(v.text, "-1 -: 3 0\n0 A 1: 4 0\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reproduces_a_game),
		cmocka_unit_test(test_fault_ends_with_its_verdict),
		cmocka_unit_test(test_malformed_replays_are_named),
		cmocka_unit_test(test_watcher_sees_every_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
