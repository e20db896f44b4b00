/*
 * strong: the Dream City house bot that plays out the rest of the game.
 * The best few placements of each building (by immediate value, then by
 * how snugly they sit against edges and taken cells) are each followed by
 * a greedy playout of both sides in the real call order, to the end of the
 * game; the one with the best final score difference, majority bonuses
 * included, is played. This is one step of policy improvement over greedy,
 * so it beats greedy whenever greedy's choice was not already the best
 * reply to greedy. Candidates are tried best first until the call's time
 * budget runs out.
 * Build: cc -O2 -o strong strong.c dcbot.c
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dcbot.h"

#define PER_BUILDING	4	/* candidates kept per building */
#define CALL_MS		500	/* well under the 1 s per call */

struct move {
	int k, r, x, y;		/* building index, rotation, corner */
	int rank;		/* immediate value * 64 + snugness */
};

/* A game from now on, seen from this bot: side 0 is me, 1 the opponent. */
struct sim {
	const struct dcb_request *rq;
	char status[DCB_SIDE][DCB_SIDE + 1];
	unsigned char *gone;	/* per building index: placed */
	int call;		/* the call about to be made */
	int typed[2][DCB_COLOURS];	/* buildings placed per type */
	int covered[2][DCB_COLOURS];	/* cells covered per colour */
	int total[DCB_COLOURS];	/* cells of each colour on the map */
	int gain[2];		/* area + matches placed since now */
};

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Which side makes call c (1-based): A on c % 4 == 1 or 0. */
static int
mover(const struct sim *s)
{
	char who = s->call % 4 == 1 || s->call % 4 == 0 ? 'A' : 'B';

	return who == s->rq->you ? 0 : 1;
}

static int
fits(const struct sim *s, const struct dcb_rot *ro, int x, int y)
{
	for (int i = 0; i < ro->n; i++) {
		int cx = x + ro->cell[i][0], cy = y + ro->cell[i][1];

		if (s->rq->zone[cy][cx] == '#' || s->status[cy][cx] != '.')
			return 0;
	}
	return 1;
}

static int
blocked(const struct sim *s, int x, int y)
{
	return x < 0 || y < 0 || x >= s->rq->w || y >= s->rq->h ||
	    s->rq->zone[y][x] == '#' || s->status[y][x] != '.';
}

/* Immediate value * 64 + the count of blocked cells around it. */
static int
rank(const struct sim *s, const struct dcb_building *b, int r, int x, int y,
    int snug)
{
	const struct dcb_rot *ro = &b->rot[r];
	int v = b->area, touch = 0;

	for (int i = 0; i < ro->n; i++) {
		int cx = x + ro->cell[i][0], cy = y + ro->cell[i][1];

		v += dcb_colour(s->rq->zone[cy][cx]) == b->colour;
		if (snug)
			touch += blocked(s, cx - 1, cy) +
			    blocked(s, cx + 1, cy) + blocked(s, cx, cy - 1) +
			    blocked(s, cx, cy + 1);
	}
	return v * 64 + (touch < 63 ? touch : 63);
}

/* Calls keep(m) for every legal placement; returns how many there were. */
static int
each(const struct sim *s, int snug, void (*keep)(void *, const struct move *),
    void *ctx)
{
	const struct dcb_request *rq = s->rq;
	int n = 0;

	for (int k = 0; k < rq->nb; k++) {
		const struct dcb_building *b = &rq->b[k];

		if (s->gone[k])
			continue;
		for (int r = 0; r < 4; r++) {
			const struct dcb_rot *ro = &b->rot[r];

			for (int y = -ro->miny; y + ro->maxy < rq->h; y++) {
				for (int x = -ro->minx; x + ro->maxx < rq->w;
				    x++) {
					struct move m = { k, r, x, y, 0 };

					if (!fits(s, ro, x, y))
						continue;
					m.rank = rank(s, b, r, x, y, snug);
					keep(ctx, &m);
					n++;
				}
			}
		}
	}
	return n;
}

static void
keep_best(void *ctx, const struct move *m)
{
	struct move *best = ctx;

	if (m->rank > best->rank)
		*best = *m;
}

