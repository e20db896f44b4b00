/*
 * dcbot: request parsing, board helpers and the main loop shared by the
 * house bots.
 * Build a bot with: cc -O2 -o greedy greedy.c dcbot.c
 * The parser is strict about the layout the referee writes (one keyword
 * per line, grids right after their keyword) and reports the first line
 * it does not understand on stderr.
 */
#include "dcbot.h"

#include <stdlib.h>
#include <string.h>

#define LINE	256

static int
bad(const char *line)
{
	fprintf(stderr, "dcbot: cannot parse request line '%.60s'\n", line);
	return -1;
}

static int
get_line(FILE *in, char *buf)
{
	size_t n;

	if (fgets(buf, LINE, in) == NULL)
		return -1;
	n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	return 0;
}

static int
read_grid(FILE *in, int w, int h, char grid[][DCB_SIDE + 1])
{
	char buf[LINE];

	for (int y = 0; y < h; y++) {
		if (get_line(in, buf) == -1 || (int)strlen(buf) != w)
			return bad(buf);
		memcpy(grid[y], buf, (size_t)w + 1);
	}
	return 0;
}

static void
rotate_cells(struct dcb_building *b, const char mask[][DCB_SIDE + 1])
{
	for (int r = 0; r < 4; r++) {
		struct dcb_rot *ro = &b->rot[r];

		ro->cell = malloc((size_t)b->area * sizeof *ro->cell);
		ro->n = 0;
		ro->minx = ro->miny = DCB_SIDE;
		ro->maxx = ro->maxy = -1;
		for (int y = 0; y < b->h; y++) {
			for (int x = 0; x < b->w; x++) {
				int cx = x, cy = y, w = b->w, h = b->h;

				if (mask[y][x] != 'X')
					continue;
				for (int i = 0; i < r; i++) {
					int nx = h - 1 - cy, t = w;

					cy = cx;
					cx = nx;
					w = h;
					h = t;
				}
				ro->cell[ro->n][0] = cx;
				ro->cell[ro->n][1] = cy;
				ro->n++;
				ro->minx = cx < ro->minx ? cx : ro->minx;
				ro->miny = cy < ro->miny ? cy : ro->miny;
				ro->maxx = cx > ro->maxx ? cx : ro->maxx;
				ro->maxy = cy > ro->maxy ? cy : ro->maxy;
			}
		}
	}
}

static int
read_building(FILE *in, const char *line, struct dcb_building *b)
{
	static char mask[DCB_SIDE][DCB_SIDE + 1];
	char type[16];

	memset(b, 0, sizeof *b);
	if (sscanf(line, "building %d %d %d %15s", &b->id, &b->w, &b->h,
	    type) != 4 || b->w < 1 || b->w > DCB_SIDE || b->h < 1 ||
	    b->h > DCB_SIDE)
		return bad(line);
	b->colour = strcmp(type, "house") == 0 ? 0 :
	    strcmp(type, "market") == 0 ? 1 : 2;
	if (read_grid(in, b->w, b->h, mask) == -1)
		return -1;
	for (int y = 0; y < b->h; y++)
		for (int x = 0; x < b->w; x++)
			b->area += mask[y][x] == 'X';
	rotate_cells(b, mask);
	return 0;
}

static void
free_buildings(struct dcb_building *b, int n)
{
	for (int i = 0; i < n; i++)
		for (int r = 0; r < 4; r++)
			free(b[i].rot[r].cell);
	free(b);
}

/* Buildings gone since the previous request were placed: by me if it was
 * my last placement (house bots only send legal ones), else by them. */
static void
track(struct dcb_request *rq, const struct dcb_building *old, int nold)
{
	for (int i = 0; i < nold; i++) {
		int still = 0;

		for (int k = 0; k < rq->nb && !still; k++)
			still = rq->b[k].id == old[i].id;
		if (!still)
			rq->typed[old[i].id == rq->sent_id ? 0 : 1]
			    [old[i].colour]++;
	}
	rq->sent_id = -1;
}

static int
read_buildings(FILE *in, const char *line, struct dcb_request *rq)
{
	struct dcb_building *old = rq->b;
	int nold = rq->nb;
	char buf[LINE];

	if (sscanf(line, "buildings %d", &rq->nb) != 1 || rq->nb < 0)
		return bad(line);
	rq->b = calloc((size_t)rq->nb + 1, sizeof *rq->b);
	for (int k = 0; k < rq->nb; k++) {
		if (get_line(in, buf) == -1 ||
		    read_building(in, buf, &rq->b[k]) == -1) {
			rq->nb = k;
			free_buildings(old, nold);
			return -1;
		}
	}
	track(rq, old, nold);
	free_buildings(old, nold);
	return 0;
}

static int
read_last(const char *line, struct dcb_request *rq)
{
	char who[4];

	rq->last_who = 0;
	rq->last_id = -1;
	if (strcmp(line, "last none") == 0) {
		strcpy(rq->last_kind, "none");
		return 0;
	}
	if (sscanf(line, "last %3s %15s %d %d %d %d", who, rq->last_kind,
	    &rq->last_id, &rq->last_r, &rq->last_x, &rq->last_y) < 2)
		return bad(line);
	rq->last_who = who[0];
	return 0;
}

void
dcb_init(struct dcb_request *rq)
{
	memset(rq, 0, sizeof *rq);
	rq->sent_id = -1;
}

