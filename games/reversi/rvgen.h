/*
 * rvgen: `arena gen reversi --seed N [--plies K]`, a Reversi start
 * position reached by K random legal plies from the standard start.
 */
#ifndef ARENA_RVGEN_H
#define ARENA_RVGEN_H

#include <stdio.h>

/* The game table's generate(): 0, or -1 after a usage error. */
int rvgen_generate(int argc, char **argv, FILE *out);

#endif