/* Keeps the PER_BUILDING best placements of each building. */
static void
keep_top(void *ctx, const struct move *m)
{
	struct move *top = (struct move *)ctx + m->k * PER_BUILDING;
	int i = PER_BUILDING;

	while (i > 0 && (top[i - 1].k < 0 || top[i - 1].rank < m->rank))
		i--;
	if (i == PER_BUILDING)
		return;
	memmove(&top[i + 1], &top[i], (size_t)(PER_BUILDING - 1 - i) *
	    sizeof *top);
	top[i] = *m;
}

static void
place(struct sim *s, const struct move *m)
{
	const struct dcb_building *b = &s->rq->b[m->k];
	const struct dcb_rot *ro = &b->rot[m->r];
	int side = mover(s);

	for (int i = 0; i < ro->n; i++) {
		int cx = m->x + ro->cell[i][0], cy = m->y + ro->cell[i][1];
		int c = dcb_colour(s->rq->zone[cy][cx]);

		s->status[cy][cx] = side ? 'o' : 'm';
		if (c >= 0)
			s->covered[side][c]++;
		s->gain[side] += 1 + (c == b->colour);
	}
	s->typed[side][b->colour]++;
	s->gone[m->k] = 1;
}

static int
final_diff(const struct sim *s)
{
	int d = s->gain[0] - s->gain[1];

	for (int side = 0; side < 2; side++)
		for (int c = 0; c < DCB_COLOURS; c++)
			if (2 * s->covered[side][c] > s->total[c])
				d += (side ? -2 : 2) * s->typed[side][c];
	return d;
}

/* Plays m, then greedy for both sides until nothing fits; returns -1 if
 * the deadline passed first, else 0 with the final difference in diff. */
static int
playout(const struct sim *from, const struct move *m, double deadline,
    int *diff)
{
	struct sim s = *from;
	unsigned char gone[1024];
	struct move best;

	memcpy(gone, from->gone, (size_t)from->rq->nb);
	s.gone = gone;
	place(&s, m);
	for (s.call++;; s.call++) {
		if (now_ms() > deadline)
			return -1;
		best = (struct move){ .rank = -1 };
		if (each(&s, 0, keep_best, &best) == 0)
			break;
		place(&s, &best);
	}
	*diff = final_diff(&s);
	return 0;
}

static void
sim_init(struct sim *s, const struct dcb_request *rq, unsigned char *gone)
{
	char other = rq->you == 'A' ? 'B' : 'A';

	memset(s, 0, sizeof *s);
	s->rq = rq;
	s->gone = gone;
	s->call = rq->call;
	memcpy(s->status, rq->status, sizeof s->status);
	memcpy(s->typed, rq->typed, sizeof s->typed);
	dcb_count(rq, rq->you, s->total, s->covered[0]);
	dcb_count(rq, other, s->total, s->covered[1]);
}

static int
by_rank(const void *a, const void *b)
{
	const struct move *ma = a, *mb = b;

	return mb->rank - ma->rank;
}

/* Plays out the best-ranked placements first, until the call's budget. */
static int
choose(struct dcb_request *rq, struct dcb_place *at)
{
	unsigned char gone[1024] = { 0 };
	struct sim s;
	struct move *top;
	struct dcb_best bs;
	double start = now_ms(), budget = (double)rq->time_ms /
	    (rq->nb / 2 + 2);
	int n;

	if (rq->nb > 1024) {
		fprintf(stderr, "strong: too many buildings\n");
		return -1;
	}
	if (budget > CALL_MS)
		budget = CALL_MS;
	sim_init(&s, rq, gone);
	n = rq->nb * PER_BUILDING;
	top = malloc((size_t)(n > 0 ? n : 1) * sizeof *top);
	for (int i = 0; i < n; i++)
		top[i] = (struct move){ .k = -1 };
	each(&s, 1, keep_top, top);
	qsort(top, (size_t)n, sizeof *top, by_rank);
	dcb_best_init(&bs);
	for (int i = 0; i < n && top[i].k >= 0; i++) {
		int d;

		if (playout(&s, &top[i], start + budget, &d) == -1)
			break;
		dcb_best_offer(&bs, d, &rq->b[top[i].k], top[i].r, top[i].x,
		    top[i].y);
	}
	/* Without a finished playout, the best-ranked move is played. */
	if (bs.n == 0 && n > 0 && top[0].k >= 0)
		dcb_best_offer(&bs, 0, &rq->b[top[0].k], top[0].r, top[0].x,
		    top[0].y);
	*at = bs.at;
	free(top);
	return 0;
}

int
main(void)
{
	return dcb_run(choose);
}
