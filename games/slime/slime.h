/*
 * slime: the referee of Slime: The Territory War (a four-player King of the
 * Hill area game). Rules and every interpretation: docs/games/slime.md; bot
 * protocol: docs/protocols/slime.md.
 */
#ifndef ARENA_SLIME_H
#define ARENA_SLIME_H

#include "games/game.h"

/* Seat k plays digit k + 1; seats are called 0, 1, ..., 0, 1, ... */
extern const struct game game_slime;

#endif
