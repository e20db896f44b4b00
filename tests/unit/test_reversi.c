/*
 * Unit tests for games/reversi: the move generator against published perft
 * counts (games/reversi/perft.tsv, Bik's convention), flips in every
 * direction on a hand-drawn board, the referee's passes, ends, illegal
 * answers, faults, scores, views, frames, dataset errors and replay
 * determinism.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "games/reversi/rvboard.h"

static const struct game *
rv(void)
{
	const struct game *g = games_find("reversi");

	assert_non_null(g);
	return g;
}

/* Bits of the squares marked c in an 8-row picture. */
static uint64_t
pic(const char *rows, char c)
{
	uint64_t b = 0;

	assert_int_equal(strlen(rows), 64);
	for (int sq = 0; sq < 64; sq++)
		if (rows[sq] == c)
			b |= 1ULL << sq;
	return b;
}

static void
test_perft(void **state)
{
	const char *dir = getenv("ARENA_SOURCE_DIR");
	char path[4096], line[256];
	int checked = 0;
	FILE *f;

	(void)state;
	assert_non_null(dir);
	snprintf(path, sizeof path, "%s/games/reversi/perft.tsv", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f) != NULL) {
		int depth;
		unsigned long long want;

		if (sscanf(line, "%d\t%llu", &depth, &want) != 2 || depth > 9)
			continue;
		assert_int_equal(rvboard_perft(RV_START_BLACK, RV_START_WHITE,
		    depth), want);
		checked++;
	}
	fclose(f);
	assert_int_equal(checked, 9);
}

/* Black on d4 (3,3) closes a line in each of the 8 directions, the
 * southern one three discs long and ending on the edge. */
static void
test_flips_all_directions(void **state)
{
	const char *before =
	    "X..X..X."
	    ".O.O.O.."
	    "..OOO..."
	    "XOO.OOX."
	    "..OOO..."
	    ".O.O.O.."
	    "X..O..X."
	    "...X....";
	const char *after =
	    "X..X..X."
	    ".X.X.X.."
	    "..XXX..."
	    "XXXXXXX."
	    "..XXX..."
	    ".X.X.X.."
	    "X..X..X."
	    "...X....";
	uint64_t x = pic(before, 'X'), o = pic(before, 'O'), f;

	(void)state;
	f = rvboard_flips(x, o, RV_SQ(3, 3));
	assert_int_equal(rvboard_count(f), 17);
	assert_true(rvboard_moves(x, o) >> RV_SQ(3, 3) & 1);
	rvboard_play(&x, &o, RV_SQ(3, 3));
	assert_int_equal(x, pic(after, 'X'));
	assert_int_equal(o, 0);
	/* Lines that end on an empty square or the edge flip nothing. */
	assert_int_equal(rvboard_flips(pic(before, 'X'), pic(before, 'O'),
	    RV_SQ(0, 1)), 0);
	assert_int_equal(rvboard_flips(pic(before, 'X'), pic(before, 'O'),
	    RV_SQ(3, 0)), 0);	/* occupied */
	/* A row does not wrap into the next: O at (0,7), X at (1,0). */
	assert_int_equal(rvboard_moves(1ULL << 8, 1ULL << 7), 0);
	assert_int_equal(rvboard_moves(RV_START_BLACK, RV_START_WHITE),
	    1ULL << RV_SQ(2, 3) | 1ULL << RV_SQ(3, 2) | 1ULL << RV_SQ(4, 5) |
	    1ULL << RV_SQ(5, 4));
}

struct game_fix {
	struct game_dataset *ds;
	struct game_state *s;
};

static void
fix_start(struct game_fix *fx, const char *text, uint64_t seed)
{
	char err[256] = "";

	fx->ds = rv()->dataset_parse("t.rv", text, strlen(text), err,
	    sizeof err);
	if (fx->ds == NULL)
		fail_msg("%s", err);
	fx->s = rv()->start(fx->ds, 2, seed);
}

static void
fix_end(struct game_fix *fx)
{
	rv()->free_state(fx->s);
	rv()->dataset_free(fx->ds);
}

static void
expect_scores(struct game_fix *fx, int64_t black, int64_t white,
    const char *reason)
{
	int64_t sc[2];

	assert_int_equal(rv()->next_seat(fx->s), -1);
	assert_string_equal(rv()->end_reason(fx->s), reason);
	rv()->scores(fx->s, sc);
	assert_int_equal(sc[0], black);
	assert_int_equal(sc[1], white);
}

