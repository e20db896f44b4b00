/*
 * Unit tests for games/volt on hand-drawn maps: each phase of the step
 * order, the bomb timer, rays against walls and boxes, chains, flags and
 * points, each gate ability and the gate cycle, the refill, every end and
 * winner rule, malformed answers, the view and frame formats, map errors
 * with their positions, the shipped maps and replay determinism.
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

struct play {
	const struct game *g;
	struct game_dataset *ds;
	struct game_state *s;
};

static const struct game *
vt(void)
{
	const struct game *g = games_find("volt");

	assert_non_null(g);
	return g;
}

static struct game_dataset *
load(const char *text)
{
	char err[256];
	struct game_dataset *ds;

	ds = vt()->dataset_parse("m", text, strlen(text), err, sizeof err);
	if (ds == NULL)
		fail_msg("%s", err);
	return ds;
}

static void
open_map(struct play *p, const char *text)
{
	p->g = vt();
	p->ds = load(text);
	p->s = p->g->start(p->ds, 2, 77);
}

static void
close_play(struct play *p)
{
	p->g->free_state(p->s);
	p->g->dataset_free(p->ds);
}

/* One step: seat 0's answer then seat 1's; returns seat 1's result. */
static enum game_move
step(struct play *p, const char *a, const char *b)
{
	assert_int_equal(p->g->next_seat(p->s), 0);
	p->g->apply(p->s, 0, a);
	assert_int_equal(p->g->next_seat(p->s), 1);
	return p->g->apply(p->s, 1, b);
}

static void
idle(struct play *p, int steps)
{
	for (int i = 0; i < steps; i++)
		step(p, "stay, stay", "stay, stay");
}

/* The next view of seat 0 has this whole line. */
static void
expect_view(struct play *p, const char *line)
{
	char *v = p->g->view(p->s, 0, 0), *want, *all;

	want = malloc(strlen(line) + 3);
	sprintf(want, "\n%s\n", line);
	all = malloc(strlen(v) + 2);
	sprintf(all, "\n%s", v);
	if (strstr(all, want) == NULL)
		fail_msg("no line '%s' in view:\n%s", line, v);
	free(all);
	free(want);
	free(v);
}

static void
expect_no_view(struct play *p, const char *prefix)
{
	char *v = p->g->view(p->s, 0, 0), *want;

	want = malloc(strlen(prefix) + 2);
	sprintf(want, "\n%s", prefix);
	if (strstr(v, want) != NULL)
		fail_msg("a line '%s' in view:\n%s", prefix, v);
	free(want);
	free(v);
}

/* Row r of the frame (its first line is the heading). */
static void
expect_row(struct play *p, int r, const char *row)
{
	char *f = p->g->frame(p->s), *l = f;

	for (int i = 0; i <= r; i++) {
		l = strchr(l, '\n');
		assert_non_null(l);
		l++;
	}
	if (strncmp(l, row, strlen(row)) != 0 || l[strlen(row)] != '\n')
		fail_msg("row %d is not '%s' in frame:\n%s", r, row, f);
	free(f);
}

static void
expect_scores(struct play *p, const char *reason, int64_t a, int64_t b)
{
	int64_t sc[2];

	assert_int_equal(p->g->next_seat(p->s), -1);
	assert_string_equal(p->g->end_reason(p->s), reason);
	p->g->scores(p->s, sc);
	assert_int_equal(sc[0], a);
	assert_int_equal(sc[1], b);
}

