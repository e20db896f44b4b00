/*
 * Unit tests for games/dreamcity: every scoring rule, every kind of invalid
 * operation, rotation geometry, call order, every end, the view and frame
 * texts, the
 * dataset parser's errors and the generator. Expected scores are worked
 * out by hand in the comments next to them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"

/*
 * Scoring map: L = 5 cells, B = 2 cells, I = 0 cells.
 * 1: house 2x1 XX; 2: market 1x2 (vertical); 3: house 1x1; 4: factory 1x1.
 */
static const char scoring_map[] =
    "dreamcity-dataset 1\n"
    "size 4 2\n"
    "zones\n"
    "LLLB\n"
    "LL.B\n"
    "buildings 4\n"
    "building 1 2 1 house\nXX\n"
    "building 2 1 2 market\nX\nX\n"
    "building 3 1 1 house\nX\n"
    "building 4 1 1 factory\nX\n";

/*
 * Validity map, 5x4, frozen (2,1). Areas: 1 + 4 + 1 + 3 = 9.
 * 1: house 3x3 with only its centre; 2: market 2x2 full;
 * 3: factory 1x1; 4: house 3x1.
 */
static const char valid_map[] =
    "; a comment\r\n"
    "dreamcity-dataset 1\n"
    "size 5 4\n"
    "zones\n"
    ".....\n"
    "..#..\n"
    ".....\n"
    ".....\n"
    "buildings 4\n"
    "building 1 3 3 house\n...\n.X.\n...\n"
    "building 2 2 2 market\nXX\nXX\n"
    "building 3 1 1 factory\nX\n"
    "building 4 3 1 house\nXXX\n";

/* A 5x5 free map and one asymmetric building (area 4):  X..
 *                                                         XXX */
static const char rot_map[] =
    "dreamcity-dataset 1\n"
    "size 5 5\n"
    "zones\n.....\n.....\n.....\n.....\n.....\n"
    "buildings 1\n"
    "building 7 3 2 factory\nX..\nXXX\n";

static const struct game *
dc(void)
{
	const struct game *g = games_find("dreamcity");

	assert_non_null(g);
	return g;
}

static struct game_dataset *
load(const char *text)
{
	char err[256] = "";
	struct game_dataset *ds = dc()->dataset_parse("t", text, strlen(text),
	    err, sizeof err);

	if (ds == NULL)
		fail_msg("dataset rejected: %s", err);
	return ds;
}

/* Plays answer for whoever is next; returns the move kind. */
static enum game_move
play(struct game_state *s, const char *answer)
{
	int seat = dc()->next_seat(s);

	assert_true(seat >= 0);
	return dc()->apply(s, seat, answer);
}

static void
assert_scores(struct game_state *s, int64_t a, int64_t b)
{
	int64_t sc[2];

	assert_int_equal(dc()->next_seat(s), -1);
	dc()->scores(s, sc);
	assert_int_equal(sc[0], a);
	assert_int_equal(sc[1], b);
}

/* The status grid of the view, rows joined with '/'. */
static void
status_of(struct game_state *s, char *out, size_t len)
{
	char *v = dc()->view(s, 0, 0), *p = strstr(v, "status\n");
	size_t n = 0;

	assert_non_null(p);
	for (p += 7; *p != 'b' && n + 1 < len; p++)
		out[n++] = *p == '\n' ? '/' : *p;
	out[n] = '\0';
	free(v);
}

static void
test_scoring_majority(void **state)
{
	struct game_dataset *ds = load(scoring_map);
	struct game_state *s = dc()->start(ds, 2, 1);

	(void)state;
	/* A: house on L,L = 2 + 2. */
	assert_int_equal(play(s, "1 0 0 0"), GAME_MOVE_OK);
	/* B: market on B,B = 2 + 2; B covers 2/2 blue: +2 for 1 market. */
	assert_int_equal(play(s, "2 0 3 0"), GAME_MOVE_OK);
	/* B: factory on '.' = 1; yellow has 0 cells: never a bonus. */
	assert_int_equal(play(s, "4 0 2 1"), GAME_MOVE_OK);
	assert_null(dc()->end_reason(s));
	/* A: house on L = 1 + 1; A covers 3/5 green: +2 per house, 2 houses. */
	assert_int_equal(play(s, "3 0 2 0"), GAME_MOVE_OK);
	assert_string_equal(dc()->end_reason(s), "all_placed");
	assert_scores(s, 4 + 2 + 4, 4 + 2 + 1);
	dc()->free_state(s);
	dc()->dataset_free(ds);
}

