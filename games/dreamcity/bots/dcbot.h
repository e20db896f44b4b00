/*
 * dcbot: the Dream City bot protocol for house bots (docs/protocols/
 * dreamcity.md): reads one request, knows the geometry and scoring, and
 * remembers across requests which buildings each side placed; dcb_run()
 * is a bot's main loop, so a bot file holds only its choice of move.
 * Build a bot with: cc -O2 -o greedy greedy.c dcbot.c
 */
#ifndef DCBOT_H
#define DCBOT_H

#include <stdint.h>
#include <stdio.h>

#define DCB_SIDE	50
#define DCB_COLOURS	3	/* 0 green, 1 blue, 2 yellow */

struct dcb_rot {
	int n;			/* cells */
	int (*cell)[2];		/* n (x, y) offsets in the box */
	int minx, miny, maxx, maxy;	/* bounds of the cells */
};

struct dcb_building {
	int id, w, h;
	int colour;		/* 0..2, the zone it matches */
	int area;
	struct dcb_rot rot[4];	/* clockwise r * 90 degrees */
};

struct dcb_request {
	int call;		/* 1-based call number */
	char you;		/* 'A' or 'B' */
	int64_t time_ms;	/* own remaining time */
	char last_who;		/* 'A', 'B', or 0 on the first call */
	char last_kind[16];	/* ok, pass, invalid, malformed, none */
	int last_id, last_r, last_x, last_y;
	int w, h;
	char zone[DCB_SIDE][DCB_SIDE + 1];	/* '#', '.', 'L', 'B', 'I' */
	char status[DCB_SIDE][DCB_SIDE + 1];	/* '.', 'A', 'B' */
	int nb;			/* available buildings */
	struct dcb_building *b;
	/* Kept across requests by dcb_read(): */
	int typed[2][DCB_COLOURS];	/* placed: [0] mine, [1] theirs */
	int sent_id;		/* id of my last placement, or -1 */
};

/* A placement to send: b NULL means pass. */
struct dcb_place {
	const struct dcb_building *b;
	int r, x, y;
};

/* The best placement offered so far; the first of equal values stays. */
struct dcb_best {
	int n;			/* offers seen */
	int value;		/* of at, once n > 0 */
	struct dcb_place at;	/* b NULL until the first offer */
};

/* Sets up rq before the first dcb_read(). */
void dcb_init(struct dcb_request *rq);
/* Reads the next request into rq, keeping what it learnt before.
 * Returns 1, 0 at end of input, or -1 on a protocol error (to stderr). */
int dcb_read(FILE *in, struct dcb_request *rq);
/* Frees what rq holds. */
void dcb_release(struct dcb_request *rq);

/* Whether building b, turned r, fits with its box corner at (x, y). */
int dcb_fits(const struct dcb_request *rq, const struct dcb_building *b,
    int r, int x, int y);
/* Cells of the placement on a zone of b's colour. */
int dcb_matches(const struct dcb_request *rq, const struct dcb_building *b,
    int r, int x, int y);
/* Marks the placement's cells as who's ('A', 'B' or '.' to undo). */
void dcb_mark(struct dcb_request *rq, const struct dcb_building *b, int r,
    int x, int y, char who);
/* The colour index of a zone character, or -1. */
int dcb_colour(char zone);
/* Cells of each colour on the map, and those covered by who. */
void dcb_count(const struct dcb_request *rq, char who, int total[3],
    int covered[3]);
typedef void dcb_visit_fn(void *ctx, const struct dcb_building *b, int r,
    int x, int y);
/* Calls fn on every legal placement, in list order, then r, y, x. */
void dcb_each(const struct dcb_request *rq, dcb_visit_fn *fn, void *ctx);
/* Sends a placement (and remembers it) or a pass, and flushes. */
void dcb_reply(struct dcb_request *rq, const struct dcb_place *at);

/* Empties bs before the first dcb_best_offer(). */
void dcb_best_init(struct dcb_best *bs);
/* Keeps the placement if it is the first offered or worth more than the
 * best so far. */
void dcb_best_offer(struct dcb_best *bs, int value,
    const struct dcb_building *b, int r, int x, int y);

/* Fills at with the move to play for rq; returns 0, or -1 to stop the bot
 * (after saying why on stderr). */
typedef int dcb_choose_fn(struct dcb_request *rq, struct dcb_place *at);
/* A bot's whole life: reads each request from stdin, asks choose and
 * replies, until stdin ends. Returns the exit status for main(). */
int dcb_run(dcb_choose_fn *choose);

#endif