static void
expect_view(struct game_fix *fx, int seat, int64_t ms, const char *want)
{
	char *v = rv()->view(fx->s, seat, ms);

	assert_string_equal(v, want);
	free(v);
}

/* White to move has no move and must pass; black then wipes it out. */
static const char pass_board[] =
    "# white is stuck\r\n"
    "XO......\r\n........\n........\n........\n"
    "........\n........\n........\n........\n"
    "white\n";

static void
test_forced_pass(void **state)
{
	struct game_fix fx;
	char board[65], want[160];

	(void)state;
	memset(board, '.', 64);
	board[0] = 'X';
	board[1] = 'O';
	board[64] = '\0';
	fix_start(&fx, pass_board, 7);
	assert_int_equal(rv()->next_seat(fx.s), 1);
	snprintf(want, sizeof want, "reversi white 7 %s white\nstart 900\n",
	    board);
	expect_view(&fx, 1, 900, want);
	assert_int_equal(rv()->apply(fx.s, 1, " -1\t-1 "), GAME_MOVE_PASS);
	assert_null(rv()->end_reason(fx.s));
	assert_int_equal(rv()->next_seat(fx.s), 0);
	snprintf(want, sizeof want, "reversi black 7 %s white\n-1 -1 800\n",
	    board);
	expect_view(&fx, 0, 800, want);
	assert_int_equal(rv()->apply(fx.s, 0, "0 2"), GAME_MOVE_OK);
	/* Black 3, white 0, 61 empties to the winner. */
	expect_scores(&fx, 64, 0, "no_moves");
	fix_end(&fx);

	/* Moving when the only legal answer is a pass loses. */
	fix_start(&fx, pass_board, 7);
	assert_int_equal(rv()->apply(fx.s, 1, "0 2"), GAME_MOVE_ILLEGAL);
	expect_scores(&fx, 64, 0, "illegal");
	fix_end(&fx);

	/* Passing while a move exists loses. */
	fix_start(&fx, pass_board, 7);
	assert_int_equal(rv()->apply(fx.s, 1, "-1 -1"), GAME_MOVE_PASS);
	assert_int_equal(rv()->apply(fx.s, 0, "-1 -1"), GAME_MOVE_ILLEGAL);
	expect_scores(&fx, 0, 64, "illegal");
	fix_end(&fx);
}

static void
test_board_full_and_split(void **state)
{
	struct game_fix fx;
	char board[200];

	(void)state;
	/* One empty square; black fills it: 63 + 1 flipped... all black. */
	snprintf(board, sizeof board, ".OX%s\n%s", "XXXXX",
	    "XXXXXXXX\nXXXXXXXX\nXXXXXXXX\nXXXXXXXX\nXXXXXXXX\nXXXXXXXX\n"
	    "OOOOOOOO\n");
	fix_start(&fx, board, 1);
	assert_int_equal(rv()->apply(fx.s, 0, "0 0"), GAME_MOVE_OK);
	expect_scores(&fx, 56, 8, "board_full");
	fix_end(&fx);

	/* A finished start: nobody is called; 2 each, 60 empties split. */
	fix_start(&fx, "X......O\n........\n........\n........\n"
	    "........\n........\n........\nO......X\n", 1);
	expect_scores(&fx, 32, 32, "no_moves");
	fix_end(&fx);
}

static void
test_illegal_answers(void **state)
{
	static const char *const bad[] = {
		"", "3", "2 3 4", "a b", "2,3", "1000 0", "-1 -1", "8 0",
		"0 -1", "3 3", "0 0", "2  3x", "--2 3", "-0001 2",
	};
	static const char std[] =
	    "........\n........\n........\n...OX...\n"
	    "...XO...\n........\n........\n........\n";
	struct game_fix fx;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		fix_start(&fx, std, 3);
		assert_int_equal(rv()->apply(fx.s, 0, bad[i]),
		    GAME_MOVE_ILLEGAL);
		expect_scores(&fx, 0, 64, "illegal");
		fix_end(&fx);
	}
	/* Out of turn: refused, the game goes on. */
	fix_start(&fx, std, 3);
	assert_int_equal(rv()->apply(fx.s, 1, "2 3"), GAME_MOVE_ILLEGAL);
	assert_int_equal(rv()->next_seat(fx.s), 0);
	assert_int_equal(rv()->apply(fx.s, 0, " 2 3\r"), GAME_MOVE_OK);
	expect_view(&fx, 1, 5000, "reversi white 3 "
	    "...........................OX......XO..........................."
	    " black\n2 3 5000\n");
	assert_int_equal(rv()->apply(fx.s, 1, "2 2"), GAME_MOVE_OK);
	/* The header comes once per seat. */
	expect_view(&fx, 0, 4000, "2 2 4000\n");
	rv()->fault(fx.s, 0);
	expect_scores(&fx, 0, 64, "fault");
	fix_end(&fx);
}