static void
test_majority_any_type_and_passes(void **state)
{
	struct game_dataset *ds = load(scoring_map);
	struct game_state *s = dc()->start(ds, 2, 1);

	(void)state;
	/* A: market on L,L = 2, no match. */
	assert_int_equal(play(s, "2 0 0 0"), GAME_MOVE_OK);
	/* B passes twice in its own pair: the game goes on. */
	assert_int_equal(play(s, "pass"), GAME_MOVE_PASS);
	assert_int_equal(play(s, "-1 0 0 0"), GAME_MOVE_PASS);
	assert_int_equal(dc()->next_seat(s), 0);
	/* A: house on L = 2; 3/5 green covered (the market counts too):
	 * +2 for the one house. */
	assert_int_equal(play(s, "3 0 1 0"), GAME_MOVE_OK);
	assert_int_equal(play(s, " pass \r"), GAME_MOVE_PASS);
	assert_int_equal(dc()->next_seat(s), 1);
	/* A passed, then B passes: the end. */
	assert_int_equal(play(s, "pass"), GAME_MOVE_PASS);
	assert_string_equal(dc()->end_reason(s), "passes");
	assert_scores(s, 2 + 2 + 2, 0);
	dc()->free_state(s);
	dc()->dataset_free(ds);
}

static void
test_majority_exactly_half(void **state)
{
	struct game_dataset *ds = load(scoring_map);
	struct game_state *s = dc()->start(ds, 2, 1);

	(void)state;
	/* A: market turned to 2x1 on '.' and B = 2 + 1; 1/2 blue is not a
	 * majority. */
	assert_int_equal(play(s, "2 1 2 1"), GAME_MOVE_OK);
	/* B: factory on the other blue cell = 1; 1/2 blue again. */
	assert_int_equal(play(s, "4 0 3 0"), GAME_MOVE_OK);
	/* B passes, then A passes: the end. */
	assert_int_equal(play(s, "pass"), GAME_MOVE_PASS);
	assert_int_equal(play(s, "pass"), GAME_MOVE_PASS);
	assert_string_equal(dc()->end_reason(s), "passes");
	assert_scores(s, 3, 1);
	dc()->free_state(s);
	dc()->dataset_free(ds);
}

static void
test_floor_at_zero(void **state)
{
	struct game_dataset *ds = load(scoring_map);
	struct game_state *s = dc()->start(ds, 2, 1);

	(void)state;
	/* A: 4 points, then two invalid operations: 4 - 6 -> 0. */
	assert_int_equal(play(s, "1 0 0 0"), GAME_MOVE_OK);
	assert_int_equal(play(s, "pass"), GAME_MOVE_PASS);
	assert_int_equal(play(s, "pass"), GAME_MOVE_PASS);
	assert_int_equal(play(s, "garbage"), GAME_MOVE_ILLEGAL);
	assert_int_equal(play(s, "1 0 0 1"), GAME_MOVE_ILLEGAL);
	/* B: 0 - 3 -> 0. */
	assert_int_equal(play(s, "9 0 0 1"), GAME_MOVE_ILLEGAL);
	assert_int_equal(play(s, "pass"), GAME_MOVE_PASS);
	assert_int_equal(dc()->next_seat(s), 0);
	assert_int_equal(play(s, "pass"), GAME_MOVE_PASS);
	assert_string_equal(dc()->end_reason(s), "passes");
	assert_scores(s, 0, 0);
	dc()->free_state(s);
	dc()->dataset_free(ds);
}

/* Each answer is invalid for B right after B placed building 2 at (0,0),
 * in the validity map. */
