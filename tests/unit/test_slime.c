/*
 * Unit tests for games/slime: the rules' worked examples, the view of the
 * original's example, every pass case in the original's order, the answer
 * parser, both ends (checked before every call), scores, the dataset
 * parser's errors, the generator, replay determinism; then the house bots
 * and starter kits, run as programs (popen, one process per call as the
 * worker does) against the referee: every answer legal, greedy's exact
 * choice, and lookahead clearly ahead of random over a fixed series.
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

#include "games/game.h"

/* The spec's examples: 4 x 5 fragments, padded with an empty last row to a
 * square 5 x 5 board (no move below touches row 4). Mover: player 1. */
static const struct {
	const char *before, *move, *after;
} examples[] = {
	{ "11.22/1..22/..22./...../.....", "0 1 1 2",
	  "11.12/1.112/..11./...../....." },
	{ "11..2/1...2/....2/...22/.....", "0 1 2 3",
	  "1...2/1...1/...11/...11/....." },
	{ "11..2/1.1.2/....2/..222/.....", "0 1 1 2",
	  "1.112/11112/.1112/..222/....." },
};

/* data/slime/example_arena_8x8.txt and example_input_player3.txt */
static const char example_arena[] =
    "11111222\n11111444\n11.22444\n.1222.4.\n"
    "333.3244\n33333.44\n333...44\n333....4\n";
static const char example_input3[] =
    "3,11111222,11111444,11.22444,.1222.4.,333.3244,33333.44,333...44,"
    "333....4";

static const char start8[] =
    "1......2\n........\n........\n........\n"
    "........\n........\n........\n3......4\n";

static const struct game *
sl(void)
{
	const struct game *g = games_find("slime");

	assert_non_null(g);
	return g;
}

static struct game_dataset *
load(const char *text)
{
	char err[256] = "";
	struct game_dataset *ds = sl()->dataset_parse("t", text, strlen(text),
	    err, sizeof err);

	if (ds == NULL)
		fail_msg("dataset rejected: %s", err);
	return ds;
}

/* "a/b/c" rows to a board file. */
static char *
rows_to_text(const char *rows)
{
	char *t = strdup(rows);

	for (char *p = t; *p != '\0'; p++)
		if (*p == '/')
			*p = '\n';
	return t;
}

/* The board as "row/row/...", from the view of seat 0. */
static void
board_of(struct game_state *s, char *out, size_t len)
{
	char *v = sl()->view(s, 0, 0);

	assert_true(strlen(v + 2) < len);
	strcpy(out, v + 2);
	for (char *p = out; *p != '\0'; p++)
		if (*p == ',')
			*p = '/';
	free(v);
}

static enum game_move
play(struct game_state *s, const char *answer)
{
	int seat = sl()->next_seat(s);

	assert_true(seat >= 0);
	return sl()->apply(s, seat, answer);
}

static void
test_worked_examples(void **state)
{
	char got[64];

	(void)state;
	for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
		char *text = rows_to_text(examples[i].before);
		struct game_dataset *ds = load(text);
		struct game_state *s = sl()->start(ds, 2, 1);

		assert_int_equal(play(s, examples[i].move), GAME_MOVE_OK);
		board_of(s, got, sizeof got);
		assert_string_equal(got, examples[i].after);
		assert_int_equal(sl()->next_seat(s), 1);
		sl()->free_state(s);
		sl()->dataset_free(ds);
		free(text);
	}
}

static void
test_view_of_example(void **state)
{
	struct game_dataset *ds = load(example_arena);
	struct game_state *s = sl()->start(ds, 4, 1);
	char *v;

	(void)state;
	assert_int_equal(play(s, "0 0 0 0"), GAME_MOVE_PASS);
	assert_int_equal(play(s, "0 0 0 0"), GAME_MOVE_PASS);
	assert_int_equal(sl()->next_seat(s), 2);
	v = sl()->view(s, 2, 100);
	assert_string_equal(v, example_input3);
	free(v);
	sl()->free_state(s);
	sl()->dataset_free(ds);
}

/*
 * Board for the pass cases, seat 0 = '1' to move:
 *   11.2.
 *   1..2.
 *   .....
 *   ...2.
 *   .....
 */
static const char pass_board[] = "1112.\n1..2.\n.....\n...2.\n.....\n";