int
dcb_read(FILE *in, struct dcb_request *rq)
{
	char buf[LINE];

	if (get_line(in, buf) == -1)
		return 0;
	if (sscanf(buf, "dreamcity %d", &rq->call) != 1)
		return bad(buf);
	for (;;) {
		long long t;
		int rc = 0;

		if (get_line(in, buf) == -1)
			return bad("(end of input)");
		if (strcmp(buf, "end") == 0)
			return 1;
		if (strncmp(buf, "you ", 4) == 0)
			rq->you = buf[4];
		else if (sscanf(buf, "time %lld", &t) == 1)
			rq->time_ms = t;
		else if (strncmp(buf, "last ", 5) == 0)
			rc = read_last(buf, rq);
		else if (sscanf(buf, "size %d %d", &rq->w, &rq->h) == 2)
			rc = rq->w < 1 || rq->w > DCB_SIDE || rq->h < 1 ||
			    rq->h > DCB_SIDE ? bad(buf) : 0;
		else if (strcmp(buf, "zones") == 0)
			rc = read_grid(in, rq->w, rq->h, rq->zone);
		else if (strcmp(buf, "status") == 0)
			rc = read_grid(in, rq->w, rq->h, rq->status);
		else if (strncmp(buf, "buildings ", 10) == 0)
			rc = read_buildings(in, buf, rq);
		else
			rc = bad(buf);
		if (rc == -1)
			return -1;
	}
}

void
dcb_release(struct dcb_request *rq)
{
	free_buildings(rq->b, rq->nb);
	rq->b = NULL;
	rq->nb = 0;
}

int
dcb_fits(const struct dcb_request *rq, const struct dcb_building *b, int r,
    int x, int y)
{
	const struct dcb_rot *ro = &b->rot[r];

	if (x + ro->minx < 0 || y + ro->miny < 0 || x + ro->maxx >= rq->w ||
	    y + ro->maxy >= rq->h)
		return 0;
	for (int i = 0; i < ro->n; i++) {
		int cx = x + ro->cell[i][0], cy = y + ro->cell[i][1];

		if (rq->zone[cy][cx] == '#' || rq->status[cy][cx] != '.')
			return 0;
	}
	return 1;
}

int
dcb_colour(char zone)
{
	return zone == 'L' ? 0 : zone == 'B' ? 1 : zone == 'I' ? 2 : -1;
}

int
dcb_matches(const struct dcb_request *rq, const struct dcb_building *b,
    int r, int x, int y)
{
	const struct dcb_rot *ro = &b->rot[r];
	int n = 0;

	for (int i = 0; i < ro->n; i++)
		n += dcb_colour(rq->zone[y + ro->cell[i][1]]
		    [x + ro->cell[i][0]]) == b->colour;
	return n;
}

void
dcb_mark(struct dcb_request *rq, const struct dcb_building *b, int r, int x,
    int y, char who)
{
	const struct dcb_rot *ro = &b->rot[r];

	for (int i = 0; i < ro->n; i++)
		rq->status[y + ro->cell[i][1]][x + ro->cell[i][0]] = who;
}

void
dcb_count(const struct dcb_request *rq, char who, int total[3],
    int covered[3])
{
	memset(total, 0, 3 * sizeof *total);
	memset(covered, 0, 3 * sizeof *covered);
	for (int y = 0; y < rq->h; y++) {
		for (int x = 0; x < rq->w; x++) {
			int c = dcb_colour(rq->zone[y][x]);

			if (c < 0)
				continue;
			total[c]++;
			covered[c] += rq->status[y][x] == who;
		}
	}
}

void
dcb_each(const struct dcb_request *rq, dcb_visit_fn *fn, void *ctx)
{
	for (int k = 0; k < rq->nb; k++) {
		const struct dcb_building *b = &rq->b[k];

		for (int r = 0; r < 4; r++) {
			const struct dcb_rot *ro = &b->rot[r];

			for (int y = -ro->miny; y + ro->maxy < rq->h; y++)
				for (int x = -ro->minx; x + ro->maxx < rq->w;
				    x++)
					if (dcb_fits(rq, b, r, x, y))
						fn(ctx, b, r, x, y);
		}
	}
}

void
dcb_reply(struct dcb_request *rq, const struct dcb_place *at)
{
	if (at->b == NULL) {
		printf("pass\n");
	} else {
		printf("%d %d %d %d\n", at->b->id, at->r, at->x, at->y);
		rq->sent_id = at->b->id;
	}
	fflush(stdout);
}

void
dcb_best_init(struct dcb_best *bs)
{
	memset(bs, 0, sizeof *bs);
}

void
dcb_best_offer(struct dcb_best *bs, int value, const struct dcb_building *b,
    int r, int x, int y)
{
	if (bs->n++ > 0 && value <= bs->value)
		return;
	bs->value = value;
	bs->at = (struct dcb_place){ b, r, x, y };
}

int
dcb_run(dcb_choose_fn *choose)
{
	struct dcb_request rq;
	int rc;

	dcb_init(&rq);
	while ((rc = dcb_read(stdin, &rq)) == 1) {
		struct dcb_place at = { NULL, 0, 0, 0 };

		if (choose(&rq, &at) == -1) {
			rc = -1;
			break;
		}
		dcb_reply(&rq, &at);
	}
	dcb_release(&rq);
	return rc == 0 ? 0 : 1;
}