static void
test_view_format(void **state)
{
	struct play p;
	char *v;

	(void)state;
	open_map(&p, "200\n3\n3\n1F2\nP7WB\n1E2\n");
	v = p.g->view(p.s, 1, 1234);
	assert_string_equal(v,
	    "volt 2 3 3 200 77\n"
	    "step 1 0 0 1234\n"
	    "EFE\nPWB\nEEE\n"
	    "objects 6\n"
	    "player 1 0 0 1 1 3 none\n"
	    "player 3 0 2 2 1 3 none\n"
	    "player 5 2 0 1 1 3 none\n"
	    "player 6 2 2 2 1 3 none\n"
	    "flag 2 0 1 0\n"
	    "gate 4 1 0 swap\n");
	free(v);
	/* simultaneous: seat 1 does not see seat 0's pending move */
	assert_int_equal(p.g->apply(p.s, 0, "right, stay"), GAME_MOVE_OK);
	v = p.g->view(p.s, 1, 5);
	assert_non_null(strstr(v, "\nplayer 1 0 0 1 1 3 none\n"));
	free(v);
	assert_int_equal(p.g->apply(p.s, 1, "stay, stay"), GAME_MOVE_PASS);
	v = p.g->view(p.s, 1, 5);
	assert_true(strncmp(v, "step 2 0 0 5\n", 13) == 0);	/* no header */
	free(v);
	v = p.g->view(p.s, 0, 9);
	assert_true(strncmp(v, "step 2 0 0 9\n", 13) == 0);
	free(v);
	expect_view(&p, "player 1 0 1 1 1 3 none");
	expect_view(&p, "flag 2 0 1 1");
	close_play(&p);
}

static void
test_frame(void **state)
{
	struct play p;
	char *f;

	(void)state;
	open_map(&p, "200\n3\n3\n1F2\nP7WB\n1E2\n");
	f = p.g->frame(p.s);
	assert_string_equal(f, "step 1 of 200: points 0 0, players 2 2\n"
	    "1F2\nP#B\n1.2\n");
	free(f);
	step(&p, "bomb, stay", "stay, stay");	/* step 1: flag untouched */
	step(&p, "right, stay", "stay, stay");	/* step 2: team 1's flag */
	f = p.g->frame(p.s);
	assert_string_equal(f, "step 3 of 200: points 0 0, players 2 2\n"
	    "o12\nP#B\n1.2\n");
	free(f);
	step(&p, "stay, stay", "stay, stay");	/* step 3: the bomb goes */
	f = p.g->frame(p.s);
	assert_string_equal(f, "step 3 of 200: points 1 0, players 0 1,"
	    " over: team_dead\n***\n*#B\n*.2\n");
	free(f);
	close_play(&p);
	assert_non_null(vt()->palette);
	assert_non_null(strstr(vt()->palette, "1:#"));
}

/* Moves: walls, boxes and the map's edge block; players share cells; a
 * bomb planted in phase 2 blocks a move of phase 3; then the bomb kills
 * its own team, and the survivors win. */
static void
test_moves_and_own_bomb(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n3\n5\n1BEEE\nEWEEE\n1EE22\n");
	step(&p, "right, up", "up, right");
	expect_view(&p, "player 1 0 0 1 1 3 none");	/* box */
	expect_view(&p, "player 2 1 0 1 1 3 none");
	expect_view(&p, "player 3 1 3 2 1 3 none");
	expect_view(&p, "player 4 2 4 2 1 3 none");	/* edge */
	step(&p, "up, stay", "right, up");		/* edge; sharing */
	expect_view(&p, "player 1 0 0 1 1 3 none");
	expect_view(&p, "player 3 1 4 2 1 3 none");
	expect_view(&p, "player 4 1 4 2 1 3 none");
	step(&p, "bomb, up", "stay, stay");
	expect_view(&p, "player 1 0 0 1 1 2 none");
	expect_view(&p, "player 2 1 0 1 1 3 none");	/* the new bomb */
	expect_view(&p, "bomb 5 0 0 1 2 2 1");
	step(&p, "stay, up", "stay, stay");
	expect_view(&p, "player 2 1 0 1 1 3 none");
	step(&p, "stay, stay", "stay, stay");		/* it explodes */
	expect_row(&p, 0, "**...");			/* box gone */
	expect_row(&p, 1, "*#..2");
	expect_scores(&p, "team_dead", 0, 1);
	close_play(&p);
}

