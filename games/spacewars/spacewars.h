/*
 * spacewars: the referee of Space Wars (the Telerik & PC Magazine Bulgaria
 * 2011/12 final), a two-player ship duel on a 40 x 50 field. Rules and
 * every interpretation: docs/games/spacewars.md; bot protocol:
 * docs/protocols/spacewars.md.
 */
#ifndef ARENA_SPACEWARS_H
#define ARENA_SPACEWARS_H

#include <stddef.h>

#include "games/game.h"

/* Seat 0 is player 1 (cargo '1', battleship starting at (7,7) facing
 * down), seat 1 is player 2 (the mirror image). */
extern const struct game game_spacewars;

/*
 * For tests and tools: replaces everything on the field of s, a game whose
 * current turn has no answer yet, with a drawn position. board is up to 40
 * lines of up to 50 characters drawn from the top-left corner; the rest is
 * empty. Symbols: ' ' empty, '#' asteroid, '1' '2' cargo ships, 'u' 'd'
 * 'l' 'r' player 1's battleship, 'U' 'D' 'L' 'R' player 2's (facing up,
 * down, left, right; a missing one is destroyed), '^' 'v' '<' '>' a
 * rocket of player 1 flying that way. Velocities start at 0, points and
 * the turn number are kept. Returns 0, or -1 with a message in err.
 */
int spacewars_position(struct game_state *s, const char *board, char *err,
    size_t errlen);
/* Sets the velocity (components -1..1) of seat's battleship. */
void spacewars_set_velocity(struct game_state *s, int seat, int vr, int vc);
/* Gives the rockets on cell (r, c) to seat. */
void spacewars_set_rocket_owner(struct game_state *s, int r, int c,
    int seat);

#endif