static void
test_pass_cases_in_order(void **state)
{
	static const char *const passes[] = {
		/* 1. bounds, of the source then of the target */
		"-1 0 0 2", "0 5 0 2", "5 0 4 0", "0 0 -1 0", "0 0 0 5",
		/* 2. the source is not the mover's: empty, enemy */
		"2 2 2 3", "0 3 1 2",
		/* 3. the target holds an enemy, at d = 1 and d = 2 */
		"0 2 0 3", "0 1 0 3",
		/* 4. d = 0 (the usual pass), d = 3 */
		"0 0 0 0", "0 0 3 0", "0 1 3 4",
		/* a merge at d = 2 */
		"1 0 0 2", "0 0 0 2",
	};
	/* controls: the same shapes, legal (merge, spread, jump) */
	static const char *const moves[] = { "1 0 0 1", "0 2 1 2", "0 1 2 3" };
	struct game_dataset *ds = load(pass_board);
	char before[64], after[64];

	(void)state;
	for (size_t i = 0; i < sizeof passes / sizeof passes[0] +
	    sizeof moves / sizeof moves[0]; i++) {
		struct game_state *s = sl()->start(ds, 2, 1);
		size_t np = sizeof passes / sizeof passes[0];
		const char *a = i < np ? passes[i] : moves[i - np];
		enum game_move m;

		board_of(s, before, sizeof before);
		m = play(s, a);
		board_of(s, after, sizeof after);
		if (m != (i < np ? GAME_MOVE_PASS : GAME_MOVE_OK))
			fail_msg("'%s' gave %d", a, (int)m);
		if (i < np)
			assert_string_equal(before, after);
		else
			assert_string_not_equal(before, after);
		assert_int_equal(sl()->next_seat(s), 1);
		sl()->free_state(s);
	}
	sl()->dataset_free(ds);
}

/* The legal merges above, checked cell by cell. */
static void
test_merge_effects(void **state)
{
	struct game_dataset *ds = load(pass_board);
	struct game_state *s = sl()->start(ds, 2, 1);
	char got[64];

	(void)state;
	/* 1 0 -> 0 1: (1,0) empties; empty neighbours of (0,1) fill, not
	 * the vacated (1,0); the enemy at (0,3) is not a neighbour. */
	assert_int_equal(play(s, "1 0 0 1"), GAME_MOVE_OK);
	board_of(s, got, sizeof got);
	assert_string_equal(got, "1112./.112./...../...2./.....");
	sl()->free_state(s);
	sl()->dataset_free(ds);
}

/* The original's istringstream reading: whitespace between numbers, a
 * sign may follow a number directly, extra tokens are ignored, only the
 * first 127 bytes count; a broken answer is a pass counted as illegal,
 * "" (no answer) a plain pass. */
static void
test_answer_parsing(void **state)
{
	static const struct {
		const char *answer;
		enum game_move want;
	} cases[] = {
		{ "0 1 1 2", GAME_MOVE_OK },
		{ "  0\t1  1 2 junk after", GAME_MOVE_OK },
		{ "+0 1 1 2\r", GAME_MOVE_OK },
		{ "0 1 1 2x", GAME_MOVE_OK },
		{ "0-1 1 2", GAME_MOVE_PASS },	/* 0, -1, 1, 2 */
		{ "", GAME_MOVE_PASS },
		{ "   ", GAME_MOVE_ILLEGAL },
		{ "0 1 1", GAME_MOVE_ILLEGAL },
		{ "0,1,1,2", GAME_MOVE_ILLEGAL },
		{ "0 1 1x 2", GAME_MOVE_ILLEGAL },
		{ "a 0 1 1 2", GAME_MOVE_ILLEGAL },
		{ "0 1 1 - 2", GAME_MOVE_ILLEGAL },
		{ "0 1 99999999999 2", GAME_MOVE_ILLEGAL },
	};
	struct game_dataset *ds = load(pass_board);
	char longline[200];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct game_state *s = sl()->start(ds, 2, 1);
		enum game_move m = play(s, cases[i].answer);

		if (m != cases[i].want)
			fail_msg("'%s': got %d, want %d", cases[i].answer,
			    (int)m, (int)cases[i].want);
		sl()->free_state(s);
	}
	/* 120 blanks: "0 1 1 2" ends at byte 127, one more cuts the 2 */
	for (int pad = 120; pad <= 121; pad++) {
		struct game_state *s = sl()->start(ds, 2, 1);

		snprintf(longline, sizeof longline, "%*s0 1 1 2", pad, "");
		assert_int_equal(play(s, longline), pad == 120 ?
		    GAME_MOVE_OK : GAME_MOVE_ILLEGAL);
		sl()->free_state(s);
	}
	sl()->dataset_free(ds);
}