/* Planted with timer 3, shown 2 then 1, explodes in the third step. */
static void
test_bomb_timer(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n4\n7\n1EEEE2E\nEEEEEEE\nWWWWWWW\n1WEEEW2\n");
	step(&p, "bomb, stay", "stay, stay");
	expect_view(&p, "bomb 5 0 0 1 2 2 1");
	step(&p, "right, stay", "stay, stay");
	expect_view(&p, "bomb 5 0 0 1 1 2 1");
	expect_view(&p, "player 1 0 1 1 1 2 none");
	step(&p, "right, stay", "stay, stay");
	expect_view(&p, "player 1 0 2 1 0 2 none");	/* in range: dead */
	expect_view(&p, "player 2 0 5 2 1 3 none");	/* out of range */
	expect_no_view(&p, "bomb");
	expect_row(&p, 0, "***..2.");
	expect_row(&p, 1, "*......");
	close_play(&p);
}

/* Up: a box stops the ray and goes; left: a wall stops it and stays;
 * right: the ray passes a player and ends at range 2; down: open. */
static void
test_rays(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n5\n9\nEEEE2EEEE\nEEEEBEEEE\nEEEW1E21E\n"
	    "EEEEEEEEE\nEEEEEEEEE\n");
	step(&p, "bomb, stay", "stay, stay");
	idle(&p, 2);
	expect_row(&p, 0, "....2....");
	expect_row(&p, 1, "....*....");
	expect_row(&p, 2, "...#***1.");
	expect_row(&p, 3, "....*....");
	expect_row(&p, 4, "....*....");
	expect_view(&p, "player 2 2 4 1 0 2 none");	/* its own cell */
	expect_view(&p, "player 3 2 6 2 0 3 none");
	expect_view(&p, "player 1 0 4 2 1 3 none");	/* behind the box */
	expect_view(&p, "player 4 2 7 1 1 3 none");	/* 3 cells away */
	expect_view(&p, "EEEEEEEEE");			/* the box is gone */
	assert_int_equal(p.g->next_seat(p.s), 0);	/* both teams live */
	close_play(&p);
}

/* A bomb reached by another's voltage explodes in the same phase, and its
 * ray kills a player the first one could not reach. */
static void
test_chain(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n3\n7\n1E2E1EE\nWWWWWWW\nEE2EEEE\n");
	step(&p, "bomb, stay", "stay, stay");
	step(&p, "stay, stay", "bomb, stay");
	expect_view(&p, "bomb 5 0 0 1 1 2 1");
	expect_view(&p, "bomb 6 0 2 2 2 2 2");
	step(&p, "stay, stay", "stay, stay");
	expect_row(&p, 0, "*****..");
	expect_no_view(&p, "bomb");
	expect_scores(&p, "team_dead", 0, 1);
	close_play(&p);
}

/* Colours (one team, both teams, nobody) and points a step later. */
static void
test_flags(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n3\n7\n1F2EEFE\nWWWWWWW\n1EEEEE2\n");
	step(&p, "right, stay", "stay, stay");
	expect_view(&p, "flag 2 0 1 1");
	expect_view(&p, "step 2 0 0 0");	/* awarded in phase 1 */
	step(&p, "stay, stay", "stay, stay");
	expect_view(&p, "step 3 1 0 0");
	step(&p, "stay, stay", "left, stay");	/* both teams: white */
	expect_view(&p, "flag 2 0 1 0");
	expect_view(&p, "step 4 2 0 0");
	step(&p, "left, stay", "stay, stay");	/* team 2 alone */
	expect_view(&p, "flag 2 0 1 2");
	expect_view(&p, "step 5 2 0 0");
	step(&p, "stay, stay", "right, stay");	/* nobody: unchanged */
	expect_view(&p, "flag 2 0 1 2");
	expect_view(&p, "step 6 2 1 0");
	expect_view(&p, "flag 4 0 5 0");
	close_play(&p);
}

/* The digit is the gate's phase at step 1, advancing one a step, mod 10:
 * 0-5 blink, 6 bigbang, 7-9 swap. */
