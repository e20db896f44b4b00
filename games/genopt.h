/*
 * genopt: what the games' dataset generators (`arena gen GAME ARGS`)
 * share: reading "--name VALUE" pairs, the --seed value, and the
 * splitmix64 stream a seed drives, so that a seed always gives the same
 * file in every game.
 */
#ifndef ARENA_GENOPT_H
#define ARENA_GENOPT_H

#include <stdint.h>

/* The next "--name VALUE" pair from argv[*i] on (start with *i = 1):
 * 1 with *opt and *val set and *i moved past them, 0 once argv is done,
 * -1 after logging "option '--name' needs a value". */
int genopt_pair(int argc, char **argv, int *i, const char **opt,
    const char **val);
/* A number such as a seed: decimal digits only, within 64 bits. 0, or
 * -1 (not logged). */
int genopt_number(const char *val, uint64_t *seed);
/* The next number of the splitmix64 stream whose state is *state. */
uint64_t genopt_random(uint64_t *state);

#endif
