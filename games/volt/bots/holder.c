/*
 * holder: the Volt house bot that holds flags and avoids blasts. Each
 * living player, the lower id first:
 *
 *	1. if voltage reaches its cell within two steps, it runs to the
 *	   nearest cell no bomb reaches, never standing where voltage
 *	   arrives in the step it gets there;
 *	2. else, if an enemy stands in the cross its own bomb would cover
 *	   (teammate outside it) and two moves lead out of the cross, it
 *	   plants a bomb;
 *	3. else it walks to the nearest flag that is not its team's and
 *	   that the teammate does not go for (or, with none, to the nearest
 *	   flag) and stands on it.
 *
 * Deterministic: the same requests give the same answers.
 */
#include <stdio.h>
#include <string.h>

#include "vtbot.h"

#define FAR	(1 << 20)

struct walk {
	int dist[VB_MAX][VB_MAX];
	int first[VB_MAX][VB_MAX];	/* first move on the way, -1 stay */
};

/* Breadth-first over open cells from the player, skipping cells where
 * voltage arrives in the step the walk would reach them. */
static void
walk(const struct vb_view *v, const struct vb_obj *p, struct walk *w)
{
	static int qr[VB_MAX * VB_MAX], qc[VB_MAX * VB_MAX];
	int head = 0, tail = 0;

	for (int r = 0; r < VB_MAX; r++)
		for (int c = 0; c < VB_MAX; c++)
			w->dist[r][c] = FAR;
	w->dist[p->r][p->c] = 0;
	w->first[p->r][p->c] = -1;
	qr[tail] = p->r;
	qc[tail++] = p->c;
	while (head < tail) {
		int r = qr[head], c = qc[head++];

		for (int d = 0; d < 4; d++) {
			int nr = r + vb_dr[d], nc = c + vb_dc[d];
			int t = w->dist[r][c] + 1;

			if (!vb_open(v, nr, nc) || w->dist[nr][nc] != FAR ||
			    v->blast[nr][nc] == t)
				continue;
			w->dist[nr][nc] = t;
			w->first[nr][nc] = w->dist[r][c] == 0 ? d :
			    w->first[r][c];
			qr[tail] = nr;
			qc[tail++] = nc;
		}
	}
}

static const char *
step_to(const struct walk *w, int r, int c)
{
	return w->first[r][c] < 0 ? "stay" : vb_dir[w->first[r][c]];
}

/* Rule 1: the nearest safe cell, or any move out of this step's
 * voltage. */
static const char *
flee(const struct vb_view *v, const struct vb_obj *p, const struct walk *w)
{
	int best = FAR, br = -1, bc = -1;

	for (int r = 0; r < v->rows; r++)
		for (int c = 0; c < v->cols; c++)
			if (v->blast[r][c] == VB_SAFE && w->dist[r][c] < best) {
				best = w->dist[r][c];
				br = r, bc = c;
			}
	if (br >= 0)
		return step_to(w, br, bc);
	for (int d = 0; d < 4; d++) {
		int r = p->r + vb_dr[d], c = p->c + vb_dc[d];

		if (vb_open(v, r, c) && v->blast[r][c] != 1)
			return vb_dir[d];
	}
	return "stay";
}

/* Whether a range-2 bomb on p's cell would reach (r, c). */
static bool
in_cross(const struct vb_view *v, const struct vb_obj *p, int r, int c)
{
	if (r == p->r && c == p->c)
		return true;
	for (int d = 0; d < 4; d++)
		for (int k = 1; k <= 2; k++) {
			int rr = p->r + k * vb_dr[d], cc = p->c + k * vb_dc[d];

			if (rr < 0 || rr >= v->rows || cc < 0 || cc >= v->cols ||
			    v->grid[rr][cc] == 'W' || v->grid[rr][cc] == 'B')
				break;
			if (rr == r && cc == c)
				return true;
		}
	return false;
}

/* Rule 2. The bomb explodes in the third step from now: the two moves
 * after planting must reach a cell outside its cross that no other bomb
 * reaches by then. */
static bool
should_plant(const struct vb_view *v, const struct vb_obj *p,
    const struct vb_obj *mate, const struct walk *w)
{
	bool enemy = false;

	if (p->bombs == 0 || !vb_open(v, p->r, p->c))
		return false;
	if (mate != NULL && mate->alive && in_cross(v, p, mate->r, mate->c))
		return false;
	for (int i = 0; i < v->nobj; i++) {
		const struct vb_obj *o = &v->obj[i];

		if (o->kind == VB_PLAYER && o->alive && o->team != v->team &&
		    in_cross(v, p, o->r, o->c))
			enemy = true;
	}
	if (!enemy)
		return false;
	for (int r = 0; r < v->rows; r++)
		for (int c = 0; c < v->cols; c++)
			if (w->dist[r][c] >= 1 && w->dist[r][c] <= 2 &&
			    !in_cross(v, p, r, c) && v->blast[r][c] > 3)
				return true;
	return false;
}

/* Rule 3; *goal gets the flag's object index. */
static const char *
hold(const struct vb_view *v, const struct walk *w, int avoid, int *goal)
{
	int best = FAR, pass;

	*goal = -1;
	for (pass = 0; pass < 2 && *goal < 0; pass++)
		for (int i = 0; i < v->nobj; i++) {
			const struct vb_obj *o = &v->obj[i];

			if (o->kind != VB_FLAG || i == avoid ||
			    (pass == 0 && o->team == v->team) ||
			    w->dist[o->r][o->c] >= best)
				continue;
			best = w->dist[o->r][o->c];
			*goal = i;
		}
	if (*goal < 0)
		return "stay";
	return step_to(w, v->obj[*goal].r, v->obj[*goal].c);
}

static const char *
decide(const struct vb_view *v, const struct vb_obj *p,
    const struct vb_obj *mate, int avoid, int *goal)
{
	static struct walk w;

	*goal = -1;
	if (!p->alive)
		return "stay";
	walk(v, p, &w);
	if (v->blast[p->r][p->c] <= 2)
		return flee(v, p, &w);
	if (should_plant(v, p, mate, &w))
		return "bomb";
	return hold(v, &w, avoid, goal);
}

int
main(void)
{
	static struct vb_view v;
	const struct vb_obj *me[2];

	while (vb_read(&v) == 0) {
		const char *a, *b;
		int goal, other;

		vb_mine(&v, me);
		a = decide(&v, me[0], me[1], -1, &goal);
		b = decide(&v, me[1], me[0], goal, &other);
		printf("%s, %s\n", a, b);
		fflush(stdout);
	}
	return 0;
}