static void
test_gate_cycle(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n3\n6\n1P0P5P6P7P9\nWWWWWW\n12EE2E\n");
	expect_view(&p, "gate 2 0 1 blink");
	expect_view(&p, "gate 3 0 2 blink");
	expect_view(&p, "gate 4 0 3 bigbang");
	expect_view(&p, "gate 5 0 4 swap");
	expect_view(&p, "gate 6 0 5 swap");
	idle(&p, 1);
	expect_view(&p, "gate 3 0 2 bigbang");
	expect_view(&p, "gate 4 0 3 swap");
	expect_view(&p, "gate 6 0 5 blink");
	idle(&p, 5);				/* step 7 */
	expect_view(&p, "gate 2 0 1 bigbang");
	idle(&p, 1);
	expect_view(&p, "gate 2 0 1 swap");
	idle(&p, 3);				/* step 11 */
	expect_view(&p, "gate 2 0 1 blink");
	close_play(&p);
}

/* Blink: 3 cells, over a wall; off the map it fails and is kept. */
static void
test_blink(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n3\n7\n1P0WEEEE\nWWWWWWW\n1EEE2W2\n");
	step(&p, "right, stay", "stay, stay");
	expect_view(&p, "player 1 0 1 1 1 3 blink");
	step(&p, "blink up, stay", "stay, stay");
	expect_view(&p, "player 1 0 1 1 1 3 blink");
	step(&p, "blink right, stay", "stay, stay");
	expect_view(&p, "player 1 0 4 1 1 3 none");
	step(&p, "blink left, stay", "stay, stay");	/* none held */
	expect_view(&p, "player 1 0 4 1 1 3 none");
	close_play(&p);
}

/* Swap with a teammate's bomb: the player and the bomb change places,
 * and the bomb explodes where it went. An enemy bomb cannot be swapped. */
static void
test_swap(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n3\n9\n1P7EEEEEEE\nWWWWWWWWW\nEE1EEEW22\n");
	step(&p, "right, bomb", "stay, bomb");
	expect_view(&p, "player 1 0 1 1 1 3 swap");
	expect_view(&p, "bomb 6 2 2 1 2 2 3");
	expect_view(&p, "bomb 7 2 8 2 2 2 5");
	step(&p, "swap 7, left", "stay, stay");		/* not its team's */
	expect_view(&p, "player 1 0 1 1 1 3 swap");
	step(&p, "swap 6, stay", "stay, stay");
	expect_view(&p, "player 1 2 2 1 1 3 none");
	expect_row(&p, 0, "****.....");
	expect_row(&p, 2, ".11...#**");
	expect_scores(&p, "team_dead", 1, 0);
	close_play(&p);
}

/* Bigbang: the player's own bomb reaches 4 cells. */
static void
test_bigbang(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n3\n9\n1P5EE2EEEE\nWWWWWWWWW\n1EEEEWEE2\n");
	step(&p, "bomb, stay", "stay, stay");
	step(&p, "right, stay", "stay, stay");
	expect_view(&p, "player 1 0 1 1 1 2 bigbang");
	step(&p, "bigbang 6, stay", "stay, stay");
	expect_row(&p, 0, "*****....");
	expect_view(&p, "player 3 0 4 2 0 3 none");
	close_play(&p);
}

/* Bigbang on a teammate's bomb does nothing (the player standing on
 * the gate then picks up the gate's next ability, swap). */
static void
test_bigbang_own_only(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n3\n9\n1P6EEEEEE2\nWWWWWWWWW\nEE1EEWEE2\n");
	step(&p, "right, bomb", "stay, stay");
	expect_view(&p, "player 1 0 1 1 1 3 bigbang");
	step(&p, "bigbang 6, left", "stay, stay");
	expect_view(&p, "player 1 0 1 1 1 3 swap");
	expect_view(&p, "bomb 6 2 2 1 1 2 4");	/* range still 2 */
	close_play(&p);
}

