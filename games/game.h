/*
 * game: the referee interface. A game is one table row (games.c) of pure
 * functions over an opaque state: no I/O, no clocks, no processes. The
 * worker's loop (worker/game_run.c) is the same for every game:
 *
 *	s = g->start(dataset, nseats, seed);
 *	while ((seat = g->next_seat(s)) >= 0) {
 *		text = g->view(s, seat, remaining_ms);     sent to the bot
 *		answer = one line read back from the bot;
 *		if the bot broke a limit or crashed: g->fault(s, seat); break
 *		g->apply(s, seat, answer);
 *	}
 *	g->scores(s, scores);
 *
 * The replay of a game is the list of (seat, answer) pairs plus the fault,
 * if any: applying them to a fresh start() with the same dataset and seed
 * reproduces the result without the bots.
 *
 * How a bot is run is the game's choice (enum game_bots). With per-turn
 * bots a failed call (late, crashed, silent, a sandbox rule broken) does
 * not end the game: the seat's verdict records it and apply() gets the
 * empty answer "", which the game must treat as its "no answer" (Slime's
 * pass, Space Wars' N).
 */
#ifndef ARENA_GAME_H
#define ARENA_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct game_dataset;	/* a parsed dataset (map, pieces, ...); opaque */
struct game_state;	/* one game in progress; opaque */

enum game_move {
	GAME_MOVE_OK,		/* a legal move that changed the state */
	GAME_MOVE_PASS,		/* a legal "do nothing" */
	GAME_MOVE_ILLEGAL,	/* illegal or malformed: the game's penalty applied */
};

enum game_bots {
	/* One process per game, frozen between its calls: each call writes
	 * view() to its stdin and reads one line back (Dream City, Reversi). */
	GAME_BOTS_PERSISTENT,
	/* A new process per call, started in the bot's folder (kept between
	 * the calls of one game, wiped after it) with view() as one more
	 * command-line argument (one line, no newline); the answer is the
	 * first line it prints (Slime). */
	GAME_BOTS_PER_TURN_ARG,
	/* A new process per call in the bot's folder: view() is written to
	 * input.txt before it starts, the answer is the first line of
	 * output.txt once it exits or is killed at the call limit
	 * (Space Wars). */
	GAME_BOTS_PER_TURN_FILES,
};

struct game {
	const char *name;	/* spec's "game:" value, e.g. "dreamcity" */
	const char *version;	/* referee version, stored with each result */
	int min_seats;		/* players per game */
	int max_seats;
	/* A bot may keep no thread or process running after a call beyond
	 * those it had after its first (Dream City): more is SV. */
	bool no_tasks_after_call;
	enum game_bots bots;	/* zero value: persistent */

	/* Parses the text of a dataset file. On failure returns NULL and
	 * writes "name:line:col: message" into err. Caller owns the result;
	 * free with dataset_free(). */
	struct game_dataset *(*dataset_parse)(const char *name,
	    const char *text, size_t len, char *err, size_t errlen);
	void (*dataset_free)(struct game_dataset *ds);

	/* A new game on ds (borrowed: it must outlive the state). Caller
	 * owns the result; free with free_state(). */
	struct game_state *(*start)(const struct game_dataset *ds, int seats,
	    uint64_t seed);
	void (*free_state)(struct game_state *s);

	/* The seat to call next, or -1 once the game is over. */
	int (*next_seat)(const struct game_state *s);
	/* The text shown to seat before its call (the bot protocol's
	 * request, ending in a newline). Caller owns the result; free(). */
	char *(*view)(const struct game_state *s, int seat,
	    int64_t remaining_ms);
	/* Applies seat's answer: one line, without its newline. */
	enum game_move (*apply)(struct game_state *s, int seat,
	    const char *answer);
	/* Ends the game abnormally: seat timed out, crashed, broke a memory
	 * or sandbox rule. The game's rules score it. */
	void (*fault)(struct game_state *s, int seat);
	/* One score per seat, once next_seat() returned -1. */
	void (*scores)(const struct game_state *s, int64_t *scores);
	/* Why the game ended, a short stable word ("all_placed", "passes",
	 * "fault"); NULL while it is running. */
	const char *(*end_reason)(const struct game_state *s);

	/* A picture of the state for viewers (`arena replay`): a first line
	 * for people (turn, "scores N N ..." so far, who is to move or, once
	 * over, why it ended; the scores are scores()'s when the game is
	 * over, since viewers show them as the result), then the board, one
	 * line per row, one character per cell (docs/viewer.md gives each
	 * game's legend). Called after start() and after every answer or
	 * fault. NULL: the viewer shows the moves instead. Caller owns the
	 * result; free(). */
	char *(*frame)(const struct game_state *s);
	/* Colours of the viewers (the page and the terminal): "C:#rrggbb"
	 * pairs separated by spaces, one per cell character, e.g.
	 * "#:#555555 1:#dd3333"; others get the viewer's defaults. NULL:
	 * defaults only. */
	const char *palette;

	/* `arena gen <game> ARGS`: writes a new dataset to out. Returns 0, or
	 * -1 after printing a usage error. NULL when the game has none. */
	int (*generate)(int argc, char **argv, FILE *out);
};

/* The game called name, or NULL. */
const struct game *games_find(const char *name);
/* Comma-separated names of every game, for error messages. */
const char *games_list(void);

#endif