static const char *const invalid_answers[] = {
	"99 0 3 3",		/* unknown id */
	"-5 0 3 3",		/* unknown id */
	"2 0 3 2",		/* used id */
	"3 0 1 1",		/* overlap */
	"4 1 0 1",		/* overlap, rotated */
	"3 0 2 1",		/* frozen */
	"4 0 0 1",		/* overlap and frozen */
	"4 0 3 0",		/* off the map on the right */
	"4 1 4 2",		/* off the bottom after rotation */
	"1 0 -2 0",		/* the centre cell is off the map */
	"1 0 3 3",		/* the centre cell is off the bottom */
	"3 4 4 3",		/* bad rotation */
	"3 -1 4 3",		/* bad rotation */
	"",			/* malformed from here on */
	"   ",
	"3 0 4",
	"3 0 4 3 1",
	"3 0 4 3x",
	"three",
	"pass 1",
	"passes",
	"3 0 4 9999999999",
	"3,0,4,3",
	"+3 0 4 3",
	"3 0 - 3",
};

static void
test_invalid_operations(void **state)
{
	struct game_dataset *ds = load(valid_map);

	(void)state;
	for (size_t i = 0; i < sizeof invalid_answers /
	    sizeof invalid_answers[0]; i++) {
		struct game_state *s = dc()->start(ds, 2, 1);
		const char *ans = invalid_answers[i];
		char before[64], after[64];

		assert_int_equal(play(s, "pass"), GAME_MOVE_PASS);
		assert_int_equal(play(s, "2 0 0 0"), GAME_MOVE_OK);
		status_of(s, before, sizeof before);
		if (play(s, ans) != GAME_MOVE_ILLEGAL)
			fail_msg("answer '%s' was accepted", ans);
		status_of(s, after, sizeof after);
		assert_string_equal(before, after);
		assert_string_equal(after, "BB.../BB.../...../...../");
		/* A, A, B pass: A's second pass and B's pass end it. */
		play(s, "pass");
		play(s, "pass");
		assert_int_equal(dc()->next_seat(s), 1);
		play(s, "pass");
		/* B: 4 for the market - 3. */
		assert_scores(s, 0, 1);
		dc()->free_state(s);
	}
	dc()->dataset_free(ds);
}

static void
test_blank_cells_may_hang_off(void **state)
{
	struct game_dataset *ds = load(valid_map);
	struct game_state *s = dc()->start(ds, 2, 1);
	char st[64];

	(void)state;
	/* Centre at (0,2): the box's left column is off the map. */
	assert_int_equal(play(s, "1 2 -1 1"), GAME_MOVE_OK);
	status_of(s, st, sizeof st);
	assert_string_equal(st, "...../...../A..../...../");
	dc()->free_state(s);

	/* Blank cells over taken and frozen cells are fine too. */
	s = dc()->start(ds, 2, 1);
	assert_int_equal(play(s, "2 0 0 0"), GAME_MOVE_OK);
	assert_int_equal(play(s, "1 0 1 1"), GAME_MOVE_OK);
	assert_int_equal(play(s, "4 1 4 1"), GAME_MOVE_OK);
	status_of(s, st, sizeof st);
	assert_string_equal(st, "AA.../AA..B/..B.B/....B/");
	dc()->free_state(s);
	dc()->dataset_free(ds);
}

static void
test_rotation(void **state)
{
	static const char *const want[4] = {
		"...../.X.../.XXX./...../...../",
		"...../.XX../.X.../.X.../...../",
		"...../.XXX./...X./...../...../",
		"...../..X../..X../.XX../...../",
	};
	struct game_dataset *ds = load(rot_map);

	(void)state;
	for (int r = 0; r < 4; r++) {
		struct game_state *s = dc()->start(ds, 2, 1);
		char ans[32], st[64];

		snprintf(ans, sizeof ans, "7 %d 1 1", r);
		assert_int_equal(play(s, ans), GAME_MOVE_OK);
		status_of(s, st, sizeof st);
		for (char *p = st; *p; p++)
			if (*p == 'A')
				*p = 'X';
		assert_string_equal(st, want[r]);
		assert_string_equal(dc()->end_reason(s), "all_placed");
		assert_scores(s, 4, 0);
		dc()->free_state(s);
	}
	dc()->dataset_free(ds);
}

static void
test_call_order_and_limit(void **state)
{
	static const int order[] = { 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0 };
	struct game_dataset *ds = load(valid_map);
	struct game_state *s = dc()->start(ds, 2, 1);
	int calls = 0;

	(void)state;
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		assert_int_equal(dc()->next_seat(s), order[i]);
		play(s, "nonsense");
		calls++;
	}
	/* Invalid operations never end the game; the limit (4 * 4 + 100
	 * calls) does. */
	while (dc()->next_seat(s) >= 0) {
		play(s, "nonsense");
		calls++;
	}
	assert_int_equal(calls, 116);
	assert_string_equal(dc()->end_reason(s), "call_limit");
	assert_scores(s, 0, 0);
	dc()->free_state(s);
	dc()->dataset_free(ds);
}