/* One bomb back on every 6th step, never above 3. */
static void
test_refill(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n4\n7\n1EEEEEE\nEEEEEEE\nWWWWWWW\n1E2EEE2\n");
	step(&p, "bomb, stay", "stay, stay");
	step(&p, "right, stay", "stay, stay");
	step(&p, "down, stay", "stay, stay");
	step(&p, "bomb, stay", "stay, stay");
	step(&p, "right, stay", "stay, stay");
	expect_view(&p, "player 1 1 2 1 1 1 none");
	step(&p, "up, stay", "stay, stay");		/* step 6 */
	expect_view(&p, "step 7 0 0 0");
	expect_view(&p, "player 1 0 2 1 1 2 none");
	expect_view(&p, "player 2 3 0 1 1 3 none");
	idle(&p, 5);
	expect_view(&p, "player 1 0 2 1 1 2 none");	/* step 12 to come */
	idle(&p, 1);
	expect_view(&p, "player 1 0 2 1 1 3 none");
	idle(&p, 6);
	expect_view(&p, "player 1 0 2 1 1 3 none");
	close_play(&p);
}

/* A team with living players wins over one without, whatever the points:
 * its score is raised above the loser's. */
static void
test_survivor_beats_points(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n3\n7\nF1EEEE2\nEWWWWWW\nE1EEEE2\n");
	step(&p, "left, stay", "stay, stay");
	step(&p, "bomb, left", "stay, stay");
	step(&p, "stay, up", "stay, stay");
	step(&p, "stay, stay", "stay, stay");
	expect_scores(&p, "team_dead", 3, 4);
	close_play(&p);
}

static void
test_all_dead(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n3\n3\nF12\nEWE\nE12\n");
	step(&p, "left, stay", "stay, stay");
	step(&p, "bomb, bomb", "stay, stay");
	idle(&p, 2);
	expect_scores(&p, "all_dead", 3, 0);
	close_play(&p);
	/* no flag: equal points, the rules cannot decide */
	open_map(&p, "200\n3\n3\nE12\nEWE\nE12\n");
	step(&p, "left, stay", "stay, stay");
	step(&p, "bomb, bomb", "stay, stay");
	idle(&p, 2);
	expect_scores(&p, "undecided", 0, 0);
	close_play(&p);
}

static void
test_steps_run_out(void **state)
{
	struct play p;
	char *f;

	(void)state;
	open_map(&p, "200\n3\n3\nF12\nEWE\nE12\n");
	step(&p, "left, stay", "stay, stay");
	idle(&p, 198);
	assert_int_equal(p.g->next_seat(p.s), 0);
	idle(&p, 1);
	expect_scores(&p, "steps", 199, 0);
	f = p.g->frame(p.s);
	assert_true(strncmp(f, "step 200 of 200: points 199 0,", 30) == 0);
	free(f);
	close_play(&p);
	open_map(&p, "200\n3\n3\nE12\nEWE\nE12\n");
	idle(&p, 200);
	expect_scores(&p, "undecided", 0, 0);
	close_play(&p);
}

static void
test_fault(void **state)
{
	struct play p;

	(void)state;
	open_map(&p, "200\n3\n3\nF12\nEWE\nE12\n");
	step(&p, "left, stay", "stay, stay");
	idle(&p, 3);
	p.g->apply(p.s, 0, "stay, stay");
	p.g->fault(p.s, 1);
	expect_scores(&p, "fault", 3, 0);
	close_play(&p);
	open_map(&p, "200\n3\n3\nF12\nEWE\nE12\n");
	step(&p, "left, stay", "stay, stay");
	idle(&p, 3);
	p.g->fault(p.s, 0);
	expect_scores(&p, "fault", 0, 1);
	close_play(&p);
}

/* A malformed command is its player's stay and makes the answer illegal;
 * a wrong number of commands makes both stay. */
