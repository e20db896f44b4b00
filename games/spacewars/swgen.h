/*
 * swgen: `arena gen spacewars`, a deterministic random field generator.
 */
#ifndef ARENA_SWGEN_H
#define ARENA_SWGEN_H

#include <stdio.h>

/* Parses "spacewars --seed N [--asteroids K]" (argv[0] is the game name)
 * and writes a field file to out; the same arguments always write the same
 * text. Returns 0, or -1 after printing a usage error. */
int swgen_generate(int argc, char **argv, FILE *out);

#endif
