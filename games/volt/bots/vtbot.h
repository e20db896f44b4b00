/*
 * vtbot: what the Volt house bots share: reading one request of the
 * protocol (docs/protocols/volt.md) into a struct, and the blast map.
 */
#ifndef VTBOT_H
#define VTBOT_H

#include <stdbool.h>
#include <stdint.h>

#define VB_MAX		50
#define VB_OBJECTS	(VB_MAX * VB_MAX + 64)
#define VB_SAFE		99	/* blast[][]: no bomb reaches the cell */

enum vb_kind { VB_PLAYER, VB_BOMB, VB_FLAG, VB_GATE };

struct vb_obj {
	enum vb_kind kind;
	int id, r, c;
	int team;		/* player, bomb; flag: owner, 0 white */
	int alive, bombs;	/* player */
	int timer, range, owner;	/* bomb */
	char ability[16];	/* player, gate */
};

struct vb_view {
	int team, rows, cols, steps;	/* from the first request */
	uint64_t seed;
	int step;
	long long points[2], time_ms;
	char grid[VB_MAX][VB_MAX + 1];	/* W E B F P */
	struct vb_obj obj[VB_OBJECTS];
	int nobj;
	/* The step (1 = this one) at which voltage first reaches each cell,
	 * chains included, boxes taken as stopping every ray. */
	int blast[VB_MAX][VB_MAX];
};

/* Reads the next request from stdin; -1 at the end of the game. */
int vb_read(struct vb_view *v);
/* Whether a player may stand on (r, c): on the map, not a wall, box or
 * bomb. */
bool vb_open(const struct vb_view *v, int r, int c);
/* The team's players, lower id first (the order of the answer). */
void vb_mine(const struct vb_view *v, const struct vb_obj *me[2]);

extern const int vb_dr[4], vb_dc[4];
extern const char *const vb_dir[4];	/* up right down left */

#endif
