/*
 * Unit tests for games/spacewars: every scoring line and collision case on
 * hand-drawn positions, motion, every end, the view and frame texts,
 * answers, the
 * field parser's errors, the generator, replay determinism and the house
 * bots. Positions are drawn from the top-left corner of the field (see
 * spacewars_position()); expected fields are the view's rows, drawn the
 * same way, with everything not drawn empty. Battleships are 'u' 'd' 'l'
 * 'r' in a view whoever owns them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "games/game.h"
#include "games/spacewars/spacewars.h"

#define ROWS	40
#define COLS	50

static struct game_dataset *bare;	/* the start ships, no asteroids */

static const struct game *
sw(void)
{
	const struct game *g = games_find("spacewars");

	assert_non_null(g);
	return g;
}

/* The generator's output for argv, or NULL if it refused. */
static char *
generate(int argc, char **argv, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	if (sw()->generate(argc, argv, f) == -1) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

static struct game_dataset *
load(const char *text, size_t len)
{
	char err[256] = "";
	struct game_dataset *ds = sw()->dataset_parse("t", text, len, err,
	    sizeof err);

	if (ds == NULL)
		fail_msg("field rejected: %s", err);
	return ds;
}

static struct game_dataset *
gen_field(const char *seed, const char *asteroids)
{
	char *argv[] = { "spacewars", "--seed", (char *)seed, "--asteroids",
	    (char *)asteroids };
	size_t len;
	char *text = generate(5, argv, &len);
	struct game_dataset *ds;

	assert_non_null(text);
	ds = load(text, len);
	free(text);
	return ds;
}

static int
setup(void **state)
{
	(void)state;
	bare = gen_field("1", "0");
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	sw()->dataset_free(bare);
	return 0;
}

/* A game on the bare field, set to the drawn position. */
static struct game_state *
game(const char *board)
{
	struct game_state *s = sw()->start(bare, 2, 1);
	char err[128];

	if (spacewars_position(s, board, err, sizeof err) == -1)
		fail_msg("%s", err);
	return s;
}

static const char *
answer_of(char c)
{
	static char one[2];

	one[0] = c;
	return one;
}

/* Plays turns: each word is seat 0's then seat 1's command, '-' for a
 * seat that must not be asked (its battleship is gone). */
static void
turns(struct game_state *s, const char *words)
{
	for (const char *w = words; *w != '\0'; w += w[2] == ' ' ? 3 : 2) {
		for (int seat = 0; seat < 2; seat++) {
			if (w[seat] == '-') {
				assert_int_not_equal(sw()->next_seat(s), seat);
				continue;
			}
			assert_int_equal(sw()->next_seat(s), seat);
			assert_int_not_equal(sw()->apply(s, seat,
			    answer_of(w[seat])), GAME_MOVE_ILLEGAL);
		}
		if (w[2] == '\0')
			break;
	}
}

/* Compares the field of the view with expected, drawn like a board. */
static void
assert_field(struct game_state *s, const char *expected)
{
	char *v = sw()->view(s, 0, 100), *p = v;
	char want[COLS + 1], got[COLS + 1];
	const char *e = expected;

	for (int i = 0; i < 3; i++)
		p = strchr(p, '\n') + 1;
	for (int r = 0; r < ROWS; r++) {
		size_t n = strcspn(e, "\n");

		assert_true(n <= COLS);
		memset(want, ' ', COLS);
		memcpy(want, e, n);
		want[COLS] = '\0';
		e += n + (e[n] == '\n');
		memcpy(got, p, COLS);
		got[COLS] = '\0';
		assert_int_equal(p[COLS], '\n');
		if (strcmp(got, want) != 0)
			fail_msg("row %d:\n got '%s'\nwant '%s'", r, got, want);
		p += COLS + 1;
	}
	assert_int_equal(*p, '\0');
	free(v);
}

static void
assert_points(struct game_state *s, int64_t a, int64_t b)
{
	int64_t sc[2];

	sw()->scores(s, sc);
	assert_int_equal(sc[0], a);
	assert_int_equal(sc[1], b);
}

static void
assert_reason(struct game_state *s, const char *reason)
{
	if (reason == NULL) {
		assert_null(sw()->end_reason(s));
		assert_true(sw()->next_seat(s) >= 0);
	} else {
		assert_string_equal(sw()->end_reason(s), reason);
		assert_int_equal(sw()->next_seat(s), -1);
	}
}

/* Two fleets far away keep a game from ending by itself. */
#define FLEETS	"\n\n\n\n\n\n\n\n\n\n1        2\n"

/* Launch (recoil backwards), brake, then the rocket hits the enemy
 * battleship: +1 to the shooter, nothing to the victim, whose seat is not
 * asked any more. */
static void
test_rocket_hits_battleship(void **state)
{
	struct game_state *s = game("\n  r   U" FLEETS);

	(void)state;
	turns(s, "SN");
	assert_field(s, "\n r o  u" FLEETS);
	turns(s, "EN");
	assert_field(s, "\n r   ou" FLEETS);
	turns(s, "NN");
	assert_field(s, "\n r    *" FLEETS);
	assert_points(s, 1, 0);
	assert_reason(s, NULL);
	assert_int_equal(sw()->next_seat(s), 0);
	turns(s, "N- N-");
	assert_field(s, "\n r" FLEETS);
	assert_reason(s, NULL);
	sw()->free_state(s);
}

/* Rockets on cargo ships: enemy +1, own -1; hit on the second half-step. */
static void
test_rocket_hits_cargo(void **state)
{
	static const struct {
		const char *board, *after;
		int64_t p1;
	} cases[] = {
		{ "\n  r  2" FLEETS, "\n r   *" FLEETS, 1 },
		{ "\n  r  1" FLEETS, "\n r   *" FLEETS, -1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct game_state *s = game(cases[i].board);

		turns(s, "S- E-");
		assert_field(s, cases[i].after);
		assert_points(s, cases[i].p1, 0);
		sw()->free_state(s);
	}
}

/* A rocket launched onto an occupied cell hits at once, before anything
 * moves; a rocket hitting its own battleship scores nothing. */
static void
test_point_blank(void **state)
{
	struct game_state *s = game("\n  r2" FLEETS);

	(void)state;
	turns(s, "S-");
	assert_field(s, "\n r *" FLEETS);
	assert_points(s, 1, 0);
	sw()->free_state(s);

	s = game("\n  rR" FLEETS);
	spacewars_set_velocity(s, 1, 0, 1);
	turns(s, "SN");
	assert_field(s, "\n r *" FLEETS);
	assert_points(s, 1, 0);
	assert_int_equal(sw()->next_seat(s), 0);
	sw()->free_state(s);

	s = game("\n  r <     U" FLEETS);
	turns(s, "NN");
	assert_field(s, "\n  *       u" FLEETS);
	assert_points(s, 0, 0);
	assert_int_equal(sw()->next_seat(s), 1);
	sw()->free_state(s);
}

/* Player 1's battleship, moving right, rams what is next to it. */
static void
test_ramming(void **state)
{
	static const struct {
		const char *board, *after, *reason;
		int64_t p1, p2;
	} cases[] = {
		{ "\n rL" FLEETS, "\n  *" FLEETS, "battleships_destroyed",
		    -1, -1 },
		{ "\n r2      U" FLEETS, "\n  *      u" FLEETS, NULL, 0, 0 },
		{ "\n r1      U" FLEETS, "\n  *      u" FLEETS, NULL, -2, 0 },
		{ "\n r#      U" FLEETS, "\n  *      u" FLEETS, NULL, -1, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct game_state *s = game(cases[i].board);

		spacewars_set_velocity(s, 0, 0, 1);
		turns(s, "NN");
		assert_field(s, cases[i].after);
		assert_points(s, cases[i].p1, cases[i].p2);
		assert_reason(s, cases[i].reason);
		if (cases[i].reason == NULL)
			assert_int_equal(sw()->next_seat(s), 1);
		sw()->free_state(s);
	}
}

/* Nothing tunnels: ships swapping cells, ships crossing diagonally, a
 * rocket and a ship swapping; but a ship or rocket following another
 * mover does not collide until it catches up. */
static void
test_swaps(void **state)
{
	struct game_state *s = game("\n rL" FLEETS);

	(void)state;
	spacewars_set_velocity(s, 0, 0, 1);
	spacewars_set_velocity(s, 1, 0, -1);
	turns(s, "NN");
	assert_field(s, "\n **" FLEETS);
	assert_points(s, -1, -1);
	assert_reason(s, "battleships_destroyed");
	sw()->free_state(s);

	s = game("\n dD\n" FLEETS);
	spacewars_set_velocity(s, 0, 1, 1);
	spacewars_set_velocity(s, 1, 1, -1);
	turns(s, "NN");
	assert_field(s, "\n\n **" FLEETS);
	assert_points(s, -1, -1);
	sw()->free_state(s);

	/* player 1's rocket flying left, player 2's ship moving right */
	s = game("\n  R<" FLEETS);
	spacewars_set_velocity(s, 1, 0, 1);
	turns(s, "-N");
	assert_field(s, "\n  **" FLEETS);
	assert_points(s, 1, 0);
	assert_reason(s, "battleships_destroyed");
	sw()->free_state(s);

	/* a ship behind a ship; a rocket behind a ship catches it on the
	 * second half-step */
	s = game("\n rR" FLEETS);
	spacewars_set_velocity(s, 0, 0, 1);
	spacewars_set_velocity(s, 1, 0, 1);
	turns(s, "NN");
	assert_field(s, "\n  rr" FLEETS);
	sw()->free_state(s);
	s = game("\n\n\n >R" FLEETS);
	spacewars_set_velocity(s, 1, 0, 1);
	turns(s, "-N");
	assert_field(s, "\n\n\n   *" FLEETS);
	assert_points(s, 1, 0);
	sw()->free_state(s);
}

/* Rockets pass through each other, swapping or sharing a cell. */
static void
test_rockets_pass(void **state)
{
	struct game_state *s = game("\n  ><\n\n >   <\n\n\n\n\n d" FLEETS);

	(void)state;
	spacewars_set_rocket_owner(s, 1, 3, 1);
	spacewars_set_rocket_owner(s, 3, 5, 1);
	turns(s, "N-");
	assert_field(s, "\n o  o\n\n   o\n\n\n\n\n d" FLEETS);
	turns(s, "N-");
	assert_field(s, "\n      o\n\n o   o\n\n\n\n\n d" FLEETS);
	assert_points(s, 0, 0);
	sw()->free_state(s);
}

/* Three objects on one cell: player 1's rocket meets player 2's battleship
 * ramming its own cargo ship: +1 +1 to player 1, -2 to player 2. Two
 * rockets of both players on one cargo ship of player 1: -1 and +1. */
static void
test_three_way(void **state)
{
	struct game_state *s = game("\n\n   2<\n   U" FLEETS);

	(void)state;
	spacewars_set_velocity(s, 1, -1, 0);
	turns(s, "-N");
	assert_field(s, "\n\n   *\n" FLEETS);
	assert_points(s, 2, -2);
	sw()->free_state(s);

	s = game("\n > 1 <\n\n\n\n\n\n\n d" FLEETS);
	spacewars_set_rocket_owner(s, 1, 5, 1);
	turns(s, "N-");
	assert_field(s, "\n   *\n\n\n\n\n\n\n d" FLEETS);
	assert_points(s, -1, 1);
	sw()->free_state(s);
}

/* A rocket or ship leaving the field is gone, without points or '*'; a
 * rocket launched off the field never appears, but the recoil happens. */
static void
test_leaving_field(void **state)
{
	struct game_state *s = game("     ^   U\n\nl\n"
	    "                                                >" FLEETS);

	(void)state;
	spacewars_set_velocity(s, 0, 0, -1);
	turns(s, "NS");
	assert_field(s, "\n         u\n\n" FLEETS);
	assert_points(s, 0, 0);
	assert_int_equal(sw()->next_seat(s), 1);
	sw()->free_state(s);
}

/* Position and facing of seat 0's battleship, from its view. */
static void
assert_ship(struct game_state *s, int r, int c, char facing)
{
	char *v = sw()->view(s, 0, 100), *p = v;
	int vr, vc;

	p = strchr(p, '\n') + 1;
	assert_int_equal(sscanf(p, "%d %d", &vr, &vc), 2);
	if (vr != r || vc != c)
		fail_msg("ship at (%d,%d), expected (%d,%d)", vr, vc, r, c);
	for (int i = 0; i < 2; i++)
		p = strchr(p, '\n') + 1;
	assert_int_equal(p[r * (COLS + 1) + c], facing);
	free(v);
}

/* Thrust, clamping, turns, diagonal motion, recoil, Cyrillic E, stops. */
static void
test_motion(void **state)
{
	static const struct {
		const char *answer;
		int r, c;
		char facing;
	} steps[] = {
		{ "E", 6, 5, 'd' },		/* v (1,0) */
		{ "E", 7, 5, 'd' },		/* clamped */
		{ "L", 8, 5, 'r' },		/* counter-clockwise */
		{ "E", 9, 6, 'r' },		/* v (1,1) */
		{ "R", 10, 7, 'd' },
		{ "R", 11, 8, 'l' },
		{ "E", 12, 8, 'l' },		/* v (1,0) */
		{ "S", 13, 9, 'l' },		/* recoil: v (1,1) */
		{ "L", 14, 10, 'd' },
		{ "S", 14, 11, 'd' },		/* recoil: v (0,1) */
		{ "\xd0\x95", 15, 12, 'd' },	/* Cyrillic E: v (1,1) */
		{ "R", 16, 13, 'l' },
		{ "E", 17, 13, 'l' },		/* v (1,0) */
		{ "R", 18, 13, 'u' },
		{ "E", 18, 13, 'u' },		/* turned around: stopped */
		{ "E", 17, 13, 'u' },		/* v (-1,0) */
		{ "S", 17, 13, 'u' },		/* forwards, the recoil stops */
	};
	struct game_state *s = game("\n\n\n\n\n     d\n\n\n\n\n"
	    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n         U\n2\n1");

	(void)state;
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		assert_int_equal(sw()->apply(s, 0, steps[i].answer),
		    GAME_MOVE_OK);
		assert_int_equal(sw()->apply(s, 1, "N"), GAME_MOVE_PASS);
		assert_ship(s, steps[i].r, steps[i].c, steps[i].facing);
	}
	/* the rockets: the first (from (12,7), left) has left the field,
	 * the second flew down from (15,10) at 2 cells a turn, the last was
	 * just launched at (16,13) */
	assert_field(s, "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n             o\n"
	    "             u\n\n\n\n\n\n\n\n\n\n\n\n          o\n"
	    "         u\n2\n1");
	sw()->free_state(s);
}

/* The last cargo ship or battleship of a player going ends the game, even
 * when both battleships go at once. */
static void
test_fleet_destroyed(void **state)
{
	struct game_state *s = game("\n  r   U\n\n\n1");

	(void)state;
	turns(s, "SN EN NN");
	assert_reason(s, "fleet_destroyed");
	assert_points(s, 1, 0);
	sw()->free_state(s);

	s = game("\n rL\n\n1");
	spacewars_set_velocity(s, 0, 0, 1);
	turns(s, "NN");
	assert_reason(s, "fleet_destroyed");
	assert_points(s, -1, -1);
	sw()->free_state(s);
}

/* Bots are asked for turns 1..999; the game ends as turn 1000 begins. */
static void
test_turn_limit(void **state)
{
	struct game_state *s = sw()->start(bare, 2, 1);
	char *v;

	(void)state;
	for (int t = 1; t < 999; t++)
		turns(s, "NN");
	v = sw()->view(s, 1, 100);
	assert_true(strncmp(v, "999\n32 42\n2\n", 12) == 0);
	free(v);
	assert_int_equal(sw()->apply(s, 0, "N"), GAME_MOVE_PASS);
	assert_reason(s, NULL);
	assert_int_equal(sw()->apply(s, 1, ""), GAME_MOVE_PASS);
	assert_reason(s, "turn_limit");
	assert_points(s, 0, 0);
	sw()->free_state(s);
}

/* A fault stops the game: the seat scores 0, the other keeps its points. */
static void
test_fault(void **state)
{
	struct game_state *s = game("\n  r  2" FLEETS);

	(void)state;
	turns(s, "S- E-");
	sw()->fault(s, 0);
	assert_reason(s, "fault");
	assert_points(s, 0, 0);
	sw()->free_state(s);

	s = game("\n  r  2" FLEETS);
	turns(s, "S- E-");
	sw()->fault(s, 1);
	assert_points(s, 1, 0);
	sw()->free_state(s);
}

/* The view is input.txt exactly: turn, own position, own cargo symbol,
 * then the 40 rows of the field as the field file has them. A seat does
 * not see the other's command of the same turn. */
static void
test_view(void **state)
{
	char *argv[] = { "spacewars", "--seed", "5", "--asteroids", "40" };
	size_t len;
	char *text = generate(5, argv, &len), *rows, *want, *v0, *v1;
	struct game_dataset *ds = load(text, len);
	struct game_state *s = sw()->start(ds, 2, 1);

	(void)state;
	rows = strstr(text, "spacewars-field 1\n") + 18;
	assert_int_equal(strlen(rows), ROWS * (COLS + 1));
	assert_true(asprintf(&want, "1\n7 7\n1\n%s", rows) > 0);
	v0 = sw()->view(s, 0, 100);
	assert_string_equal(v0, want);
	free(want);
	assert_true(asprintf(&want, "1\n32 42\n2\n%s", rows) > 0);
	v1 = sw()->view(s, 1, 100);
	assert_string_equal(v1, want);
	free(want);
	free(v0);

	assert_int_equal(sw()->apply(s, 0, "S"), GAME_MOVE_OK);
	v0 = sw()->view(s, 1, 100);
	assert_string_equal(v0, v1);
	free(v0);
	free(v1);
	assert_int_equal(sw()->apply(s, 1, "N"), GAME_MOVE_PASS);
	v0 = sw()->view(s, 0, 100);
	assert_true(strncmp(v0, "2\n6 7\n1\n", 8) == 0);
	assert_int_equal(v0[8 + 6 * (COLS + 1) + 7], 'd');
	assert_int_equal(v0[8 + 7 * (COLS + 1) + 7], ' ');
	assert_int_equal(v0[8 + 8 * (COLS + 1) + 7], 'o');
	free(v0);
	sw()->free_state(s);
	sw()->dataset_free(ds);
	free(text);
}

/* Frame line `line` (0 is the header) without its newline; a field row
 * is compared with want padded with blanks. */
static void
assert_frame_line(struct game_state *s, int line, const char *want)
{
	char *f = sw()->frame(s), *p = f, row[COLS + 1];
	int rows = 0;

	if (line > 0) {
		snprintf(row, sizeof row, "%-*s", COLS, want);
		want = row;
	}
	for (char *q = f; *q != '\0'; q++)
		rows += *q == '\n';
	assert_int_equal(rows, 1 + ROWS);
	for (int i = 0; i < line; i++)
		p = strchr(p, '\n') + 1;
	*strchr(p, '\n') = '\0';
	assert_string_equal(p, want);
	free(f);
}

/* Frames tell the seats' battleships apart (seat 1's in upper case) and
 * show rockets by direction; the header has the points so far. */
static void
test_frames(void **state)
{
	struct game_state *s = game("\n  r   U" FLEETS);

	(void)state;
	assert_non_null(sw()->palette);
	assert_frame_line(s, 0, "turn 1: scores 0 0, A to move");
	assert_frame_line(s, 2, "  r   U");
	turns(s, "SN");
	assert_frame_line(s, 2, " r >  U");
	assert_int_equal(sw()->apply(s, 0, "E"), GAME_MOVE_OK);
	assert_frame_line(s, 0, "turn 2: scores 0 0, B to move");
	assert_int_equal(sw()->apply(s, 1, "L"), GAME_MOVE_OK);
	assert_frame_line(s, 2, " r   >L");
	turns(s, "NN");
	assert_frame_line(s, 0, "turn 4: scores 1 0, A to move");
	assert_frame_line(s, 2, " r    *");
	assert_frame_line(s, 12, "1        2");
	sw()->fault(s, 0);
	assert_frame_line(s, 0, "turn 4: scores 0 0, over: fault");
	sw()->free_state(s);
}

/* "" (no answer) is N; malformed answers are N too but illegal; blanks,
 * a '\r' and a UTF-8 byte order mark around the letter are fine; a seat
 * out of turn changes nothing. */
static void
test_answers(void **state)
{
	static const struct {
		const char *answer;
		enum game_move res;
		int r, c;
		char facing;
	} cases[] = {
		{ "", GAME_MOVE_PASS, 5, 5, 'd' },
		{ "N", GAME_MOVE_PASS, 5, 5, 'd' },
		{ "X", GAME_MOVE_ILLEGAL, 5, 5, 'd' },
		{ "RR", GAME_MOVE_ILLEGAL, 5, 5, 'd' },
		{ "r", GAME_MOVE_ILLEGAL, 5, 5, 'd' },
		{ "\xd0\x95\xd0\x95", GAME_MOVE_ILLEGAL, 5, 5, 'd' },
		{ " R \r", GAME_MOVE_OK, 5, 5, 'l' },
		{ "\xef\xbb\xbfL", GAME_MOVE_OK, 5, 5, 'd' },
		{ "\t\xd0\x95", GAME_MOVE_OK, 6, 5, 'd' },
	};
	struct game_state *s = game("\n\n\n\n\n     d     U" FLEETS);

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(sw()->apply(s, 1, "E"), GAME_MOVE_ILLEGAL);
		assert_int_equal(sw()->apply(s, 0, cases[i].answer),
		    cases[i].res);
		assert_int_equal(sw()->apply(s, 0, "E"), GAME_MOVE_ILLEGAL);
		assert_int_equal(sw()->apply(s, 1, ""), GAME_MOVE_PASS);
		assert_ship(s, cases[i].r, cases[i].c, cases[i].facing);
	}
	sw()->free_state(s);
}

static void
test_generator(void **state)
{
	char *a1[] = { "spacewars", "--seed", "7", "--asteroids", "300" };
	char *a2[] = { "spacewars", "--seed", "8" };
	char *bad[][5] = {
		{ "spacewars", "--seed", "7", "--asteroids", "31" },
		{ "spacewars", "--seed", "7", "--asteroids", "5000" },
		{ "spacewars", "--asteroids", "30", NULL, NULL },
		{ "spacewars", "--seed", "-3", NULL, NULL },
		{ "spacewars", "--seed", "3", "--size", "4" },
	};
	size_t la, lb, lc;
	char *a = generate(5, a1, &la), *b = generate(5, a1, &lb);
	char *c = generate(3, a2, &lc), *rows;
	int count = 0;

	(void)state;
	assert_non_null(a);
	assert_non_null(c);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	assert_true(lc != la || memcmp(a, c, la) != 0);
	sw()->dataset_free(load(a, la));
	sw()->dataset_free(load(c, lc));
	rows = strstr(a, "spacewars-field 1\n") + 18;
	for (int r = 0; r < ROWS; r++) {
		for (int col = 0; col < COLS; col++) {
			char ch = rows[r * (COLS + 1) + col];
			char m = rows[(ROWS - 1 - r) * (COLS + 1) + COLS - 1 -
			    col];

			count += ch == '#';
			assert_int_equal(ch == '#', m == '#');
		}
	}
	assert_int_equal(count, 300);
	count = 0;
	for (char *p = strstr(c, "spacewars-field 1\n"); *p; p++)
		count += *p == '#';
	assert_int_equal(count, 100);	/* the default */
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_null(generate(bad[i][3] ? 5 : 3, bad[i], &lc));
	free(a);
	free(b);
	free(c);
}

/* Replaces the character at (line, col), both 1-based, of text. */
static char *
edit(const char *text, int line, int col, const char *with, size_t cut)
{
	const char *p = text;
	char *out;

	for (int l = 1; l < line; l++)
		p = strchr(p, '\n') + 1;
	p += col - 1;
	assert_true(asprintf(&out, "%.*s%s%s", (int)(p - text), text, with,
	    p + cut) > 0);
	return out;
}

static void
test_parser_errors(void **state)
{
	char *argv[] = { "spacewars", "--seed", "1", "--asteroids", "0" };
	size_t len;
	char *base = generate(5, argv, &len);
	/* line 1 is the generator's comment, line 2 the header, line 3 is
	 * row 0 */
	static const struct {
		int line, col;
		const char *with;
		size_t cut;
		const char *err;
	} cases[] = {
		{ 2, 17, "2", 1, "t:2:1: expected 'spacewars-field 1'" },
		{ 13, 51, "#", 0, "t:13:51: row longer than 50 characters" },
		{ 13, 21, "x", 1, "t:13:21: unexpected 'x' (expected ' ' or"
		    " '#')" },
		{ 13, 21, "\x01", 1, "t:13:21: unexpected byte 0x01 (expected"
		    " ' ' or '#')" },
		{ 4, 2, " ", 1, "t:4:2: expected '1' (a start cell), found"
		    " ' '" },
		{ 10, 8, "u", 1, "t:10:8: expected 'd' (a start cell), found"
		    " 'u'" },
		{ 13, 11, "1", 1, "t:13:11: '1' is not on its start cell" },
		{ 3, 1, "#", 1, "t:3:1: asteroid on or next to a ship's start"
		    " cell" },
		{ 11, 9, "#", 1, "t:11:9: asteroid on or next to a ship's start"
		    " cell" },
		{ 13, 21, "#", 1, "t:13:21: asteroid without its mirror image"
		    " at line 32, column 30" },
		{ 32, 30, "#", 1, "t:32:30: asteroid without its mirror image"
		    " at line 13, column 21" },
		{ 43, 1, "\n", 0, "t:43:1: unexpected text after the 40 field"
		    " rows" },
		{ 42, 1, "", 51, "t:42:1: unexpected end of file, expected"
		    " field row 40 of 40" },
		{ 2, 1, "", 18, "t:2:1: expected 'spacewars-field 1'" },
	};
	char err[256];

	(void)state;
	assert_non_null(base);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *t = edit(base, cases[i].line, cases[i].col,
		    cases[i].with, cases[i].cut);
		struct game_dataset *ds = sw()->dataset_parse("t", t,
		    strlen(t), err, sizeof err);

		if (ds != NULL)
			fail_msg("case %zu accepted", i);
		assert_string_equal(err, cases[i].err);
		free(t);
	}
	assert_null(sw()->dataset_parse("t", "", 0, err, sizeof err));
	assert_string_equal(err, "t:1:1: unexpected end of file, expected"
	    " 'spacewars-field 1'");
	free(base);
}

/* The view of turn 1 on the field text, which must be accepted. */
static char *
first_view(const char *text, size_t len)
{
	struct game_dataset *ds = load(text, len);
	struct game_state *s = sw()->start(ds, 2, 1);
	char *v = sw()->view(s, 0, 0);

	sw()->free_state(s);
	sw()->dataset_free(ds);
	return v;
}

/* Rows shortened by an editor, CRLF line ends, comments, no final
 * newline: all the same field. */
static void
test_parser_tolerance(void **state)
{
	char *argv[] = { "spacewars", "--seed", "2", "--asteroids", "60" };
	size_t len;
	char *base = generate(5, argv, &len), *t, *q, *want, *got;

	(void)state;
	want = first_view(base, len);
	t = malloc(2 * len + 16);
	q = t + sprintf(t, "; one\r\n; two\r\n");
	for (const char *p = strchr(base, '\n') + 1; *p; p++) {
		if (*p == '\n') {
			while (q[-1] == ' ')
				q--;
			*q++ = '\r';
		}
		*q++ = *p;
	}
	*q = '\0';
	assert_true(strlen(t) < len);
	got = first_view(t, strlen(t));
	assert_string_equal(got, want);
	free(got);
	got = first_view(base, len - 1);	/* no final newline */
	assert_string_equal(got, want);
	free(got);
	free(want);
	free(t);
	free(base);
}

/* Random bytes and shuffled pieces of a field: never a crash. */
static void
test_garbage(void **state)
{
	char buf[2200], err[256];
	uint32_t x = 12345;

	(void)state;
	for (int round = 0; round < 300; round++) {
		size_t len = (size_t)(round * 7) % sizeof buf;

		memcpy(buf, "spacewars-field 1\n", 18);
		for (size_t i = 18; i < len; i++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			buf[i] = round % 2 ? (char)x : " #\n12du\r;"[x % 9];
		}
		sw()->dataset_free(sw()->dataset_parse("r", buf,
		    len < 18 ? 18 : len, err, sizeof err));
	}
}

/* The same answers on the same field give the same game. */
static void
test_replay(void **state)
{
	static const char *const answers[] = { "L", "R", "E", "S", "N", "",
	    "E", "S", "?" };
	struct game_dataset *ds = gen_field("3", "120");
	struct game_state *s = sw()->start(ds, 2, 1), *r;
	int *seats = malloc(4000 * sizeof *seats), n = 0, seat;
	const char **said = malloc(4000 * sizeof *said);
	uint32_t x = 99;
	int64_t sc1[2], sc2[2];
	char *v1, *v2;

	(void)state;
	while ((seat = sw()->next_seat(s)) >= 0) {
		x = x * 1103515245 + 12345;
		seats[n] = seat;
		said[n] = answers[(x >> 16) % 9];
		sw()->apply(s, seat, said[n++]);
	}
	r = sw()->start(ds, 2, 7);
	for (int i = 0; i < n; i++)
		sw()->apply(r, seats[i], said[i]);
	assert_true(n > 20);
	assert_int_equal(sw()->next_seat(r), -1);
	assert_string_equal(sw()->end_reason(r), sw()->end_reason(s));
	v1 = sw()->view(s, 0, 0);
	v2 = sw()->view(r, 0, 0);
	assert_string_equal(v1, v2);
	sw()->scores(s, sc1);
	sw()->scores(r, sc2);
	assert_memory_equal(sc1, sc2, sizeof sc1);
	free(v1);
	free(v2);
	free(seats);
	free(said);
	sw()->free_state(s);
	sw()->free_state(r);
	sw()->dataset_free(ds);
}

/* The house bots, run as the worker runs them: a new process per call in
 * the bot's own folder, input.txt written before, output.txt read after. */
struct runner {
	char *prog;		/* absolute path */
	char *script;		/* its argument, or NULL */
	char dir[64];		/* the bot's folder */
};

/* name: a program built in games/spacewars/bots, or "python" for the
 * Python starter kit. */
static void
runner_init(struct runner *b, const char *name)
{
	const char *bin = getenv("ARENA_BINARY_DIR");
	const char *src = getenv("ARENA_SOURCE_DIR");

	if (bin == NULL || src == NULL)
		fail_msg("ARENA_BINARY_DIR and ARENA_SOURCE_DIR must be set");
	b->script = NULL;
	if (strcmp(name, "python") == 0) {
		b->prog = strdup("/usr/bin/python3");
		assert_true(asprintf(&b->script, "%s/games/spacewars/kits/"
		    "python/bot.py", src) > 0);
	} else {
		assert_true(asprintf(&b->prog, "%s/games/spacewars/bots/%s",
		    bin, name) > 0);
	}
	if (access(b->prog, X_OK) != 0)
		fail_msg("no program '%s' (build every target first)",
		    b->prog);
	strcpy(b->dir, "/tmp/test_spacewars.XXXXXX");
	assert_non_null(mkdtemp(b->dir));
}

static void
runner_release(struct runner *b)
{
	char *cmd;

	assert_true(asprintf(&cmd, "rm -rf '%s'", b->dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(b->prog);
	free(b->script);
}

/* Writes the view, runs the bot, returns output.txt's first line. */
static void
runner_call(struct runner *b, const char *view, char *line, size_t len)
{
	char path[128];
	FILE *f;
	pid_t pid;
	int status;

	snprintf(path, sizeof path, "%s/input.txt", b->dir);
	assert_non_null(f = fopen(path, "w"));
	fputs(view, f);
	fclose(f);
	snprintf(path, sizeof path, "%s/output.txt", b->dir);
	unlink(path);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (chdir(b->dir) == 0)
			execl(b->prog, b->prog, b->script, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	line[0] = '\0';
	if ((f = fopen(path, "r")) != NULL) {
		if (fgets(line, (int)len, f) == NULL)
			line[0] = '\0';
		fclose(f);
	}
	line[strcspn(line, "\r\n")] = '\0';
}

/* Plays a whole game; returns the scores. */
static void
bot_game(const struct game_dataset *ds, const char *p1, const char *p2,
    int64_t *sc)
{
	struct game_state *s = sw()->start(ds, 2, 1);
	struct runner b[2];
	char line[64];
	int seat;

	runner_init(&b[0], p1);
	runner_init(&b[1], p2);
	while ((seat = sw()->next_seat(s)) >= 0) {
		char *v = sw()->view(s, seat, 100);

		runner_call(&b[seat], v, line, sizeof line);
		free(v);
		if (strlen(line) != 1 || strchr("LRESN", line[0]) == NULL)
			fail_msg("%s answered '%s'", seat ? p2 : p1, line);
		assert_int_not_equal(sw()->apply(s, seat, line),
		    GAME_MOVE_ILLEGAL);
	}
	sw()->scores(s, sc);
	runner_release(&b[0]);
	runner_release(&b[1]);
	sw()->free_state(s);
}

/* Every program answers one of L R E S N on a few inputs, from both
 * sides, and N on an input it cannot read. */
static void
test_programs_answer(void **state)
{
	static const char *const progs[] = { "drifter", "hunter", "kit_c_bot",
	    "python" };
	struct game_dataset *ds = gen_field("21", "200");
	char line[64];

	(void)state;
	for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
		struct game_state *s = sw()->start(ds, 2, 1);
		struct runner b;

		runner_init(&b, progs[i]);
		for (int t = 0; t < 6; t++) {
			for (int seat = 0; seat < 2; seat++) {
				char *v = sw()->view(s, seat, 100);

				runner_call(&b, v, line, sizeof line);
				free(v);
				if (strlen(line) != 1 ||
				    strchr("LRESN", line[0]) == NULL)
					fail_msg("%s answered '%s'", progs[i],
					    line);
				assert_int_not_equal(sw()->apply(s, seat,
				    t < 3 ? "E" : line), GAME_MOVE_ILLEGAL);
			}
		}
		runner_call(&b, "1\n7 7\n1\nnot a field\n", line,
		    sizeof line);
		assert_string_equal(line, "N");
		runner_release(&b);
		sw()->free_state(s);
	}
	sw()->dataset_free(ds);
}

/* Hunter wins every game against drifter, from both sides. */
static void
test_bots(void **state)
{
	static const char *const seeds[] = { "11", "12" };
	int64_t sc[2];

	(void)state;
	for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
		struct game_dataset *ds = gen_field(seeds[i], "100");

		bot_game(ds, "hunter", "drifter", sc);
		if (sc[0] <= sc[1])
			fail_msg("field %s: hunter %lld, drifter %lld",
			    seeds[i], (long long)sc[0], (long long)sc[1]);
		bot_game(ds, "drifter", "hunter", sc);
		if (sc[1] <= sc[0])
			fail_msg("field %s: drifter %lld, hunter %lld",
			    seeds[i], (long long)sc[0], (long long)sc[1]);
		sw()->dataset_free(ds);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rocket_hits_battleship),
		cmocka_unit_test(test_rocket_hits_cargo),
		cmocka_unit_test(test_point_blank),
		cmocka_unit_test(test_ramming),
		cmocka_unit_test(test_swaps),
		cmocka_unit_test(test_rockets_pass),
		cmocka_unit_test(test_three_way),
		cmocka_unit_test(test_leaving_field),
		cmocka_unit_test(test_motion),
		cmocka_unit_test(test_fleet_destroyed),
		cmocka_unit_test(test_turn_limit),
		cmocka_unit_test(test_fault),
		cmocka_unit_test(test_view),
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_generator),
		cmocka_unit_test(test_parser_errors),
		cmocka_unit_test(test_parser_tolerance),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_programs_answer),
		cmocka_unit_test(test_bots),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