static void
test_invalid_breaks_pass_chain(void **state)
{
	struct game_dataset *ds = load(valid_map);
	struct game_state *s = dc()->start(ds, 2, 1);

	(void)state;
	play(s, "pass");		/* A */
	play(s, "bad");			/* B */
	play(s, "pass");		/* B */
	play(s, "bad");			/* A */
	play(s, "pass");		/* A */
	assert_null(dc()->end_reason(s));
	assert_int_equal(dc()->apply(s, 0, "pass"), GAME_MOVE_ILLEGAL);
	play(s, "pass");		/* B: A passed just before */
	assert_string_equal(dc()->end_reason(s), "passes");
	dc()->free_state(s);
	dc()->dataset_free(ds);
}

static void
test_fault(void **state)
{
	struct game_dataset *ds = load(valid_map);
	struct game_state *s = dc()->start(ds, 2, 1);

	(void)state;
	assert_int_equal(play(s, "2 0 0 0"), GAME_MOVE_OK);
	assert_int_equal(play(s, "3 0 4 3"), GAME_MOVE_OK);
	dc()->fault(s, 1);
	assert_string_equal(dc()->end_reason(s), "fault");
	/* The opponent gets every building's area, placed or not. */
	assert_scores(s, 9, 0);
	dc()->free_state(s);

	s = dc()->start(ds, 2, 1);
	dc()->fault(s, 0);
	assert_scores(s, 0, 9);
	dc()->free_state(s);
	dc()->dataset_free(ds);
}

static void
expect_frame(struct game_state *s, const char *want)
{
	char *f = dc()->frame(s);

	assert_string_equal(f, want);
	free(f);
}

/* The scoring game again, frame by frame: scores so far, taken cells as
 * their owner's letter, free ones as their zone. */
static void
test_frames(void **state)
{
	struct game_dataset *ds = load(scoring_map);
	struct game_state *s = dc()->start(ds, 2, 1);

	(void)state;
	assert_non_null(dc()->palette);
	expect_frame(s, "call 0: scores 0 0, A to move\nLLLB\nLL.B\n");
	assert_int_equal(play(s, "1 0 0 0"), GAME_MOVE_OK);
	expect_frame(s, "call 1: scores 4 0, B to move\naaLB\nLL.B\n");
	assert_int_equal(play(s, "2 0 3 0"), GAME_MOVE_OK);
	expect_frame(s, "call 2: scores 4 6, B to move\naaLb\nLL.b\n");
	assert_int_equal(play(s, "4 0 2 1"), GAME_MOVE_OK);
	assert_int_equal(play(s, "3 0 2 0"), GAME_MOVE_OK);
	expect_frame(s, "call 4: scores 10 7, over: all_placed\n"
	    "aaab\nLLbb\n");
	dc()->free_state(s);
	dc()->dataset_free(ds);

	ds = load(valid_map);
	s = dc()->start(ds, 2, 1);
	assert_int_equal(play(s, "3 0 4 3"), GAME_MOVE_OK);
	dc()->fault(s, 1);
	expect_frame(s, "call 1: scores 9 0, over: fault\n"
	    ".....\n..#..\n.....\n....a\n");
	dc()->free_state(s);
	dc()->dataset_free(ds);
}

