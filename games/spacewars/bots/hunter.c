/*
 * hunter: goes after the enemy's cargo ships. It picks the enemy cargo
 * ship it can line up with soonest (or the enemy battleship when no cargo
 * is left), travels along one axis to that ship's row or column at speed
 * 1, facing backwards so that a single E stops it, then turns and fires
 * until the line is clear, blasting asteroids out of its way. It never
 * picks a command that would run it into something next turn; when that
 * leaves it stuck for a while, it tries another target. Its velocity is
 * not in input.txt: it is the last turn's move, remembered (with the
 * target and the turns spent at rest) in hunter.state.
 */
#include <stdlib.h>

#include "swbot.h"

#define STATE	"hunter.state"

struct hunter {
	struct swb_view v;
	int vr, vc;		/* velocity, inferred */
	int tr, tc;		/* target; -1 if none */
	int idle;		/* turns in a row spent at rest */
	int kr, kc;		/* last turn's target; -1 if none */
};

static int
sign(int x)
{
	return (x > 0) - (x < 0);
}

static int
dir_of(int dr, int dc)
{
	return dr < 0 ? 0 : dc > 0 ? 1 : dr > 0 ? 2 : 3;
}

static void
load(struct hunter *h)
{
	int m[6];

	h->vr = h->vc = h->idle = 0;
	h->kr = h->kc = -1;
	if (swb_load(STATE, m, 6) == 6 && m[0] == h->v.turn - 1) {
		h->vr = sign(h->v.r - m[1]);
		h->vc = sign(h->v.c - m[2]);
		h->idle = h->vr == 0 && h->vc == 0 ? m[3] + 1 : 0;
		h->kr = m[4];
		h->kc = m[5];
	}
}

static void
save(const struct hunter *h)
{
	int m[6] = { h->v.turn, h->v.r, h->v.c, h->idle, h->tr, h->tc };

	swb_save(STATE, m, 6);
}

/* How far the ship is from lining up with (r, c), then from it. */
static int
cost(const struct hunter *h, int r, int c)
{
	int dr = abs(r - h->v.r), dc = abs(c - h->v.c);

	return 100 * (dr < dc ? dr : dc) + dr + dc;
}

/* Last turn's target while it lasts, unless the ship has been stuck at
 * rest for 4 turns; else the enemy cargo ship closest to a line-up (when
 * stuck, one it is not lined up with, so that it moves), or the enemy
 * battleship. */
static void
target(struct hunter *h)
{
	const struct swb_view *v = &h->v;
	bool stuck = h->idle >= 4;
	int best = 1 << 30;

	if (!stuck && swb_on_field(h->kr, h->kc) &&
	    v->f[h->kr][h->kc] == v->enemy) {
		h->tr = h->kr;
		h->tc = h->kc;
		return;
	}
	if (stuck)
		h->idle = 0;
	h->tr = v->er;
	h->tc = v->ec;
	for (int r = 0; r < SWB_ROWS; r++) {
		for (int c = 0; c < SWB_COLS; c++) {
			if (v->f[r][c] != v->enemy || cost(h, r, c) >= best ||
			    (stuck && (r == v->r || c == v->c)))
				continue;
			best = cost(h, r, c);
			h->tr = r;
			h->tc = c;
		}
	}
}

/* Turns toward dir, or 0 when already facing it. */
static char
turn_to(const struct hunter *h, int dir)
{
	int d = (dir - h->v.facing + 4) % 4;

	return d == 0 ? 0 : d == 3 ? 'L' : 'R';
}

/* A command that brings the velocity closer to (dvr, dvc), or 0: thrust
 * if facing a needed push, fire if facing away from one, else turn. */
static char
steer(const struct hunter *h, int dvr, int dvc)
{
	int vert = dvr == h->vr ? -1 : dvr > h->vr ? 2 : 0;
	int horiz = dvc == h->vc ? -1 : dvc > h->vc ? 1 : 3;
	int f = h->v.facing, back = (f + 2) % 4, dist;

	if (vert < 0 && horiz < 0)
		return 0;
	if (f == vert || f == horiz)
		return 'E';
	if ((back == vert || back == horiz) &&
	    swb_first(&h->v, h->v.r, h->v.c, f, &dist) != h->v.me)
		return 'S';
	return turn_to(h, vert >= 0 ? vert : horiz);
}