static void
test_malformed(void **state)
{
	struct play p;
	const struct game *g;

	(void)state;
	open_map(&p, "200\n3\n3\nE12\nEWE\nE12\n");
	g = p.g;
	assert_int_equal(g->apply(p.s, 1, "stay, stay"), GAME_MOVE_ILLEGAL);
	assert_int_equal(g->apply(p.s, 0, "left"), GAME_MOVE_ILLEGAL);
	assert_int_equal(g->apply(p.s, 1, "stay,stay"), GAME_MOVE_PASS);
	expect_view(&p, "player 1 0 1 1 1 3 none");
	assert_int_equal(g->apply(p.s, 0, "left, jump"), GAME_MOVE_ILLEGAL);
	assert_int_equal(g->apply(p.s, 1, " down ,\tstay \r"), GAME_MOVE_OK);
	expect_view(&p, "player 1 0 0 1 1 3 none");
	expect_view(&p, "player 2 1 2 2 1 3 none");
	assert_int_equal(g->apply(p.s, 0, "left, up, up"), GAME_MOVE_ILLEGAL);
	assert_int_equal(g->apply(p.s, 1, "blink sideways, stay"),
	    GAME_MOVE_ILLEGAL);
	assert_int_equal(g->apply(p.s, 0, "swap x, stay"), GAME_MOVE_ILLEGAL);
	assert_int_equal(g->apply(p.s, 1, "swap 12 3, stay"),
	    GAME_MOVE_ILLEGAL);
	assert_int_equal(g->apply(p.s, 0, "bigbang 9, upp"),
	    GAME_MOVE_ILLEGAL);
	assert_int_equal(g->apply(p.s, 1, "swap 4, blink left"),
	    GAME_MOVE_OK);		/* well formed, nothing to do */
	assert_int_equal(g->apply(p.s, 0, ""), GAME_MOVE_ILLEGAL);
	assert_int_equal(g->apply(p.s, 1, "bomb,stay"), GAME_MOVE_OK);
	expect_view(&p, "bomb 5 1 2 2 2 2 2");
	close_play(&p);
}

static void
expect_error(const char *text, const char *want)
{
	char err[256];
	struct game_dataset *ds;

	err[0] = '\0';
	ds = vt()->dataset_parse("m", text, strlen(text), err, sizeof err);
	if (ds != NULL)
		fail_msg("parsed, expected '%s'", want);
	assert_string_equal(err, want);
}

static void
test_map_errors(void **state)
{
	(void)state;
	expect_error("199\n3\n3\n", "m:1:1: the number of steps must be 200 "
	    "to 1000, not 199");
	expect_error("200\n3\nx\n", "m:3:1: expected the number of columns "
	    "(a number)");
	expect_error("200\n51\n3\n", "m:2:1: the number of rows must be 1 to "
	    "50, not 51");
	expect_error("200\n2\n3 4\n", "m:3:3: unexpected text after the "
	    "number of columns");
	expect_error("200\n2\n3\n1E2\n1X2\n", "m:5:2: expected one of W E B "
	    "F P1 1 2, not 'X'");
	expect_error("200\n2\n3\n1E2\n12\n", "m:5:3: row 2 has 2 cells, not "
	    "3");
	expect_error("200\n2\n3\n1E2\n12EE\n", "m:5:4: row 2 has more than "
	    "the 3 columns");
	expect_error("200\n3\n3\n1E2\n1E2\n", "m:6:1: the map ends after 2 "
	    "of its 3 rows");
	expect_error("200\n2\n3\n1E2\n1E2\nEEE\n", "m:6:1: more rows than "
	    "the 2 stated");
	expect_error("200\n2\n3\n1EP\n1E2\n", "m:4:4: a gate 'P' takes a "
	    "digit, its first ability");
	expect_error("200\n2\n3\n1E2\n1EE\n", "m:6:1: a map has 2 players of "
	    "each team ('1' and '2'), this one 2 and 1");
	expect_error("200\n", "m:2:1: the map ends before its three header "
	    "lines");
	vt()->dataset_free(load("# comment\n\n200\r\n2\n 3\n1 P5 2\n\n"
	    "1\tE 2\r\n"));
}