/* 3 x 3 with one empty cell: the game ends in the middle of a round, as
 * soon as it is filled, and seat 2 is never called. */
static void
test_board_full_mid_round(void **state)
{
	struct game_dataset *ds = load("1.2\n343\n434\n");
	struct game_state *s = sl()->start(ds, 4, 1);
	int64_t sc[4];
	char *frame;

	(void)state;
	assert_int_equal(sl()->next_seat(s), 0);
	assert_null(sl()->end_reason(s));
	frame = sl()->frame(s);
	assert_string_equal(frame, "call 0: scores 1 1 3 3, 1 to move\n"
	    "1.2\n343\n434\n");
	free(frame);
	/* 1 spreads to (0,1): all 8 neighbours are enemies -> all 1 */
	assert_int_equal(play(s, "0 0 0 1"), GAME_MOVE_OK);
	assert_int_equal(sl()->next_seat(s), -1);
	assert_string_equal(sl()->end_reason(s), "board_full");
	frame = sl()->frame(s);
	assert_string_equal(frame, "call 1: scores 6 0 1 2, over: board_full\n"
	    "111\n111\n434\n");
	free(frame);
	/* neighbours of (0,1): rows 0-1 only, so row 2 keeps 4 3 4 */
	sl()->scores(s, sc);
	assert_int_equal(sc[0], 6);
	assert_int_equal(sc[1], 0);
	assert_int_equal(sc[2], 1);
	assert_int_equal(sc[3], 2);
	/* wrong seat or a finished game: nothing happens */
	assert_int_equal(sl()->apply(s, 1, "0 0 0 0"), GAME_MOVE_ILLEGAL);
	sl()->free_state(s);
	/* full from the start: no call at all */
	sl()->dataset_free(ds);
	ds = load("12\n34\n");
	s = sl()->start(ds, 4, 1);
	assert_int_equal(sl()->next_seat(s), -1);
	assert_string_equal(sl()->end_reason(s), "board_full");
	sl()->free_state(s);
	sl()->dataset_free(ds);
}

static void
test_turn_limit(void **state)
{
	struct game_dataset *ds = load(start8);
	struct game_state *s = sl()->start(ds, 4, 1);
	int64_t sc[4];

	(void)state;
	for (int call = 0; call < 2000; call++) {
		assert_int_equal(sl()->next_seat(s), call % 4);
		assert_null(sl()->end_reason(s));
		assert_int_equal(play(s, "0 0 0 0"), GAME_MOVE_PASS);
	}
	assert_int_equal(sl()->next_seat(s), -1);
	assert_string_equal(sl()->end_reason(s), "turn_limit");
	sl()->scores(s, sc);
	for (int i = 0; i < 4; i++)
		assert_int_equal(sc[i], 1);
	sl()->free_state(s);
	sl()->dataset_free(ds);
}

/* Seat 1 has no slime: it is still called, and any move is a pass. */
static void
test_seat_without_slime(void **state)
{
	struct game_dataset *ds = load("1...\n....\n....\n...3\n");
	struct game_state *s = sl()->start(ds, 3, 1);
	char got[32];
	int64_t sc[3];

	(void)state;
	assert_int_equal(play(s, "0 0 1 1"), GAME_MOVE_OK);
	assert_int_equal(sl()->next_seat(s), 1);
	assert_int_equal(play(s, "0 0 0 1"), GAME_MOVE_PASS);
	assert_int_equal(sl()->next_seat(s), 2);
	/* 3 spreads to (2,2) and takes 1's (1,1) */
	assert_int_equal(play(s, "3 3 2 2"), GAME_MOVE_OK);
	/* 1 spreads to (1,0) and takes (1,1) back */
	assert_int_equal(play(s, "0 0 1 0"), GAME_MOVE_OK);
	assert_int_equal(sl()->next_seat(s), 1);
	assert_int_equal(play(s, ""), GAME_MOVE_PASS);
	board_of(s, got, sizeof got);
	assert_string_equal(got, "1.../11../..3./...3");
	sl()->scores(s, sc);
	assert_int_equal(sc[0], 3);
	assert_int_equal(sc[1], 0);
	assert_int_equal(sc[2], 2);
	sl()->free_state(s);
	sl()->dataset_free(ds);
}

