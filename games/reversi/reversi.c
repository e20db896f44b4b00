/*
 * reversi: the Reversi referee. Seat 0 is black, seat 1 white. The side to
 * move is always called, even when its only legal answer is a pass
 * ("-1 -1"), because the original interactive grader made a player with no
 * move call MakeMove(-1, -1); once neither side can move nobody is called.
 * Anything but a legal move (or the pass when, and only when, there is no
 * move) ends the game at once, lost by that seat: the original gave 0
 * points for an illegal move. Scores are disc counts with the empty
 * squares going to the winner (split on a draw); a seat that loses by an
 * illegal answer or a fault scores 0 and the other 64.
 *
 * The dataset is the start position: 8 rows of 8 of '.', 'X' (black),
 * 'O' (white), then optionally "black" or "white", the side to move
 * (black by default). Lines starting with '#' are comments.
 */
#include "games/reversi/reversi.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/dstext.h"
#include "games/reversi/rvboard.h"
#include "games/reversi/rvgen.h"

#define SEATS	2
#define SQUARES	64

struct game_dataset {
	uint64_t disc[SEATS];	/* [0] black, [1] white */
	int to_move;		/* seat */
};

struct game_state {
	uint64_t disc[SEATS];
	int to_move;
	uint64_t seed;
	int calls;		/* answered so far */
	int last_sq;		/* previous call's move: -1 pass, -2 none */
	bool seen[SEATS];	/* whether a seat answered a call yet */
	const struct game_dataset *ds;	/* borrowed */
	const char *reason;	/* NULL while running */
	int loser;		/* seat that lost by illegal answer or fault */
};

static int
bad_square(struct dstext *t, int col, unsigned char c)
{
	if (c > ' ' && c < 127)
		return dstext_fail(t, col, "expected '.', 'X' or 'O', not '%c'",
		    c);
	return dstext_fail(t, col,
	    "expected '.', 'X' or 'O', not byte 0x%02x", c);
}

/* One non-comment line: a board row while rows < 8, then the side. */
static int
parse_line(struct game_dataset *ds, int *rows, bool *side, struct dstext *t)
{
	const char *l = t->ls;
	size_t n = t->llen;

	if (*rows < 8) {
		for (size_t c = 0; c < n && c < 8; c++) {
			const char *k = strchr(".XO", l[c]);

			if (l[c] == '\0' || k == NULL)
				return bad_square(t, (int)c + 1,
				    (unsigned char)l[c]);
			if (*k != '.')
				ds->disc[*k == 'O'] |= 1ULL << (*rows * 8 +
				    (int)c);
		}
		if (n != 8)
			return dstext_fail(t, n < 8 ? (int)n + 1 : 9,
			    "a board row has 8 squares, this one %zu", n);
		(*rows)++;
		return 0;
	}
	if (*side)
		return dstext_fail(t, 1,
		    "unexpected text after the side to move");
	if (n == 5 && strncmp(l, "black", 5) == 0)
		ds->to_move = 0;
	else if (n == 5 && strncmp(l, "white", 5) == 0)
		ds->to_move = 1;
	else
		return dstext_fail(t, 1,
		    "expected 'black' or 'white' (the side to move)");
	*side = true;
	return 0;
}

static struct game_dataset *
dataset_parse(const char *name, const char *text, size_t len, char *err,
    size_t errlen)
{
	struct game_dataset *ds = xcalloc(1, sizeof *ds);
	struct dstext t;
	int rows = 0;
	bool side = false;

	dstext_init(&t, name, text, len, err, errlen);
	while (dstext_next_content(&t, '#') == 0)
		if (t.llen > 0 && parse_line(ds, &rows, &side, &t) == -1)
			goto fail;
	if (rows < 8) {
		dstext_fail(&t, 1, "the board has 8 rows, this one %d", rows);
		goto fail;
	}
	return ds;
fail:
	free(ds);
	return NULL;
}

static void
dataset_free(struct game_dataset *ds)
{
	free(ds);
}

/* Sets the end reason once the side to move and its opponent are both
 * stuck; a side that is stuck alone still gets its call, to pass. */
static void
check_over(struct game_state *s)
{
	uint64_t own = s->disc[s->to_move], opp = s->disc[!s->to_move];

	if (!rvboard_over(own, opp))
		return;
	s->reason = (own | opp) == ~0ULL ? "board_full" : "no_moves";
}

static struct game_state *
start(const struct game_dataset *ds, int seats, uint64_t seed)
{
	struct game_state *s = xcalloc(1, sizeof *s);

	(void)seats;	/* checked by the worker against max_seats */
	assert(seats == SEATS);
	s->ds = ds;
	s->disc[0] = ds->disc[0];
	s->disc[1] = ds->disc[1];
	s->to_move = ds->to_move;
	s->seed = seed;
	s->last_sq = -2;
	s->loser = -1;
	check_over(s);
	return s;
}

static void
free_state(struct game_state *s)
{
	free(s);
}

static int
next_seat(const struct game_state *s)
{
	return s->reason != NULL ? -1 : s->to_move;
}

/* Reads "ROW COL" with blanks around and between: two integers of at most
 * three digits, each with an optional '-'. */
static int
parse_answer(const char *p, int *row, int *col)
{
	int v[2];

	for (int i = 0; i < 2; i++) {
		int neg, digits = 0;

		if (i > 0 && *p != ' ' && *p != '\t')
			return -1;
		while (*p == ' ' || *p == '\t')
			p++;
		neg = *p == '-';
		p += neg;
		for (v[i] = 0; *p >= '0' && *p <= '9' && digits < 4; digits++)
			v[i] = 10 * v[i] + *p++ - '0';
		if (digits == 0 || digits > 3)
			return -1;
		v[i] = neg ? -v[i] : v[i];
	}
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (*p != '\0')
		return -1;
	*row = v[0];
	*col = v[1];
	return 0;
}