/* Every shipped map parses and is point-symmetric, team 1 facing 2. */
static void
test_shipped_maps(void **state)
{
	static const char *const maps[] = { "duel", "fortress", "plains",
	    "spare" };
	const char *dir = getenv("ARENA_SOURCE_DIR");

	(void)state;
	assert_non_null(dir);
	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
		char path[4096], text[1 << 14], *f, *row[51];
		struct play p;
		size_t len;
		int n = 0;
		FILE *in;

		snprintf(path, sizeof path, "%s/schedules/volt/%s.map", dir,
		    maps[i]);
		in = fopen(path, "r");
		assert_non_null(in);
		len = fread(text, 1, sizeof text - 1, in);
		text[len] = '\0';
		fclose(in);
		open_map(&p, text);
		f = p.g->frame(p.s);
		for (char *l = strchr(f, '\n'); l != NULL && l[1] != '\0';
		    l = strchr(l + 1, '\n'))
			row[n++] = l + 1;
		for (int r = 0; r < n; r++) {
			int cols = (int)(strchr(row[r], '\n') - row[r]);

			for (int c = 0; c < cols; c++) {
				char a = row[r][c];
				char b = row[n - 1 - r][cols - 1 - c];

				if (a == '1' || a == '2')
					a = (char)('1' + '2' - a);
				if (a != b)
					fail_msg("%s: (%d,%d) is not the mirror "
					    "of its opposite", maps[i], r, c);
			}
		}
		free(f);
		close_play(&p);
	}
}

/* Answers drawn from a fixed generator, played twice: the same frames. */
static void
test_replay(void **state)
{
	static const char *const word[] = { "stay", "up", "down", "left",
	    "right", "bomb", "blink up", "swap 30", "bigbang 31", "stay" };
	const char *dir = getenv("ARENA_SOURCE_DIR");
	char path[4096], text[1 << 14], *last[2] = { NULL, NULL };
	int64_t sc[2][2];
	FILE *in;
	size_t len;

	(void)state;
	assert_non_null(dir);
	snprintf(path, sizeof path, "%s/schedules/volt/fortress.map", dir);
	in = fopen(path, "r");
	assert_non_null(in);
	len = fread(text, 1, sizeof text - 1, in);
	text[len] = '\0';
	fclose(in);
	for (int run = 0; run < 2; run++) {
		uint64_t x = 12345;
		struct play p;
		int seat, calls = 0;

		open_map(&p, text);
		while ((seat = p.g->next_seat(p.s)) >= 0) {
			char answer[64];

			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			snprintf(answer, sizeof answer, "%s, %s",
			    word[x >> 60 & 7], word[(x >> 40) % 10]);
			p.g->apply(p.s, seat, answer);
			calls++;
		}
		assert_true(calls > 4);
		last[run] = p.g->frame(p.s);
		p.g->scores(p.s, sc[run]);
		close_play(&p);
	}
	assert_string_equal(last[0], last[1]);
	assert_int_equal(sc[0][0], sc[1][0]);
	assert_int_equal(sc[0][1], sc[1][1]);
	free(last[0]);
	free(last[1]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_format),
		cmocka_unit_test(test_frame),
		cmocka_unit_test(test_moves_and_own_bomb),
		cmocka_unit_test(test_bomb_timer),
		cmocka_unit_test(test_rays),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_gate_cycle),
		cmocka_unit_test(test_blink),
		cmocka_unit_test(test_swap),
		cmocka_unit_test(test_bigbang),
		cmocka_unit_test(test_bigbang_own_only),
		cmocka_unit_test(test_refill),
		cmocka_unit_test(test_survivor_beats_points),
		cmocka_unit_test(test_all_dead),
		cmocka_unit_test(test_steps_run_out),
		cmocka_unit_test(test_fault),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_map_errors),
		cmocka_unit_test(test_shipped_maps),
		cmocka_unit_test(test_replay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