/* Fewer seats than the board's players: the others' slimes are removed. */
static void
test_fewer_seats(void **state)
{
	struct game_dataset *ds = load(start8);
	struct game_state *s = sl()->start(ds, 2, 1);
	char got[128];
	int64_t sc[2];

	(void)state;
	board_of(s, got, sizeof got);
	assert_string_equal(got, "1......2/......../......../......../"
	    "......../......../......../........");
	assert_int_equal(play(s, "0 0 0 1"), GAME_MOVE_OK);
	assert_int_equal(sl()->next_seat(s), 1);
	assert_int_equal(play(s, "0 7 1 5"), GAME_MOVE_OK);
	assert_int_equal(sl()->next_seat(s), 0);
	sl()->scores(s, sc);
	assert_int_equal(sc[0], 2);
	assert_int_equal(sc[1], 1);
	sl()->free_state(s);
	sl()->dataset_free(ds);
}

static void
test_fault(void **state)
{
	struct game_dataset *ds = load(start8);
	struct game_state *s = sl()->start(ds, 4, 1);
	int64_t sc[4];

	(void)state;
	assert_int_equal(play(s, "0 0 1 1"), GAME_MOVE_OK);
	sl()->fault(s, 1);
	assert_int_equal(sl()->next_seat(s), -1);
	assert_string_equal(sl()->end_reason(s), "fault");
	sl()->scores(s, sc);
	assert_int_equal(sc[0], 2);
	assert_int_equal(sc[1], 0);
	assert_int_equal(sc[2], 1);
	assert_int_equal(sc[3], 1);
	sl()->free_state(s);
	sl()->dataset_free(ds);
}

static void
test_dataset_errors(void **state)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "", "t:1:1: no board rows" },
		{ "; only a comment\n", "t:2:1: no board rows" },
		{ "1\n", "t:1:1: board side 1 out of range 2..100" },
		{ "1..\n.x.\n...\n", "t:2:2: bad cell 'x' (expected '.' or a"
		  " player digit 1..4)" },
		{ "1..\n.5.\n...\n", "t:2:2: bad cell '5' (expected '.' or a"
		  " player digit 1..4)" },
		{ "; c\n1..\n..\n...\n", "t:3:3: row has 2 cells, the first"
		  " row has 3" },
		{ "1..\n....\n...\n", "t:2:4: row has 4 cells, the first row"
		  " has 3" },
		{ "1..\n...\n...\n...\n", "t:4:1: more than 3 rows (the board"
		  " is square)" },
		{ "1..\n...\n", "t:3:1: 2 rows, expected 3 (the board is"
		  " square)" },
		{ "1..\n\n...\n", "t:2:1: row has 0 cells, the first row has"
		  " 3" },
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct game_dataset *ds;

		err[0] = '\0';
		ds = sl()->dataset_parse("t", bad[i].text, strlen(bad[i].text),
		    err, sizeof err);
		assert_null(ds);
		assert_string_equal(err, bad[i].err);
	}
}

static void
test_dataset_accepts(void **state)
{
	static const char *const good[] = {
		"; comment\r\n1.\r\n.2\r\n",
		"1.\n.2",
		"1.\n;between\n.2\n",
	};
	char got[16];

	(void)state;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		struct game_dataset *ds = load(good[i]);
		struct game_state *s = sl()->start(ds, 2, 1);

		board_of(s, got, sizeof got);
		assert_string_equal(got, "1./.2");
		sl()->free_state(s);
		sl()->dataset_free(ds);
	}
}

