/*
 * vtbot: reads the Volt protocol's requests for the house bots and works
 * out when voltage reaches each cell.
 */
#include "vtbot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int vb_dr[4] = { -1, 0, 1, 0 };
const int vb_dc[4] = { 0, 1, 0, -1 };
const char *const vb_dir[4] = { "up", "right", "down", "left" };

static int
read_obj(struct vb_obj *o)
{
	char kind[16], line[128];

	memset(o, 0, sizeof *o);
	if (fgets(line, sizeof line, stdin) == NULL ||
	    sscanf(line, "%15s %d %d %d", kind, &o->id, &o->r, &o->c) != 4)
		return -1;
	if (strcmp(kind, "player") == 0) {
		o->kind = VB_PLAYER;
		return sscanf(line, "%*s %*d %*d %*d %d %d %d %15s", &o->team,
		    &o->alive, &o->bombs, o->ability) == 4 ? 0 : -1;
	}
	if (strcmp(kind, "bomb") == 0) {
		o->kind = VB_BOMB;
		return sscanf(line, "%*s %*d %*d %*d %d %d %d %d", &o->team,
		    &o->timer, &o->range, &o->owner) == 4 ? 0 : -1;
	}
	if (strcmp(kind, "flag") == 0) {
		o->kind = VB_FLAG;
		return sscanf(line, "%*s %*d %*d %*d %d", &o->team) == 1 ?
		    0 : -1;
	}
	o->kind = VB_GATE;
	return sscanf(line, "%*s %*d %*d %*d %15s", o->ability) == 1 ? 0 : -1;
}

bool
vb_open(const struct vb_view *v, int r, int c)
{
	if (r < 0 || r >= v->rows || c < 0 || c >= v->cols ||
	    v->grid[r][c] == 'W' || v->grid[r][c] == 'B')
		return false;
	for (int i = 0; i < v->nobj; i++)
		if (v->obj[i].kind == VB_BOMB && v->obj[i].r == r &&
		    v->obj[i].c == c)
			return false;
	return true;
}

/* Marks the cells bomb b reaches at step t; true if it brought another
 * bomb's explosion forward. */
static bool
reach(struct vb_view *v, const struct vb_obj *b, int t)
{
	bool changed = false;

	if (v->blast[b->r][b->c] > t)
		v->blast[b->r][b->c] = t;
	for (int d = 0; d < 4; d++)
		for (int k = 1; k <= b->range; k++) {
			int r = b->r + k * vb_dr[d], c = b->c + k * vb_dc[d];

			if (r < 0 || r >= v->rows || c < 0 || c >= v->cols ||
			    v->grid[r][c] == 'W' || v->grid[r][c] == 'B')
				break;
			if (v->blast[r][c] > t)
				v->blast[r][c] = t;
			for (int i = 0; i < v->nobj; i++) {
				struct vb_obj *o = &v->obj[i];

				if (o->kind == VB_BOMB && o->r == r &&
				    o->c == c && o->timer > t) {
					o->timer = t;
					changed = true;
				}
			}
		}
	return changed;
}

/* Chains first: a bomb's effective timer is the earliest of its own and
 * those of the bombs that reach it. */
static void
blast_map(struct vb_view *v)
{
	bool changed = true;

	for (int r = 0; r < VB_MAX; r++)
		for (int c = 0; c < VB_MAX; c++)
			v->blast[r][c] = VB_SAFE;
	while (changed) {
		changed = false;
		for (int i = 0; i < v->nobj; i++)
			if (v->obj[i].kind == VB_BOMB)
				changed |= reach(v, &v->obj[i],
				    v->obj[i].timer);
	}
}

int
vb_read(struct vb_view *v)
{
	char line[256];

	if (fgets(line, sizeof line, stdin) == NULL)
		return -1;
	if (strncmp(line, "volt ", 5) == 0) {
		if (sscanf(line, "volt %d %d %d %d %llu", &v->team, &v->rows,
		    &v->cols, &v->steps, (unsigned long long *)&v->seed) != 5)
			return -1;
		if (fgets(line, sizeof line, stdin) == NULL)
			return -1;
	}
	if (sscanf(line, "step %d %lld %lld %lld", &v->step, &v->points[0],
	    &v->points[1], &v->time_ms) != 4)
		return -1;
	for (int r = 0; r < v->rows; r++) {
		if (fgets(line, sizeof line, stdin) == NULL)
			return -1;
		memcpy(v->grid[r], line, (size_t)v->cols);
	}
	if (fgets(line, sizeof line, stdin) == NULL ||
	    sscanf(line, "objects %d", &v->nobj) != 1 || v->nobj < 0 ||
	    v->nobj > VB_OBJECTS)
		return -1;
	for (int i = 0; i < v->nobj; i++)
		if (read_obj(&v->obj[i]) == -1)
			return -1;
	blast_map(v);
	return 0;
}

void
vb_mine(const struct vb_view *v, const struct vb_obj *me[2])
{
	int n = 0;

	for (int i = 0; i < v->nobj && n < 2; i++)
		if (v->obj[i].kind == VB_PLAYER && v->obj[i].team == v->team)
			me[n++] = &v->obj[i];
}
