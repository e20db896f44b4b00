/*
 * dreamcity: the referee of Dream City (the 2012 GrapeCity contest), a
 * two-player building-placement duel. Rules and every interpretation:
 * docs/games/dreamcity.md; bot protocol: docs/protocols/dreamcity.md.
 */
#ifndef ARENA_DREAMCITY_H
#define ARENA_DREAMCITY_H

#include "games/game.h"

/* Seat 0 is player A (called first), seat 1 is player B. */
extern const struct game game_dreamcity;

#endif