static char *
gen(int argc, char **argv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = sl()->generate(argc, argv, f);

	fclose(f);
	if (rc == -1) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void
test_generator(void **state)
{
	char *a0[] = { "slime" };
	char *a1[] = { "slime", "--size", "4", "--players", "2" };
	char *a2[] = { "slime", "--players", "3", "--size", "3" };
	char *b1[] = { "slime", "--size", "1" };
	char *b2[] = { "slime", "--players", "5" };
	char *b3[] = { "slime", "--size" };
	char *b4[] = { "slime", "--colours", "1" };
	char *a3[] = { "slime", "--seed", "5", "--size", "2" };
	char *t;

	(void)state;
	t = gen(1, a0);
	assert_string_equal(t, start8);
	free(t);
	t = gen(5, a1);
	assert_string_equal(t, "1...\n....\n....\n...2\n");
	free(t);
	t = gen(5, a2);
	assert_string_equal(t, "1.2\n...\n3..\n");
	free(t);
	t = gen(5, a3);
	assert_string_equal(t, "12\n34\n");
	free(t);
	assert_null(gen(3, b1));
	assert_null(gen(3, b2));
	assert_null(gen(2, b3));
	assert_null(gen(3, b4));
}

/* One pseudo-random answer for the seat to move: mostly a move from one
 * of its cells by -2..2 each way (legal or not), sometimes junk. */
static void
random_answer(struct game_state *s, uint64_t *x, char *out, size_t len)
{
	int seat = sl()->next_seat(s), own[64], k = 0, i;
	char *v = sl()->view(s, seat, 0);

	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	for (i = 0; i < 64; i++)
		if (v[2 + i / 8 * 9 + i % 8] == v[0])
			own[k++] = i;
	free(v);
	if (k == 0 || *x % 50 == 0) {
		snprintf(out, len, *x % 2 ? "junk" : "0 0 0 0");
		return;
	}
	i = own[(*x >> 8) % (uint64_t)k];
	snprintf(out, len, "%d %d %d %d", i / 8, i % 8,
	    i / 8 + (int)((*x >> 16) % 5) - 2, i % 8 + (int)((*x >> 24) % 5) - 2);
}

/* Plays a pseudo-random series of answers, then replays the recorded
 * answers on a fresh start: the same boards, scores and end. */
static void
test_replay_determinism(void **state)
{
	struct game_dataset *ds = load(start8);
	struct game_state *s = sl()->start(ds, 4, 7), *r;
	char (*answers)[32] = calloc(2000, sizeof *answers);
	char b1[128], b2[128];
	int64_t sc1[4], sc2[4];
	uint64_t x = 88172645463325252ULL;
	int n = 0, ok = 0, illegal = 0;

	(void)state;
	while (sl()->next_seat(s) >= 0) {
		enum game_move m;

		random_answer(s, &x, answers[n], sizeof answers[n]);
		m = play(s, answers[n++]);
		ok += m == GAME_MOVE_OK;
		illegal += m == GAME_MOVE_ILLEGAL;
	}
	assert_true(ok > 20);
	assert_true(illegal > 0);
	r = sl()->start(ds, 4, 99);
	for (int i = 0; i < n; i++)
		play(r, answers[i]);
	assert_int_equal(sl()->next_seat(r), -1);
	assert_string_equal(sl()->end_reason(r), sl()->end_reason(s));
	board_of(s, b1, sizeof b1);
	board_of(r, b2, sizeof b2);
	assert_string_equal(b1, b2);
	sl()->scores(s, sc1);
	sl()->scores(r, sc2);
	assert_memory_equal(sc1, sc2, sizeof sc1);
	print_message("replayed %d calls (%d moves), end %s\n", n, ok,
	    sl()->end_reason(r));
	sl()->free_state(s);
	sl()->free_state(r);
	sl()->dataset_free(ds);
	free(answers);
}

/* The house bots and kits, as the worker runs them: a new process per call
 * with the view as its one argument, the answer its first output line. */
static char *
program(const char *name)
{
	const char *bin = getenv("ARENA_BINARY_DIR");
	const char *src = getenv("ARENA_SOURCE_DIR");
	char *cmd;

	if (bin == NULL || src == NULL)
		fail_msg("ARENA_BINARY_DIR and ARENA_SOURCE_DIR must be set");
	if (strcmp(name, "python") == 0) {
		assert_true(asprintf(&cmd, "python3 '%s/games/slime/kits/"
		    "python/bot.py'", src) > 0);
	} else {
		char *path;

		assert_true(asprintf(&path, "%s/games/slime/bots/%s", bin,
		    name) > 0);
		if (access(path, X_OK) != 0)
			fail_msg("no program '%s' (build every target first)",
			    path);
		assert_true(asprintf(&cmd, "'%s'", path) > 0);
		free(path);
	}
	return cmd;
}

/* Runs cmd on the view of the seat to move; returns its first line. */
static void
ask(const char *cmd, struct game_state *s, char *line, size_t len)
{
	int seat = sl()->next_seat(s);
	char *v = sl()->view(s, seat, 100), *full;
	FILE *p;

	assert_true(asprintf(&full, "%s %s", cmd, v) > 0);
	p = popen(full, "r");
	assert_non_null(p);
	if (fgets(line, (int)len, p) == NULL)
		line[0] = '\0';
	line[strcspn(line, "\n")] = '\0';
	if (pclose(p) != 0)
		fail_msg("'%s' failed", full);
	free(full);
	free(v);
}

static void
test_bots_answer_legal_moves(void **state)
{
	static const char *const bots[] = { "random", "greedy", "lookahead",
	    "kit_c_bot", "python" };
	static const char *const boards[] = { start8, example_arena,
	    "1.2..\n.1...\n..3..\n2...4\n.3.4.\n" };
	char line[128];

	(void)state;
	for (size_t b = 0; b < sizeof bots / sizeof bots[0]; b++) {
		char *cmd = program(bots[b]);

		for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
			struct game_dataset *ds = load(boards[i]);

			for (int seat = 0; seat < 4; seat++) {
				struct game_state *s = sl()->start(ds, 4, 1);

				for (int k = 0; k < seat; k++)
					play(s, "0 0 0 0");
				ask(cmd, s, line, sizeof line);
				if (play(s, line) != GAME_MOVE_OK)
					fail_msg("%s, board %zu, seat %d: '%s'"
					    " is not a move", bots[b], i, seat,
					    line);
				sl()->free_state(s);
			}
			sl()->dataset_free(ds);
		}
		free(cmd);
	}
}

