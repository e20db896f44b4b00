/*
 * dreamcity: the Dream City referee. Seat 0 is A, seat 1 is B; calls go
 * A, B, B, A, A, B, B, A, ... A reply is "pass" or "ID R X Y"; a valid
 * placement marks the rotated building's mask cells as the seat's, anything
 * else costs 3 points. The game ends when every building is placed, when
 * two consecutive calls by different seats were both passes, on a fault,
 * or at the call limit (4 * buildings + 100 calls: a game without invalid
 * operations always ends within 2 * buildings + 3 calls, so only a game
 * padded with invalid operations reaches it; see docs/games/dreamcity.md).
 * The score is computed from the final state when asked.
 */
#include "games/dreamcity/dreamcity.h"

#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/dreamcity/dcdata.h"
#include "games/dreamcity/dcgen.h"

#define SEATS		2
#define INVALID_COST	3
#define MAJORITY_BONUS	2

enum op_kind { OP_NONE, OP_OK, OP_PASS, OP_INVALID, OP_MALFORMED };

struct op {
	enum op_kind kind;
	int id, r, x, y;	/* as replied; meaningful for OK and INVALID */
};

struct game_state {
	const struct game_dataset *ds;	/* borrowed */
	unsigned char *status;	/* per map cell: 0 empty, else 1 + seat */
	signed char *owner;	/* per building: -1 available, else seat */
	int placed;		/* buildings placed so far */
	int calls;		/* calls answered so far */
	int call_limit;		/* the game ends after this many calls */
	int invalid[SEATS];	/* invalid operations per seat */
	int64_t gain[SEATS];	/* area + matching cells placed */
	int typed[SEATS][DC_COLOURS];	/* placed buildings per type */
	struct op last;		/* the previous call's operation */
	int last_seat;		/* who made it; -1 before any call */
	const char *reason;	/* end reason; NULL while running */
	int faulty;		/* seat that faulted, or -1 */
};

static struct game_state *
start(const struct game_dataset *ds, int seats, uint64_t seed)
{
	struct game_state *s = xcalloc(1, sizeof *s);

	(void)seed;	/* the game has no chance in it */
	(void)seats;	/* checked by the worker against max_seats */
	assert(seats == SEATS);
	s->ds = ds;
	s->status = xcalloc((size_t)ds->w * (size_t)ds->h, 1);
	s->owner = xmalloc((size_t)ds->nbuildings);
	memset(s->owner, -1, (size_t)ds->nbuildings);
	s->call_limit = 4 * ds->nbuildings + 100;
	s->last_seat = -1;
	s->faulty = -1;
	return s;
}

static void
free_state(struct game_state *s)
{
	if (s == NULL)
		return;
	free(s->status);
	free(s->owner);
	free(s);
}

static int
next_seat(const struct game_state *s)
{
	int k = s->calls % 4;

	if (s->reason != NULL)
		return -1;
	return k == 0 || k == 3 ? 0 : 1;
}

/* Where mask cell (x, y) of a w x h box lands after r clockwise turns. */
static void
rotate(int w, int h, int r, int x, int y, int *rx, int *ry)
{
	for (int i = 0; i < r; i++) {
		int nx = h - 1 - y, t = w;

		y = x;
		x = nx;
		w = h;
		h = t;
	}
	*rx = x;
	*ry = y;
}

static int
find_building(const struct game_dataset *ds, int id)
{
	for (int k = 0; k < ds->nbuildings; k++)
		if (ds->b[k].id == id)
			return k;
	return -1;
}

/* Whether building k fits where op puts it: only mask cells are checked,
 * so blank cells of the box may hang off the map or over taken cells. */
static int
placeable(const struct game_state *s, int k, const struct op *op)
{
	const struct game_dataset *ds = s->ds;
	const struct dc_building *b = &ds->b[k];

	for (int y = 0; y < b->h; y++) {
		for (int x = 0; x < b->w; x++) {
			int rx, ry, mx, my;

			if (!b->mask[y * b->w + x])
				continue;
			rotate(b->w, b->h, op->r, x, y, &rx, &ry);
			mx = op->x + rx;
			my = op->y + ry;
			if (mx < 0 || my < 0 || mx >= ds->w || my >= ds->h)
				return -1;
			if (ds->zone[my * ds->w + mx] == DC_FROZEN ||
			    s->status[my * ds->w + mx] != 0)
				return -1;
		}
	}
	return 0;
}

