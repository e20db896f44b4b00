/*
 * vtmap: Volt maps in the original format (docs/games/volt.md): the
 * number of steps, the rows, the columns, then the grid.
 */
#ifndef ARENA_VTMAP_H
#define ARENA_VTMAP_H

#include <stddef.h>

#include "games/game.h"

#define VT_MAX		50	/* rows and columns, at most */
#define VT_MIN_STEPS	200
#define VT_MAX_STEPS	1000
#define VT_PLAYERS	4	/* two teams of two */

enum vt_cell {
	VT_EMPTY,
	VT_WALL,
	VT_BOX,
	VT_FLAG,
	VT_GATE,
	VT_TEAM1,		/* a player of team 1 on an empty cell */
	VT_TEAM2,
};

struct game_dataset {
	int steps, rows, cols;
	unsigned char cell[VT_MAX][VT_MAX];	/* enum vt_cell */
	unsigned char digit[VT_MAX][VT_MAX];	/* a gate's first phase */
};

/* On failure NULL, and "name:line:col: message" in err. */
struct game_dataset *vtmap_parse(const char *name, const char *text,
    size_t len, char *err, size_t errlen);
void vtmap_free(struct game_dataset *ds);

#endif
