/*
 * reversi: the referee of Reversi (Othello) against house AIs or other
 * entries. Rules and choices: docs/games/reversi.md; bot protocol:
 * docs/protocols/reversi.md.
 */
#ifndef ARENA_REVERSI_H
#define ARENA_REVERSI_H

#include "games/game.h"

/* Seat 0 is black (moves first from the standard start), seat 1 white. */
extern const struct game game_reversi;

#endif