static void
expect_frame(struct game_fix *fx, const char *want)
{
	char *f = rv()->frame(fx->s);

	assert_string_equal(f, want);
	free(f);
}

/* Frames: disc counts while running, the last disc in lower case, the
 * final scores (empties to the winner) once over. */
static void
test_frames(void **state)
{
	static const char std[] =
	    "........\n........\n........\n...OX...\n"
	    "...XO...\n........\n........\n........\n";
	struct game_fix fx;

	(void)state;
	assert_non_null(rv()->palette);
	fix_start(&fx, std, 3);
	expect_frame(&fx, "move 0: scores 2 2, X to move\n"
	    "........\n........\n........\n...OX...\n"
	    "...XO...\n........\n........\n........\n");
	assert_int_equal(rv()->apply(fx.s, 0, "2 3"), GAME_MOVE_OK);
	expect_frame(&fx, "move 1: scores 4 1, O to move\n"
	    "........\n........\n...x....\n...XX...\n"
	    "...XO...\n........\n........\n........\n");
	assert_int_equal(rv()->apply(fx.s, 1, "9 9"), GAME_MOVE_ILLEGAL);
	expect_frame(&fx, "move 2: scores 64 0, over: illegal\n"
	    "........\n........\n...x....\n...XX...\n"
	    "...XO...\n........\n........\n........\n");
	fix_end(&fx);
	fix_start(&fx, pass_board, 7);
	assert_int_equal(rv()->apply(fx.s, 1, "-1 -1"), GAME_MOVE_PASS);
	assert_int_equal(rv()->apply(fx.s, 0, "0 2"), GAME_MOVE_OK);
	expect_frame(&fx, "move 2: scores 64 0, over: no_moves\n"
	    "XXx.....\n........\n........\n........\n"
	    "........\n........\n........\n........\n");
	fix_end(&fx);
}

static void
test_parser_errors(void **state)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
		{ "........\n", "t.rv:2:1: the board has 8 rows, this one 1" },
		{ "#\n.......\n", "t.rv:2:8: a board row has 8 squares, "
		    "this one 7" },
		{ "........\n.....x..\n", "t.rv:2:6: expected '.', 'X' or "
		    "'O', not 'x'" },
		{ ".........\n", "t.rv:1:9: a board row has 8 squares, "
		    "this one 9" },
		{ "........\n........\n........\n........\n........\n"
		    "........\n........\n........\nred\n",
		    "t.rv:9:1: expected 'black' or 'white' (the side to move)" },
		{ "........\n........\n........\n........\n........\n"
		    "........\n........\n........\nblack\nwhite\n",
		    "t.rv:10:1: unexpected text after the side to move" },
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		err[0] = '\0';
		assert_null(rv()->dataset_parse("t.rv", cases[i].text,
		    strlen(cases[i].text), err, sizeof err));
		assert_string_equal(err, cases[i].err);
	}
	/* A NUL inside a row is an error, not the end of the text. */
	assert_null(rv()->dataset_parse("t.rv", "...\0....\n", 9, err,
	    sizeof err));
	assert_string_equal(err, "t.rv:1:4: expected '.', 'X' or 'O', "
	    "not byte 0x00");
}

#define MAX_CALLS	130	/* 60 moves, and a pass between two at most */

struct record {
	int n;
	char answer[MAX_CALLS][8];
};

/* Plays a game from the standard start: with record->n == 0 it picks
 * pseudo-random legal answers (tracking the board with rvboard) and
 * records them, else it replays the record. The views go to log. */