/*
 *   1....
 *   .....      spread (4,2) -> (3,2) takes four 2s: 1 + 4 own cells, 4
 *   ..22.      enemy cells, net 9; nothing else comes close (a jump from
 *   .2.2.      (0,0) to (2,1) takes two: net 4).
 *   ..1..
 */
static void
test_greedy_best_move(void **state)
{
	struct game_dataset *ds = load("1....\n.....\n..22.\n.2.2.\n..1..\n");
	struct game_state *s = sl()->start(ds, 2, 1);
	char *cmd = program("greedy"), line[128];

	(void)state;
	ask(cmd, s, line, sizeof line);
	assert_string_equal(line, "4 2 3 2");
	sl()->free_state(s);
	sl()->dataset_free(ds);
	free(cmd);
}

/* Plays one game between programs, one per seat; adds the scores. */
static void
series_game(const struct game_dataset *ds, char *const cmds[4],
    int64_t total[4])
{
	struct game_state *s = sl()->start(ds, 4, 1);
	int64_t sc[4];
	char line[128];
	int seat;

	while ((seat = sl()->next_seat(s)) >= 0) {
		ask(cmds[seat], s, line, sizeof line);
		sl()->apply(s, seat, line);
	}
	sl()->scores(s, sc);
	for (int i = 0; i < 4; i++)
		total[i] += sc[i];
	sl()->free_state(s);
}

/* lookahead in each seat in turn against three randoms, on 8x8 and 6x6
 * starts: its total must be at least twice a random's average. */
static void
test_lookahead_beats_random(void **state)
{
	static const char *const starts[] = { start8,
	    "1....2\n......\n......\n......\n......\n3....4\n" };
	char *la = program("lookahead"), *rnd = program("random");
	int64_t mine = 0, theirs = 0;

	(void)state;
	for (size_t b = 0; b < sizeof starts / sizeof starts[0]; b++) {
		struct game_dataset *ds = load(starts[b]);

		for (int seat = 0; seat < 4; seat++) {
			char *cmds[4] = { rnd, rnd, rnd, rnd };
			int64_t total[4] = { 0 };

			cmds[seat] = la;
			series_game(ds, cmds, total);
			for (int i = 0; i < 4; i++) {
				if (i == seat)
					mine += total[i];
				else
					theirs += total[i];
			}
		}
		sl()->dataset_free(ds);
	}
	print_message("lookahead %lld, random average %.1f\n",
	    (long long)mine, (double)theirs / 3);
	assert_true(mine * 3 > 2 * theirs);
	free(la);
	free(rnd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worked_examples),
		cmocka_unit_test(test_view_of_example),
		cmocka_unit_test(test_pass_cases_in_order),
		cmocka_unit_test(test_merge_effects),
		cmocka_unit_test(test_answer_parsing),
		cmocka_unit_test(test_board_full_mid_round),
		cmocka_unit_test(test_turn_limit),
		cmocka_unit_test(test_seat_without_slime),
		cmocka_unit_test(test_fewer_seats),
		cmocka_unit_test(test_fault),
		cmocka_unit_test(test_dataset_errors),
		cmocka_unit_test(test_dataset_accepts),
		cmocka_unit_test(test_generator),
		cmocka_unit_test(test_replay_determinism),
		cmocka_unit_test(test_bots_answer_legal_moves),
		cmocka_unit_test(test_greedy_best_move),
		cmocka_unit_test(test_lookahead_beats_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
