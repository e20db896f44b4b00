/*
 * slime: the Slime referee, following the original controller
 * (tckmn/slime-territory-war, src/Board.cpp and SlimeTerritoryWar.cpp).
 * Seats are called in fixed order; before every call the game ends if no
 * cell is empty ("board_full") or 2000 calls were made ("turn_limit").
 * An answer is four integers "r1 c1 r2 c2", read as the original's
 * istringstream did (so "1-2 3 4" is four numbers). A move that fails the
 * original's checks, in its order (bounds, own source, target empty or own,
 * distance 1..2, then no merge at distance 2), is a pass: the original has
 * no other way to pass, and the rules allow passing. An answer that is
 * not four integers is a pass too, but it is counted as illegal so the
 * record shows a broken bot; "" (the worker's "no answer") is a plain pass.
 * The score is the number of cells a seat holds.
 */
#include "games/slime/slime.h"

#include <assert.h>
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/slime/slboard.h"

#define CALL_LIMIT	2000	/* the original's turn cap, 500 per seat */
#define LINE_MAX_ORIG	127	/* the original read the answer with fgets */

struct game_state {
	const struct game_dataset *ds;	/* borrowed */
	int n;			/* board side */
	int seats;		/* players in this game, 2..4 */
	char *cell;		/* n * n cells: '.' or '1'..'4' */
	int calls;		/* calls answered so far */
	const char *reason;	/* end reason; NULL while running */
	int faulty;		/* seat that faulted, or -1 */
};

static void
check_end(struct game_state *s)
{
	if (s->reason != NULL)
		return;
	if (memchr(s->cell, '.', (size_t)(s->n * s->n)) == NULL)
		s->reason = "board_full";
	else if (s->calls >= CALL_LIMIT)
		s->reason = "turn_limit";
}

/* Slimes of players beyond the seat count are removed, so one standard
 * board serves games of 2, 3 and 4 seats. */
static struct game_state *
start(const struct game_dataset *ds, int seats, uint64_t seed)
{
	struct game_state *s = xcalloc(1, sizeof *s);
	size_t cells = (size_t)ds->n * (size_t)ds->n;

	(void)seed;	/* the game has no chance in it */
	assert(seats >= 2 && seats <= SL_PLAYERS);
	s->ds = ds;
	s->n = ds->n;
	s->seats = seats;
	s->cell = xmalloc(cells);
	for (size_t i = 0; i < cells; i++)
		s->cell[i] = ds->cell[i] > '0' + seats ? '.' : ds->cell[i];
	s->faulty = -1;
	check_end(s);
	return s;
}

static void
free_state(struct game_state *s)
{
	if (s == NULL)
		return;
	free(s->cell);
	free(s);
}

static int
next_seat(const struct game_state *s)
{
	if (s->reason != NULL)
		return -1;
	return s->calls % s->seats;
}

/* One ">> int" of the original: skips blanks, reads [+-]digits, fails on
 * anything else or on overflow. */
static const char *
read_int(const char *p, const char *end, long *out)
{
	int neg = 0;
	long v = 0;

	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p < end && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	if (p == end || !isdigit((unsigned char)*p))
		return NULL;
	while (p < end && isdigit((unsigned char)*p)) {
		if (v > (INT_MAX - (*p - '0')) / 10)
			return NULL;
		v = v * 10 + (*p++ - '0');
	}
	*out = neg ? -v : v;
	return p;
}

/* Reads "r1 c1 r2 c2" from the first 127 bytes (as fgets did); anything
 * after the fourth integer is ignored, as in the original. */
static int
parse_move(const char *answer, long v[4])
{
	size_t len = strnlen(answer, LINE_MAX_ORIG);
	const char *p = answer, *end = answer + len;

	for (int i = 0; i < 4; i++)
		if ((p = read_int(p, end, &v[i])) == NULL)
			return -1;
	return 0;
}

static int
on_board(const struct game_state *s, long r, long c)
{
	return r >= 0 && r < s->n && c >= 0 && c < s->n;
}

/* Gives me every neighbour of (r, c) that is empty (empty != 0) or, for
 * a spread or jump, every one that is not. */
static void
fill_around(struct game_state *s, long r, long c, char me, int empty)
{
	for (long dr = -1; dr <= 1; dr++) {
		for (long dc = -1; dc <= 1; dc++) {
			char *x;

			if ((dr == 0 && dc == 0) || !on_board(s, r + dr, c + dc))
				continue;
			x = &s->cell[(r + dr) * s->n + c + dc];
			if (empty ? *x == '.' : *x != '.')
				*x = me;
		}
	}
}

/* The original's Board::move: returns 0 after a spread, jump or merge,
 * -1 (nothing changed) when a check fails. */