static void
place(struct game_state *s, int seat, int k, const struct op *op)
{
	const struct game_dataset *ds = s->ds;
	const struct dc_building *b = &ds->b[k];

	for (int y = 0; y < b->h; y++) {
		for (int x = 0; x < b->w; x++) {
			int rx, ry, cell;

			if (!b->mask[y * b->w + x])
				continue;
			rotate(b->w, b->h, op->r, x, y, &rx, &ry);
			cell = (op->y + ry) * ds->w + op->x + rx;
			s->status[cell] = (unsigned char)(1 + seat);
			s->gain[seat] += 1 + (ds->zone[cell] == b->type);
		}
	}
	s->owner[k] = (signed char)seat;
	s->typed[seat][b->type - DC_LIVING]++;
	s->placed++;
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Reads an integer of at most 9 digits with an optional '-'. */
static const char *
reply_int(const char *p, int *out)
{
	int neg = *p == '-', n = 0;
	long v = 0;

	p += neg;
	while (*p >= '0' && *p <= '9' && n < 10) {
		v = v * 10 + (*p++ - '0');
		n++;
	}
	if (n == 0 || n > 9 || (*p != '\0' && !is_space(*p)))
		return NULL;
	*out = (int)(neg ? -v : v);
	return p;
}

/* Reply grammar: blanks* ("pass" | INT blanks+ INT blanks+ INT blanks+
 * INT) blanks*. An ID of -1 is the original's empty operation: a pass. */
static void
parse_reply(const char *p, struct op *op)
{
	int v[4] = { -1, 0, 0, 0 };

	memset(op, 0, sizeof *op);
	op->kind = OP_MALFORMED;
	while (is_space(*p))
		p++;
	if (strncmp(p, "pass", 4) == 0 && (p[4] == '\0' || is_space(p[4]))) {
		p += 4;
	} else {
		for (int i = 0; i < 4; i++) {
			if (i > 0 && !is_space(*p))
				return;
			while (is_space(*p))
				p++;
			if ((p = reply_int(p, &v[i])) == NULL)
				return;
		}
	}
	while (is_space(*p))
		p++;
	if (*p != '\0')
		return;
	op->kind = v[0] == -1 ? OP_PASS : OP_INVALID;
	if (op->kind == OP_INVALID) {
		op->id = v[0];
		op->r = v[1];
		op->x = v[2];
		op->y = v[3];
	}
}

/* Turns a well-formed operation into OK or leaves it INVALID. */
static void
judge(struct game_state *s, int seat, struct op *op)
{
	int k = find_building(s->ds, op->id);

	if (k < 0 || s->owner[k] >= 0 || op->r < 0 || op->r > 3 ||
	    placeable(s, k, op) == -1)
		return;
	place(s, seat, k, op);
	op->kind = OP_OK;
}

/* Answers from a finished game or the wrong seat change nothing: the
 * worker never sends them, and a replay that does is rejected. */
static enum game_move
apply(struct game_state *s, int seat, const char *answer)
{
	struct op op;
	enum game_move res;

	if (seat != next_seat(s))
		return GAME_MOVE_ILLEGAL;
	parse_reply(answer, &op);
	if (op.kind == OP_INVALID)
		judge(s, seat, &op);
	if (op.kind == OP_PASS && s->last.kind == OP_PASS &&
	    s->last_seat != seat)
		s->reason = "passes";
	if (op.kind == OP_INVALID || op.kind == OP_MALFORMED)
		s->invalid[seat]++;
	res = op.kind == OP_OK ? GAME_MOVE_OK : op.kind == OP_PASS ?
	    GAME_MOVE_PASS : GAME_MOVE_ILLEGAL;
	s->last = op;
	s->last_seat = seat;
	s->calls++;
	if (s->reason == NULL && s->placed == s->ds->nbuildings)
		s->reason = "all_placed";
	if (s->reason == NULL && s->calls >= s->call_limit)
		s->reason = "call_limit";
	return res;
}

static void
fault(struct game_state *s, int seat)
{
	assert(seat >= 0 && seat < SEATS);
	if (s->reason != NULL)
		return;
	s->reason = "fault";
	s->faulty = seat;
}

static int64_t
score(const struct game_state *s, int seat)
{
	const struct game_dataset *ds = s->ds;
	int64_t total = s->gain[seat] - INVALID_COST * s->invalid[seat];
	int covered[DC_COLOURS] = { 0 };

	for (int i = 0; i < ds->w * ds->h; i++)
		if (s->status[i] == 1 + seat && ds->zone[i] >= DC_LIVING)
			covered[ds->zone[i] - DC_LIVING]++;
	for (int c = 0; c < DC_COLOURS; c++)
		if (2 * covered[c] > ds->colour_cells[c])
			total += MAJORITY_BONUS * s->typed[seat][c];
	return total < 0 ? 0 : total;
}

static void
scores(const struct game_state *s, int64_t *out)
{
	for (int seat = 0; seat < SEATS; seat++) {
		if (s->faulty >= 0)
			out[seat] = seat == s->faulty ? 0 : s->ds->total_area;
		else
			out[seat] = score(s, seat);
	}
}

static const char *
end_reason(const struct game_state *s)
{
	return s->reason;
}

struct buf {
	char *p;
	size_t len, cap;
};

static void
put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	assert(n >= 0);
	if ((size_t)n >= b->cap - b->len) {
		b->cap = 2 * b->cap + (size_t)n;
		b->p = xrealloc(b->p, b->cap);
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

static void
put_char(struct buf *b, char c)
{
	if (b->len + 1 >= b->cap) {
		b->cap *= 2;
		b->p = xrealloc(b->p, b->cap);
	}
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
}

static void
put_last(struct buf *b, const struct game_state *s)
{
	static const char *const kinds[] = { "none", "ok", "pass", "invalid",
	    "malformed" };
	const struct op *op = &s->last;

	if (s->last_seat < 0) {
		put(b, "last none\n");
		return;
	}
	put(b, "last %c %s", "AB"[s->last_seat], kinds[op->kind]);
	if (op->kind == OP_OK || op->kind == OP_INVALID)
		put(b, " %d %d %d %d", op->id, op->r, op->x, op->y);
	put(b, "\n");
}

static void
put_map(struct buf *b, const struct game_state *s)
{
	const struct game_dataset *ds = s->ds;

	put(b, "size %d %d\nzones\n", ds->w, ds->h);
	for (int y = 0; y < ds->h; y++) {
		for (int x = 0; x < ds->w; x++)
			put_char(b, dcdata_zone_char(ds->zone[y * ds->w + x]));
		put_char(b, '\n');
	}
	put(b, "status\n");
	for (int y = 0; y < ds->h; y++) {
		for (int x = 0; x < ds->w; x++)
			put_char(b, ".AB"[s->status[y * ds->w + x]]);
		put_char(b, '\n');
	}
}

static char *
view(const struct game_state *s, int seat, int64_t remaining_ms)
{
	const struct game_dataset *ds = s->ds;
	struct buf b = { .cap = 4096 };

	assert(seat >= 0 && seat < SEATS);
	b.p = xmalloc(b.cap);
	put(&b, "dreamcity %d\nyou %c\ntime %lld\n", s->calls + 1, "AB"[seat],
	    (long long)remaining_ms);
	put_last(&b, s);
	put_map(&b, s);
	put(&b, "buildings %d\n", ds->nbuildings - s->placed);
	for (int k = 0; k < ds->nbuildings; k++) {
		const struct dc_building *bd = &ds->b[k];

		if (s->owner[k] >= 0)
			continue;
		put(&b, "building %d %d %d %s\n", bd->id, bd->w, bd->h,
		    dcdata_type_word(bd->type));
		for (int y = 0; y < bd->h; y++) {
			for (int x = 0; x < bd->w; x++)
				put_char(&b, ".X"[bd->mask[y * bd->w + x]]);
			put_char(&b, '\n');
		}
	}
	put(&b, "end\n");
	return b.p;
}

/* The map with each taken cell as its owner's 'a' or 'b', the free ones
 * as their zone. */
static char *
frame(const struct game_state *s)
{
	const struct game_dataset *ds = s->ds;
	struct buf b = { .cap = 256 };
	int64_t sc[SEATS];

	b.p = xmalloc(b.cap);
	scores(s, sc);
	put(&b, "call %d: scores %lld %lld, ", s->calls, (long long)sc[0],
	    (long long)sc[1]);
	if (s->reason != NULL)
		put(&b, "over: %s\n", s->reason);
	else
		put(&b, "%c to move\n", "AB"[next_seat(s)]);
	for (int y = 0; y < ds->h; y++) {
		for (int x = 0; x < ds->w; x++) {
			int i = y * ds->w + x;

			put_char(&b, s->status[i] ? "ab"[s->status[i] - 1] :
			    dcdata_zone_char(ds->zone[i]));
		}
		put_char(&b, '\n');
	}
	return b.p;
}

const struct game game_dreamcity = {
	.name = "dreamcity",
	.version = "1",
	.min_seats = SEATS,
	.max_seats = SEATS,
	.no_tasks_after_call = true,
	.dataset_parse = dcdata_parse,
	.dataset_free = dcdata_free,
	.start = start,
	.free_state = free_state,
	.next_seat = next_seat,
	.view = view,
	.apply = apply,
	.fault = fault,
	.scores = scores,
	.end_reason = end_reason,
	.frame = frame,
	.palette = "#:#37474f .:#eceff1 L:#c5e1a5 B:#b3e5fc I:#fff59d "
	    "a:#e53935 b:#1e88e5",
	.generate = dcgen_generate,
};
