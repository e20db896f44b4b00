/*
 * volt: the referee of Volt, two teams of two with bombs and flags. Rules
 * and choices: docs/games/volt.md; bot protocol: docs/protocols/volt.md.
 */
#ifndef ARENA_VOLT_H
#define ARENA_VOLT_H

#include "games/game.h"

/* Seat 0 is team 1, seat 1 team 2; one process per team. */
extern const struct game game_volt;

#endif