static void
lose(struct game_state *s, int seat, const char *reason)
{
	s->reason = reason;
	s->loser = seat;
}

/* Answers out of turn change nothing: the worker never sends them, and a
 * replay that does is rejected. */
static enum game_move
apply(struct game_state *s, int seat, const char *answer)
{
	uint64_t *own, *opp, moves;
	int row, col, sq;

	if (seat != next_seat(s))
		return GAME_MOVE_ILLEGAL;
	own = &s->disc[seat];
	opp = &s->disc[!seat];
	moves = rvboard_moves(*own, *opp);
	s->calls++;
	s->seen[seat] = true;
	if (parse_answer(answer, &row, &col) == -1) {
		lose(s, seat, "illegal");
		return GAME_MOVE_ILLEGAL;
	}
	if (row == -1 && col == -1 && moves == 0) {
		s->last_sq = -1;
		s->to_move = !seat;
		return GAME_MOVE_PASS;
	}
	sq = row * 8 + col;
	if (row < 0 || row > 7 || col < 0 || col > 7 ||
	    (moves & 1ULL << sq) == 0) {
		lose(s, seat, "illegal");
		return GAME_MOVE_ILLEGAL;
	}
	rvboard_play(own, opp, sq);
	s->last_sq = sq;
	s->to_move = !seat;
	check_over(s);
	return GAME_MOVE_OK;
}

static void
fault(struct game_state *s, int seat)
{
	assert(seat >= 0 && seat < SEATS);
	if (s->reason == NULL)
		lose(s, seat, "fault");
}

static void
scores(const struct game_state *s, int64_t *out)
{
	int n[SEATS], empty;

	if (s->loser >= 0) {
		out[s->loser] = 0;
		out[!s->loser] = SQUARES;
		return;
	}
	n[0] = rvboard_count(s->disc[0]);
	n[1] = rvboard_count(s->disc[1]);
	empty = SQUARES - n[0] - n[1];
	for (int seat = 0; seat < SEATS; seat++) {
		if (n[seat] > n[!seat])
			out[seat] = n[seat] + empty;
		else if (n[seat] == n[!seat])
			out[seat] = n[seat] + empty / 2;
		else
			out[seat] = n[seat];
	}
}

static const char *
end_reason(const struct game_state *s)
{
	return s->reason;
}

/* The dataset's position as 64 characters, row 0 first. */
static void
board_text(const struct game_dataset *ds, char out[SQUARES + 1])
{
	for (int sq = 0; sq < SQUARES; sq++)
		out[sq] = ds->disc[0] >> sq & 1 ? 'X' :
		    ds->disc[1] >> sq & 1 ? 'O' : '.';
	out[SQUARES] = '\0';
}

static char *
view(const struct game_state *s, int seat, int64_t remaining_ms)
{
	static const char *const colour[SEATS] = { "black", "white" };
	char board[SQUARES + 1], *head, *text;
	long long t = (long long)remaining_ms;

	assert(seat >= 0 && seat < SEATS);
	board_text(s->ds, board);
	head = s->seen[seat] ? xstrdup("") :
	    xasprintf("reversi %s %llu %s %s\n", colour[seat],
	    (unsigned long long)s->seed, board, colour[s->ds->to_move]);
	if (s->last_sq == -2)
		text = xasprintf("%sstart %lld\n", head, t);
	else if (s->last_sq == -1)
		text = xasprintf("%s-1 -1 %lld\n", head, t);
	else
		text = xasprintf("%s%d %d %lld\n", head, s->last_sq / 8,
		    s->last_sq % 8, t);
	free(head);
	return text;
}

/* The first line's scores are the discs while the game runs: scores()
 * gives the empties to a winner only once there is one. */
static char *
frame(const struct game_state *s)
{
	char *head, *text, *p;
	int64_t sc[SEATS];

	if (s->reason != NULL) {
		scores(s, sc);
		head = xasprintf("move %d: scores %lld %lld, over: %s\n",
		    s->calls, (long long)sc[0], (long long)sc[1], s->reason);
	} else
		head = xasprintf("move %d: scores %d %d, %c to move\n",
		    s->calls, rvboard_count(s->disc[0]),
		    rvboard_count(s->disc[1]), "XO"[s->to_move]);
	text = xmalloc(strlen(head) + SQUARES + 8 + 1);
	p = text + strlen(head);
	memcpy(text, head, strlen(head));
	free(head);
	for (int sq = 0; sq < SQUARES; sq++) {
		/* the disc just played in lower case */
		bool last = sq == s->last_sq;

		*p++ = s->disc[0] >> sq & 1 ? "Xx"[last] :
		    s->disc[1] >> sq & 1 ? "Oo"[last] : '.';
		if (sq % 8 == 7)
			*p++ = '\n';
	}
	*p = '\0';
	return text;
}

const struct game game_reversi = {
	.name = "reversi",
	.version = "1",
	.min_seats = SEATS,
	.max_seats = SEATS,
	.bots = GAME_BOTS_PERSISTENT,
	.dataset_parse = dataset_parse,
	.dataset_free = dataset_free,
	.start = start,
	.free_state = free_state,
	.next_seat = next_seat,
	.view = view,
	.apply = apply,
	.fault = fault,
	.scores = scores,
	.end_reason = end_reason,
	.frame = frame,
	.palette = "X:#111111 x:#3a3a3a O:#f5f5f5 o:#d0d0d0 .:#2e7d32",
	.generate = rvgen_generate,
};
