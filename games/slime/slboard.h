/*
 * slboard: a Slime board as a dataset (the initial board, one text row per
 * board row, '.' empty or a player digit 1..4) and `arena gen slime`, the
 * standard start for any size. Rules: docs/games/slime.md.
 */
#ifndef ARENA_SLBOARD_H
#define ARENA_SLBOARD_H

#include <stddef.h>
#include <stdio.h>

#define SL_MIN_SIDE	2
#define SL_MAX_SIDE	100	/* the view stays far below one argv string's limit */
#define SL_PLAYERS	4

struct game_dataset {
	int n;			/* the board is n x n */
	char *cell;		/* n * n cells, row-major: '.' or '1'..'4' */
};

/* Parses a board. On failure returns NULL and writes "name:line:col:
 * message" into err. Caller owns the result; free with slboard_free(). */
struct game_dataset *slboard_parse(const char *name, const char *text,
    size_t len, char *err, size_t errlen);
void slboard_free(struct game_dataset *ds);

/* Parses "slime [--size N] [--players K]" (argv[0] is the game name) and
 * writes the standard start board to out. Returns 0, or -1 after printing
 * a usage error. */
int slboard_generate(int argc, char **argv, FILE *out);

#endif