static int
move(struct game_state *s, char me, const long v[4])
{
	long d = labs(v[0] - v[2]) > labs(v[1] - v[3]) ? labs(v[0] - v[2]) :
	    labs(v[1] - v[3]);
	char *from, *to;

	if (!on_board(s, v[0], v[1]) || !on_board(s, v[2], v[3]))
		return -1;
	from = &s->cell[v[0] * s->n + v[1]];
	to = &s->cell[v[2] * s->n + v[3]];
	if (*from != me || (*to != '.' && *to != me) || d < 1 || d > 2)
		return -1;
	if (*to == me) {
		if (d != 1)
			return -1;
		/* from is still held while filling, so it is not filled */
		fill_around(s, v[2], v[3], me, 1);
		*from = '.';
		return 0;
	}
	*to = me;
	/* non-empty neighbours not ours are enemies; ours stay ours */
	fill_around(s, v[2], v[3], me, 0);
	if (d == 2)
		*from = '.';
	return 0;
}

/* Answers from a finished game or the wrong seat change nothing: the
 * worker never sends them, and a replay that does is rejected. */
static enum game_move
apply(struct game_state *s, int seat, const char *answer)
{
	enum game_move res = GAME_MOVE_PASS;
	long v[4];

	if (seat != next_seat(s))
		return GAME_MOVE_ILLEGAL;
	if (parse_move(answer, v) == -1) {
		if (answer[0] != '\0')
			res = GAME_MOVE_ILLEGAL;
	} else if (move(s, (char)('1' + seat), v) == 0) {
		res = GAME_MOVE_OK;
	}
	s->calls++;
	check_end(s);
	return res;
}

/* Per-turn bots fault only through the worker's own rules (a call that
 * fails is a pass); if one is still reported, the game stops there and
 * the seat scores nothing. */
static void
fault(struct game_state *s, int seat)
{
	assert(seat >= 0 && seat < s->seats);
	if (s->reason != NULL)
		return;
	s->reason = "fault";
	s->faulty = seat;
}

static void
scores(const struct game_state *s, int64_t *out)
{
	for (int seat = 0; seat < s->seats; seat++)
		out[seat] = 0;
	for (int i = 0; i < s->n * s->n; i++)
		if (s->cell[i] != '.')
			out[s->cell[i] - '1']++;
	if (s->faulty >= 0)
		out[s->faulty] = 0;
}

static const char *
end_reason(const struct game_state *s)
{
	return s->reason;
}

/* The original's argument: "P,row0,row1,...", P the 1-based seat. */
static char *
view(const struct game_state *s, int seat, int64_t remaining_ms)
{
	size_t n = (size_t)s->n, len = 2 + n * (n + 1);
	char *v = xmalloc(len), *p = v;

	(void)remaining_ms;	/* the original's bots are not told */
	assert(seat >= 0 && seat < s->seats);
	*p++ = (char)('1' + seat);
	for (size_t r = 0; r < n; r++) {
		*p++ = ',';
		memcpy(p, s->cell + r * n, n);
		p += n;
	}
	*p = '\0';
	return v;
}

/* The board as it is, digits for slimes, under a line with the cells
 * each seat holds so far (which are the scores, except after a fault). */
static char *
frame(const struct game_state *s)
{
	size_t n = (size_t)s->n, off;
	int64_t sc[SL_PLAYERS];
	char head[128], *text;

	scores(s, sc);
	off = (size_t)snprintf(head, sizeof head, "call %d: scores", s->calls);
	for (int i = 0; i < s->seats; i++)
		off += (size_t)snprintf(head + off, sizeof head - off, " %lld",
		    (long long)sc[i]);
	if (s->reason != NULL)
		snprintf(head + off, sizeof head - off, ", over: %s\n",
		    s->reason);
	else
		snprintf(head + off, sizeof head - off, ", %c to move\n",
		    '1' + next_seat(s));
	off = strlen(head);
	text = xmalloc(off + n * (n + 1) + 1);
	memcpy(text, head, off);
	for (size_t r = 0; r < n; r++) {
		memcpy(text + off, s->cell + r * n, n);
		off += n;
		text[off++] = '\n';
	}
	text[off] = '\0';
	return text;
}

const struct game game_slime = {
	.name = "slime",
	.version = "1",
	.min_seats = 2,
	.max_seats = SL_PLAYERS,
	.bots = GAME_BOTS_PER_TURN_ARG,
	.dataset_parse = slboard_parse,
	.dataset_free = slboard_free,
	.start = start,
	.free_state = free_state,
	.next_seat = next_seat,
	.view = view,
	.apply = apply,
	.fault = fault,
	.scores = scores,
	.end_reason = end_reason,
	.frame = frame,
	.palette = ".:#eceff1 1:#e53935 2:#1e88e5 3:#43a047 4:#fdd835",
	.generate = slboard_generate,
};