static void
play(uint64_t pick, struct record *rec, char *log, size_t loglen,
    int64_t sc[2])
{
	static const char std[] =
	    "........\n........\n........\n...OX...\n"
	    "...XO...\n........\n........\n........\n";
	uint64_t disc[2] = { RV_START_BLACK, RV_START_WHITE };
	bool replay = rec->n > 0;
	struct game_fix fx;
	int seat, k = 0;

	fix_start(&fx, std, pick);
	log[0] = '\0';
	while ((seat = rv()->next_seat(fx.s)) >= 0) {
		char *v = rv()->view(fx.s, seat, 1000 - k);

		strncat(log, v, loglen - strlen(log) - 1);
		free(v);
		assert_true(k < MAX_CALLS);
		if (!replay) {
			uint64_t m = rvboard_moves(disc[seat], disc[!seat]);
			int sq = -1;

			pick ^= pick << 13;
			pick ^= pick >> 7;
			pick ^= pick << 17;
			for (int i = (int)(pick % 64); m != 0 && sq < 0;
			    i = (i + 1) % 64)
				if (m >> i & 1)
					sq = i;
			if (sq >= 0)
				rvboard_play(&disc[seat], &disc[!seat], sq);
			snprintf(rec->answer[k], sizeof rec->answer[k],
			    "%d %d", sq < 0 ? -1 : sq / 8, sq < 0 ? -1 : sq % 8);
		}
		assert_int_not_equal(rv()->apply(fx.s, seat, rec->answer[k]),
		    GAME_MOVE_ILLEGAL);
		k++;
	}
	if (!replay)
		rec->n = k;
	assert_int_equal(k, rec->n);
	rv()->scores(fx.s, sc);
	/* The referee's count agrees with the board kept here. */
	if (!replay) {
		int b = rvboard_count(disc[0]), w = rvboard_count(disc[1]);

		assert_int_equal(sc[0] + sc[1], 64);
		assert_true((sc[0] > sc[1]) == (b > w));
		assert_true(sc[0] == b || sc[0] == 64 - w ||
		    sc[0] == b + (64 - b - w) / 2);
	}
	fix_end(&fx);
}

static void
test_replay(void **state)
{
	static char log1[1 << 14], log2[1 << 14];
	struct record rec;
	int64_t sc1[2], sc2[2];

	(void)state;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		rec.n = 0;
		play(seed * 0x9e3779b97f4a7c15ULL, &rec, log1, sizeof log1,
		    sc1);
		play(seed * 0x9e3779b97f4a7c15ULL, &rec, log2, sizeof log2,
		    sc2);
		assert_true(rec.n >= 9);	/* the shortest game is 9 */
		assert_string_equal(log1, log2);
		assert_int_equal(sc1[0], sc2[0]);
		assert_int_equal(sc1[1], sc2[1]);
	}
}

/* Runs the generator; returns its output (caller frees) or NULL. */
static char *
gen(const char *seed, const char *plies)
{
	char *argv[] = { "reversi", "--seed", (char *)seed, "--plies",
	    (char *)plies, NULL };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	assert_non_null(f);
	rc = rv()->generate(plies != NULL ? 5 : 3, argv, f);
	fclose(f);
	if (rc == -1) {
		free(text);
		return NULL;
	}
	assert_int_equal(rc, 0);
	return text;
}

static void
test_generator(void **state)
{
	char seed[24], plies[8], err[256];
	char *a, *b;

	(void)state;
	a = gen("5", "0");
	assert_string_equal(a, "# arena gen reversi --seed 5 --plies 0\n"
	    "........\n........\n........\n...OX...\n"
	    "...XO...\n........\n........\n........\nblack\n");
	free(a);
	for (int i = 1; i <= 40; i++) {
		struct game_dataset *ds;
		struct game_state *s;

		snprintf(seed, sizeof seed, "%d", i);
		snprintf(plies, sizeof plies, "%d", i % 21);
		a = gen(seed, plies);
		b = gen(seed, plies);
		assert_string_equal(a, b);
		ds = rv()->dataset_parse("g.rv", a, strlen(a), err, sizeof err);
		if (ds == NULL)
			fail_msg("%s", err);
		/* A live position, with the side that owes the next ply to
		 * move (no forced pass happens this early in these seeds). */
		s = rv()->start(ds, 2, 1);
		assert_int_equal(rv()->next_seat(s), i % 21 % 2);
		assert_non_null(strstr(a, i % 21 % 2 ? "white\n" : "black\n"));
		rv()->free_state(s);
		rv()->dataset_free(ds);
		free(a);
		free(b);
	}
	a = gen("1", "4");
	b = gen("2", "4");
	assert_string_not_equal(a, b);
	free(a);
	free(b);
	assert_null(gen("1", "21"));
	assert_null(gen("x", "4"));
	assert_null(gen("-1", "4"));
	a = gen("1", NULL);	/* --plies defaults to 4 */
	b = gen("1", "4");
	assert_non_null(a);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perft),
		cmocka_unit_test(test_flips_all_directions),
		cmocka_unit_test(test_forced_pass),
		cmocka_unit_test(test_board_full_and_split),
		cmocka_unit_test(test_illegal_answers),
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_parser_errors),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_generator),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