static void
test_view(void **state)
{
	struct game_dataset *ds = load(valid_map);
	struct game_state *s = dc()->start(ds, 2, 1);
	char *v;

	(void)state;
	v = dc()->view(s, 0, 30000);
	assert_string_equal(v,
	    "dreamcity 1\nyou A\ntime 30000\nlast none\n"
	    "size 5 4\nzones\n.....\n..#..\n.....\n.....\n"
	    "status\n.....\n.....\n.....\n.....\n"
	    "buildings 4\n"
	    "building 1 3 3 house\n...\n.X.\n...\n"
	    "building 2 2 2 market\nXX\nXX\n"
	    "building 3 1 1 factory\nX\n"
	    "building 4 3 1 house\nXXX\nend\n");
	free(v);
	play(s, "2  0 3 2 ");
	v = dc()->view(s, 1, 1234);
	assert_string_equal(v,
	    "dreamcity 2\nyou B\ntime 1234\nlast A ok 2 0 3 2\n"
	    "size 5 4\nzones\n.....\n..#..\n.....\n.....\n"
	    "status\n.....\n.....\n...AA\n...AA\n"
	    "buildings 3\n"
	    "building 1 3 3 house\n...\n.X.\n...\n"
	    "building 3 1 1 factory\nX\n"
	    "building 4 3 1 house\nXXX\nend\n");
	free(v);
	play(s, "3 0 2 1");
	v = dc()->view(s, 1, 999);
	assert_non_null(strstr(v, "dreamcity 3\nyou B\ntime 999\n"
	    "last B invalid 3 0 2 1\n"));
	free(v);
	play(s, "what");
	v = dc()->view(s, 0, 5);
	assert_non_null(strstr(v, "\nlast B malformed\n"));
	free(v);
	play(s, "-1 3 3 3");
	v = dc()->view(s, 0, 5);
	assert_non_null(strstr(v, "\nlast A pass\n"));
	free(v);
	dc()->free_state(s);
	dc()->dataset_free(ds);
}

struct bad_case {
	const char *text;
	const char *err;
};

#define HEAD	"dreamcity-dataset 1\nsize 2 1\nzones\nL.\n"
#define ONE	"buildings 1\nbuilding 5 1 1 house\nX\n"

static const struct bad_case bad_cases[] = {
	{ "", "d:1:1: unexpected end of file, expected "
	    "'dreamcity-dataset 1'" },
	{ "dreamcity-dataset 2\n", "d:1:19: unsupported format version" },
	{ "hello 1\n", "d:1:1: expected 'dreamcity-dataset'" },
	{ "dreamcity-dataset 1 x\n", "d:1:21: unexpected text after "
	    "'dreamcity-dataset 1'" },
	{ "dreamcity-dataset 1\nsize 51 1\n",
	    "d:2:6: map width 51 out of range 1..50" },
	{ "dreamcity-dataset 1\nsize 0 1\n",
	    "d:2:6: map width 0 out of range 1..50" },
	{ "dreamcity-dataset 1\nsize 2 x\n",
	    "d:2:8: map height is not a number" },
	{ "dreamcity-dataset 1\nsize 2\n", "d:2:7: expected 'size W H'" },
	{ "dreamcity-dataset 1\nsize 2 1\nzones\nL\n",
	    "d:4:2: zone row has 1 characters, expected 2" },
	{ "dreamcity-dataset 1\nsize 2 1\nzones\nL.L\n",
	    "d:4:3: zone row has 3 characters, expected 2" },
	{ "dreamcity-dataset 1\nsize 2 1\nzones\nLx\n",
	    "d:4:2: bad character in zone row (expected one of \"#.LBI\")" },
	{ HEAD, "d:5:1: unexpected end of file, expected 'buildings N'" },
	{ HEAD "buildings 0\n", "d:5:11: building count 0 out of range "
	    "1..1000" },
	{ HEAD "buildings 1\nbuilding 5 1 1 hotel\nX\n",
	    "d:6:16: unknown building type (expected house, market or "
	    "factory)" },
	{ HEAD "buildings 1\nbuilding 5 1 2 house\nX\n",
	    "d:8:1: unexpected end of file, expected mask row" },
	{ HEAD "buildings 1\nbuilding 5 2 1 house\nX\n",
	    "d:7:2: mask row has 1 characters, expected 2" },
	{ HEAD "buildings 1\nbuilding 5 2 1 house\nXXX\n",
	    "d:7:3: mask row has 3 characters, expected 2" },
	{ HEAD "buildings 1\nbuilding 5 2 1 house\nX#\n",
	    "d:7:2: bad character in mask row (expected one of \".X\")" },
	{ HEAD "buildings 1\nbuilding 5 2 1 house\n..\n",
	    "d:6:1: building 5 has no cells" },
	{ HEAD "buildings 1\nbuilding 5 51 1 house\n",
	    "d:6:12: building width 51 out of range 1..50" },
	{ HEAD "buildings 2\nbuilding 5 1 1 house\nX\n"
	    "building 5 1 1 market\nX\n",
	    "d:8:10: duplicate building id 5" },
	{ HEAD ONE "building 6 1 1 house\nX\n",
	    "d:8:1: unexpected text after the last building" },
	{ HEAD ONE "\n", "d:8:1: unexpected text after the last building" },
	{ HEAD "buildings 1\nbuilding 1234567890 1 1 house\nX\n",
	    "d:6:10: building id out of range 0..999999999" },
	{ HEAD "buildings 1\nbuilding -1 1 1 house\nX\n",
	    "d:6:10: building id is not a number" },
};

