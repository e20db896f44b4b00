/*
 * Dream City starter bot in C (self-contained; protocol:
 * docs/protocols/dreamcity.md in the arena repository).
 *
 * Build: cc -O2 -o bot bot.c
 * Try:   arena gen dreamcity --seed 1 -o map.txt, then run it in a spec.
 *
 * Strategy "first fit": for each available building in increasing id
 * order, for rotation 0..3, for y = 0..H-1, for x = 0..W-1, the first
 * placement that fits is played; if none fits, "pass". Replace choose()
 * with something smarter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIDE	50
#define LINE	256

struct building {
	int id, w, h;
	char type[16];		/* house, market or factory */
	char mask[SIDE][SIDE + 1];	/* 'X' = part of the building */
};

struct request {
	int call;		/* 1-based call number */
	char you;		/* 'A' or 'B' */
	long long time_ms;	/* your remaining time */
	char last[LINE];	/* the "last ..." line, as sent */
	int w, h;
	char zone[SIDE][SIDE + 1];	/* '#' frozen, '.', 'L', 'B', 'I' */
	char status[SIDE][SIDE + 1];	/* '.' empty, 'A', 'B' */
	int nb;
	struct building *b;
};

static int
get_line(char *buf)
{
	if (fgets(buf, LINE, stdin) == NULL)
		return -1;
	buf[strcspn(buf, "\r\n")] = '\0';
	return 0;
}

static int
get_grid(int w, int h, char grid[][SIDE + 1])
{
	char buf[LINE];

	for (int y = 0; y < h; y++) {
		if (get_line(buf) == -1 || (int)strlen(buf) != w)
			return -1;
		memcpy(grid[y], buf, (size_t)w + 1);
	}
	return 0;
}

static int
read_buildings(struct request *rq)
{
	char buf[LINE];

	free(rq->b);
	rq->b = calloc((size_t)rq->nb + 1, sizeof *rq->b);
	for (int k = 0; k < rq->nb; k++) {
		struct building *b = &rq->b[k];

		if (get_line(buf) == -1 ||
		    sscanf(buf, "building %d %d %d %15s", &b->id, &b->w,
		    &b->h, b->type) != 4 || b->w < 1 || b->w > SIDE ||
		    b->h < 1 || b->h > SIDE ||
		    get_grid(b->w, b->h, b->mask) == -1)
			return -1;
	}
	return 0;
}

/* Reads one request; returns 0, or -1 at end of input or on garbage. */
static int
read_request(struct request *rq)
{
	char buf[LINE];

	if (get_line(buf) == -1 || sscanf(buf, "dreamcity %d", &rq->call) != 1)
		return -1;
	for (;;) {
		if (get_line(buf) == -1)
			return -1;
		if (strcmp(buf, "end") == 0)
			return 0;
		if (strncmp(buf, "you ", 4) == 0)
			rq->you = buf[4];
		else if (sscanf(buf, "time %lld", &rq->time_ms) == 1)
			continue;
		else if (strncmp(buf, "last ", 5) == 0)
			strcpy(rq->last, buf);
		else if (sscanf(buf, "size %d %d", &rq->w, &rq->h) == 2) {
			if (rq->w < 1 || rq->w > SIDE || rq->h < 1 ||
			    rq->h > SIDE)
				return -1;
		}
		else if (strcmp(buf, "zones") == 0) {
			if (get_grid(rq->w, rq->h, rq->zone) == -1)
				return -1;
		} else if (strcmp(buf, "status") == 0) {
			if (get_grid(rq->w, rq->h, rq->status) == -1)
				return -1;
		} else if (sscanf(buf, "buildings %d", &rq->nb) == 1) {
			if (read_buildings(rq) == -1)
				return -1;
		} else {
			return -1;
		}
	}
}

/* Whether b turned r times clockwise fits with its box corner at (x, y). */
static int
fits(const struct request *rq, const struct building *b, int r, int x, int y)
{
	for (int by = 0; by < b->h; by++) {
		for (int bx = 0; bx < b->w; bx++) {
			int cx = bx, cy = by, w = b->w, h = b->h;

			if (b->mask[by][bx] != 'X')
				continue;
			/* One turn: (x, y) -> (h-1-y, x), w and h swap. */
			for (int i = 0; i < r; i++) {
				int nx = h - 1 - cy, t = w;

				cy = cx;
				cx = nx;
				w = h;
				h = t;
			}
			cx += x;
			cy += y;
			if (cx < 0 || cy < 0 || cx >= rq->w || cy >= rq->h)
				return 0;
			if (rq->zone[cy][cx] == '#' ||
			    rq->status[cy][cx] != '.')
				return 0;
		}
	}
	return 1;
}

static int
by_id(const void *a, const void *b)
{
	const struct building *ba = a, *bb = b;

	return (ba->id > bb->id) - (ba->id < bb->id);
}

static void
choose(struct request *rq)
{
	qsort(rq->b, (size_t)rq->nb, sizeof *rq->b, by_id);
	for (int k = 0; k < rq->nb; k++)
		for (int r = 0; r < 4; r++)
			for (int y = 0; y < rq->h; y++)
				for (int x = 0; x < rq->w; x++)
					if (fits(rq, &rq->b[k], r, x, y)) {
						printf("%d %d %d %d\n",
						    rq->b[k].id, r, x, y);
						return;
					}
	printf("pass\n");
}

int
main(void)
{
	static struct request rq;

	while (read_request(&rq) == 0) {
		choose(&rq);
		fflush(stdout);
	}
	free(rq.b);
	return 0;
}