static bool
in_danger(const struct hunter *h)
{
	for (int k = 1; k <= 3 && (h->vr || h->vc); k++)
		if (swb_blocked(&h->v, h->v.r + k * h->vr, h->v.c + k * h->vc))
			return true;
	return false;
}

/* Lined up and still: face the target and fire. */
static char
fire(const struct hunter *h)
{
	const struct swb_view *v = &h->v;
	int dir = dir_of(h->tr - v->r, h->tc - v->c), dist;
	char first, turn = turn_to(h, dir);

	if (turn)
		return turn;
	first = swb_first(v, v->r, v->c, dir, &dist);
	if (first == v->me)
		return 'N';
	return 'S';	/* choose() overrides it if the recoil has no room */
}

/* Travels toward the target's row (vertical) or column. */
static char
travel(const struct hunter *h, bool vertical)
{
	const struct swb_view *v = &h->v;
	int dvr = vertical ? sign(h->tr - v->r) : 0;
	int dvc = vertical ? 0 : sign(h->tc - v->c);
	int dir = dir_of(dvr, dvc), dist = 0;
	char first = swb_first(v, v->r, v->c, dir, &dist), cmd;

	if (first != ' ' && dist <= 2) {
		if (h->vr || h->vc)
			return steer(h, 0, 0);
		if (first != '#')
			return 0;	/* try the other axis */
		cmd = turn_to(h, dir);
		return cmd ? cmd : 'S';
	}
	if ((cmd = steer(h, dvr, dvc)) != 0)
		return cmd;
	cmd = turn_to(h, (dir + 2) % 4);
	return cmd ? cmd : 'N';
}

static char
decide(struct hunter *h)
{
	const struct swb_view *v = &h->v;
	int dr, dc;
	char cmd;

	target(h);
	if (in_danger(h))
		return (cmd = steer(h, 0, 0)) ? cmd : 'N';
	if (h->tr < 0)
		return 'N';
	if (v->r == h->tr || v->c == h->tc) {
		cmd = h->vr || h->vc ? steer(h, 0, 0) : fire(h);
		return cmd ? cmd : 'N';
	}
	dr = abs(h->tr - v->r);
	dc = abs(h->tc - v->c);
	if ((cmd = travel(h, dr <= dc)) == 0)
		cmd = travel(h, dr > dc);
	return cmd ? cmd : 'N';
}

static int
clamp(int x)
{
	return x < -1 ? -1 : x > 1 ? 1 : x;
}

/* Whether cmd keeps the ship off anything solid next turn and its rocket
 * off its own cargo. */
static bool
safe(const struct hunter *h, char cmd)
{
	const struct swb_view *v = &h->v;
	int f = v->facing, k = cmd == 'E' ? 1 : cmd == 'S' ? -1 : 0;
	int vr = clamp(h->vr + k * swb_dr[f]);
	int vc = clamp(h->vc + k * swb_dc[f]);

	if (cmd == 'S' && swb_on_field(v->r + swb_dr[f], v->c + swb_dc[f]) &&
	    v->f[v->r + swb_dr[f]][v->c + swb_dc[f]] == v->me)
		return false;
	return (vr == 0 && vc == 0) || !swb_blocked(v, v->r + vr, v->c + vc);
}

/* The decision if safe, else the first safe command. */
static char
choose(struct hunter *h)
{
	char cmd = decide(h);

	for (const char *p = "ESNLR"; !safe(h, cmd) && *p != '\0'; p++)
		cmd = *p;
	return cmd;
}

int
main(void)
{
	struct hunter h = { .tr = -1 };
	char cmd;

	if (swb_read(&h.v) == -1) {
		swb_write('N');
		return 0;
	}
	load(&h);
	cmd = choose(&h);
	save(&h);
	swb_write(cmd);
	return 0;
}