static void
test_parser_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		const char *t = bad_cases[i].text;
		char err[256] = "";

		assert_null(dc()->dataset_parse("d", t, strlen(t), err,
		    sizeof err));
		assert_string_equal(err, bad_cases[i].err);
	}
	/* A NUL byte is just a bad character. */
	static const char nul[] = "dreamcity-dataset 1\nsize 2 1\nzones\nL\0\n";
	char err[256] = "";

	assert_null(dc()->dataset_parse("d", nul, sizeof nul - 1, err,
	    sizeof err));
	assert_string_equal(err,
	    "d:4:2: bad character in zone row (expected one of \"#.LBI\")");
	/* Comments anywhere and no final newline are fine. */
	struct game_dataset *ds = load(HEAD "; c\n" ONE "; end");
	dc()->dataset_free(ds);
}

static char *
generate(int argc, char **argv, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	if (dc()->generate(argc, argv, f) == -1) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

static void
test_generator(void **state)
{
	char *a1[] = { "dreamcity", "--seed", "42", "--size", "30x17",
	    "--buildings", "25" };
	char *a2[] = { "dreamcity", "--seed", "43" };
	char *bad[][3] = { { "dreamcity", "--size", "20x20" },
	    { "dreamcity", "--seed", "x" }, { "dreamcity", "--seed", "1" } };
	size_t la, lb, lc;
	char *a = generate(7, a1, &la), *b = generate(7, a1, &lb);
	char *c = generate(3, a2, &lc);
	char err[256];

	(void)state;
	assert_non_null(a);
	assert_non_null(c);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	assert_true(lc != la || memcmp(a, c, la) != 0);
	for (char *t = a; t; t = t == a ? c : NULL) {
		struct game_dataset *ds = dc()->dataset_parse("g", t,
		    strlen(t), err, sizeof err);

		if (ds == NULL)
			fail_msg("generated dataset rejected: %s", err);
		dc()->dataset_free(ds);
	}
	assert_non_null(strstr(a, "size 30 17\n"));
	assert_non_null(strstr(a, "buildings 25\n"));
	assert_non_null(strstr(c, "size 20 20\n"));
	assert_non_null(strstr(c, "buildings 12\n"));
	/* Every truncation but the final newline's is rejected, cleanly. */
	for (size_t n = 0; n + 1 < la; n++)
		assert_null(dc()->dataset_parse("g", a, n, err, sizeof err));
	assert_null(generate(3, bad[0], &lc));
	assert_null(generate(3, bad[1], &lc));
	assert_null(generate(2, bad[2], &lc));
	free(a);
	free(b);
	free(c);
}

static void
test_garbage(void **state)
{
	uint64_t x = 88172645463325252ULL;
	char buf[512], err[128];

	(void)state;
	for (int round = 0; round < 2000; round++) {
		size_t len = (size_t)(round % (int)sizeof buf);

		for (size_t i = 0; i < len; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = round % 2 ? (char)x : "dreamcity-dataset 1\n"
			    "size zones buildings .LBI#X\n 0123456789"[x % 58];
		}
		struct game_dataset *ds = dc()->dataset_parse("r", buf, len,
		    err, sizeof err);
		dc()->dataset_free(ds);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scoring_majority),
		cmocka_unit_test(test_majority_any_type_and_passes),
		cmocka_unit_test(test_majority_exactly_half),
		cmocka_unit_test(test_floor_at_zero),
		cmocka_unit_test(test_invalid_operations),
		cmocka_unit_test(test_blank_cells_may_hang_off),
		cmocka_unit_test(test_rotation),
		cmocka_unit_test(test_call_order_and_limit),
		cmocka_unit_test(test_invalid_breaks_pass_chain),
		cmocka_unit_test(test_fault),
		cmocka_unit_test(test_view),
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_parser_errors),
		cmocka_unit_test(test_generator),
		cmocka_unit_test(test_garbage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
