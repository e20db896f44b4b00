/*
 * dcgen: `arena gen dreamcity`, a deterministic random dataset generator.
 */
#ifndef ARENA_DCGEN_H
#define ARENA_DCGEN_H

#include <stdio.h>

/* Parses "dreamcity --seed N [--size WxH] [--buildings K]" (argv[0] is the
 * game name) and writes a dataset to out; the same arguments always write
 * the same text. Returns 0, or -1 after printing a usage error. */
int dcgen_generate(int argc, char **argv, FILE *out);

#endif
