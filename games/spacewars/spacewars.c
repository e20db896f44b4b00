/*
 * spacewars: the Space Wars referee. The game is simultaneous but the
 * interface is sequential, so a turn is seat 0's call then seat 1's (a
 * seat without a battleship is skipped), both shown the field as it was
 * when the turn began; the turn is resolved when the last living seat's
 * command arrives:
 *
 *	1. commands: turns, thrust, launches (with recoil); each new rocket
 *	   appears in front of its ship and collides at once with whatever
 *	   is there;
 *	2. half-step 1: rockets move 1 cell, battleships by their velocity;
 *	3. half-step 2: rockets move 1 more cell;
 *	4. the dead are removed; their cells show '*' in the next input.
 *
 * Collisions after a move (collide()): a mover that ends off the field has
 * left it; objects whose paths meet half-way (a swap, or two diagonals
 * crossing) collide there; then objects sharing a cell collide. Any group
 * of two or more objects that is not only rockets dies whole, and points
 * are counted per rocket-target pair and per ramming battleship. Every
 * object (ships, cargo, asteroids, rockets) is in one array; the two
 * battleships are always its first two entries.
 */
#include "games/spacewars/spacewars.h"

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/spacewars/swfield.h"
#include "games/spacewars/swgen.h"

#define SEATS		2
#define LAST_TURN	999	/* the game ends when turn 1000 is reached */
#define MID_ROWS	(2 * SW_ROWS - 1)	/* doubled half-way points */
#define MID_COLS	(2 * SW_COLS - 1)

enum kind { K_SHIP, K_CARGO, K_ASTEROID, K_ROCKET };

/* Facings and rocket directions, clockwise from up. */
static const int dir_r[4] = { -1, 0, 1, 0 };
static const int dir_c[4] = { 0, 1, 0, -1 };

struct obj {
	enum kind kind;
	int owner;		/* seat; -1 for asteroids */
	int r, c;		/* cell; may be off the field after a move */
	int r0, c0;		/* cell before the current move */
	int dir;		/* facing or flight direction, 0..3 */
	int vr, vc;		/* battleship velocity, -1..1 each */
	bool fresh;		/* a rocket launched this turn: still */
	bool alive;
};

struct game_state {
	struct obj *o;		/* o[0], o[1]: the battleships of seats 0, 1 */
	int n, cap;
	int *link;		/* per object: next in its collision group */
	int head[MID_ROWS * MID_COLS];	/* per key: first object, or -1 */
	bool boom[SW_ROWS][SW_COLS];	/* collisions of the last turn */
	int turn;		/* the turn being played, from 1 */
	char cmd[SEATS];	/* this turn's commands, 0 = not yet given */
	int64_t points[SEATS];
	const char *reason;	/* end reason; NULL while running */
	int faulty;		/* seat that faulted, or -1 */
};

static struct obj *
add(struct game_state *s, enum kind kind, int owner, int r, int c, int dir)
{
	struct obj *o;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->o = xrealloc(s->o, (size_t)s->cap * sizeof *s->o);
		s->link = xrealloc(s->link, (size_t)s->cap * sizeof *s->link);
	}
	o = &s->o[s->n++];
	*o = (struct obj){ .kind = kind, .owner = owner, .r = r, .c = c,
	    .r0 = r, .c0 = c, .dir = dir, .alive = true };
	return o;
}

/* Empties the field, leaving two dead battleships in o[0] and o[1]. */
static void
clear(struct game_state *s)
{
	s->n = 0;
	for (int seat = 0; seat < SEATS; seat++)
		add(s, K_SHIP, seat, 0, 0, 0)->alive = false;
	memset(s->boom, 0, sizeof s->boom);
}

static struct game_state *
start(const struct game_dataset *ds, int seats, uint64_t seed)
{
	struct game_state *s = xcalloc(1, sizeof *s);

	(void)seed;	/* the game has no chance in it */
	(void)seats;	/* checked by the worker against max_seats */
	assert(seats == SEATS);
	s->turn = 1;
	s->faulty = -1;
	clear(s);
	for (int seat = 0; seat < SEATS; seat++) {
		struct obj *b = &s->o[seat];
		int r0 = sw_ship_start[0], c0 = sw_ship_start[1];

		b->r = seat ? sw_mirror_row(r0) : r0;
		b->c = seat ? sw_mirror_col(c0) : c0;
		b->dir = seat ? 0 : 2;
		b->alive = true;
		for (int k = 0; k < SW_CARGO; k++) {
			int r = sw_cargo_start[k][0], c = sw_cargo_start[k][1];

			add(s, K_CARGO, seat, seat ? sw_mirror_row(r) : r,
			    seat ? sw_mirror_col(c) : c, 0);
		}
	}
	for (int r = 0; r < SW_ROWS; r++)
		for (int c = 0; c < SW_COLS; c++)
			if (ds->asteroid[r][c])
				add(s, K_ASTEROID, -1, r, c, 0);
	return s;
}

static void
free_state(struct game_state *s)
{
	if (s == NULL)
		return;
	free(s->o);
	free(s->link);
	free(s);
}

static int
next_seat(const struct game_state *s)
{
	if (s->reason != NULL)
		return -1;
	for (int seat = 0; seat < SEATS; seat++)
		if (s->o[seat].alive && s->cmd[seat] == 0)
			return seat;
	return -1;
}

/* Points to the owner of rocket x for destroying y. A battleship hit by a
 * rocket, even its own, costs its owner nothing (interpretation). */
static int
rocket_points(const struct obj *x, const struct obj *y)
{
	if (y->kind == K_SHIP)
		return y->owner != x->owner;
	if (y->kind == K_CARGO)
		return y->owner != x->owner ? 1 : -1;
	return 0;
}

/* Points to the owner of battleship x for ramming y. */
static int
ram_points(const struct obj *x, const struct obj *y)
{
	if (y->kind == K_SHIP || y->kind == K_ASTEROID)
		return -1;
	if (y->kind == K_CARGO)
		return y->owner == x->owner ? -2 : 0;
	return 0;
}

/* Destroys the group starting at object first, unless it is only
 * rockets, and counts its points pair by pair. */
static void
explode(struct game_state *s, int first)
{
	int rockets = 0, size = 0;

	for (int i = first; i >= 0; i = s->link[i]) {
		rockets += s->o[i].kind == K_ROCKET;
		size++;
	}
	if (size < 2 || rockets == size)
		return;
	for (int i = first; i >= 0; i = s->link[i]) {
		struct obj *x = &s->o[i];

		for (int j = first; j >= 0; j = s->link[j]) {
			const struct obj *y = &s->o[j];

			if (j == i || y->kind == K_ROCKET)
				continue;
			if (x->kind == K_ROCKET)
				s->points[x->owner] += rocket_points(x, y);
			else if (x->kind == K_SHIP)
				s->points[x->owner] += ram_points(x, y);
		}
	}
	for (int i = first; i >= 0; i = s->link[i]) {
		s->o[i].alive = false;
		s->boom[s->o[i].r][s->o[i].c] = true;
	}
}

/* Groups the living objects by cell or, midway, by the doubled half-way
 * point of their move (objects at rest take no part), and explodes each
 * group. */
static void
group(struct game_state *s, bool midway)
{
	int keys = midway ? MID_ROWS * MID_COLS : SW_ROWS * SW_COLS;

	for (int k = 0; k < keys; k++)
		s->head[k] = -1;
	for (int i = s->n - 1; i >= 0; i--) {
		const struct obj *x = &s->o[i];
		int k;

		if (!x->alive)
			continue;
		if (!midway)
			k = x->r * SW_COLS + x->c;
		else if (x->r != x->r0 || x->c != x->c0)
			k = (x->r + x->r0) * MID_COLS + x->c + x->c0;
		else
			continue;
		s->link[i] = s->head[k];
		s->head[k] = i;
	}
	for (int k = 0; k < keys; k++)
		if (s->head[k] >= 0)
			explode(s, s->head[k]);
}

static bool
on_field(int r, int c)
{
	return r >= 0 && r < SW_ROWS && c >= 0 && c < SW_COLS;
}

/* Resolves a move from (r0, c0) to (r, c) of every object. */
static void
collide(struct game_state *s)
{
	for (int i = 0; i < s->n; i++)
		if (s->o[i].alive && !on_field(s->o[i].r, s->o[i].c))
			s->o[i].alive = false;
	group(s, true);
	group(s, false);
}

static void
step(struct game_state *s, bool ships)
{
	for (int i = 0; i < s->n; i++) {
		struct obj *x = &s->o[i];

		x->r0 = x->r;
		x->c0 = x->c;
		if (!x->alive)
			continue;
		if (x->kind == K_ROCKET && !x->fresh) {
			x->r += dir_r[x->dir];
			x->c += dir_c[x->dir];
		} else if (x->kind == K_SHIP && ships) {
			x->r += x->vr;
			x->c += x->vc;
		}
	}
	collide(s);
}

static int
clamp(int v)
{
	return v < -1 ? -1 : v > 1 ? 1 : v;
}

/* Phase 1. Launches come last, so that a rocket can hit a ship that has
 * only just turned. */
static void
command(struct game_state *s)
{
	bool launch[SEATS] = { false, false };

	for (int seat = 0; seat < SEATS; seat++) {
		struct obj *b = &s->o[seat];
		int f = b->dir;

		if (!b->alive)
			continue;
		switch (s->cmd[seat]) {
		case 'L':
			b->dir = (b->dir + 3) % 4;
			break;
		case 'R':
			b->dir = (b->dir + 1) % 4;
			break;
		case 'E':
			b->vr = clamp(b->vr + dir_r[f]);
			b->vc = clamp(b->vc + dir_c[f]);
			break;
		case 'S':
			b->vr = clamp(b->vr - dir_r[f]);
			b->vc = clamp(b->vc - dir_c[f]);
			launch[seat] = true;
			break;
		}
	}
	for (int seat = 0; seat < SEATS; seat++) {
		const struct obj *b = &s->o[seat];
		int r = b->r + dir_r[b->dir], c = b->c + dir_c[b->dir];

		/* a rocket launched off the field is gone at once */
		if (launch[seat] && on_field(r, c))
			add(s, K_ROCKET, seat, r, c, b->dir)->fresh = true;
	}
	for (int i = 0; i < s->n; i++) {
		s->o[i].r0 = s->o[i].r;
		s->o[i].c0 = s->o[i].c;
	}
	group(s, false);
}

/* Removes the dead, except the two battleship slots; this turn's rockets
 * fly from the next one. */
static void
sweep(struct game_state *s)
{
	int n = SEATS;

	for (int i = SEATS; i < s->n; i++) {
		s->o[i].fresh = false;
		if (s->o[i].alive)
			s->o[n++] = s->o[i];
	}
	s->n = n;
}

static void
check_end(struct game_state *s)
{
	int fleet[SEATS] = { 0, 0 };

	for (int i = 0; i < s->n; i++)
		if (s->o[i].alive && s->o[i].kind != K_ROCKET &&
		    s->o[i].owner >= 0)
			fleet[s->o[i].owner]++;
	if (fleet[0] == 0 || fleet[1] == 0)
		s->reason = "fleet_destroyed";
	else if (!s->o[0].alive && !s->o[1].alive)
		s->reason = "battleships_destroyed";
	else if (s->turn > LAST_TURN)
		s->reason = "turn_limit";
}

static void
resolve(struct game_state *s)
{
	memset(s->boom, 0, sizeof s->boom);
	command(s);
	step(s, true);
	step(s, false);
	sweep(s);
	memset(s->cmd, 0, sizeof s->cmd);
	s->turn++;
	check_end(s);
}

/* The command in an answer: one of L R E S N (Cyrillic 'Е' is E), blanks
 * and a UTF-8 byte order mark around it allowed; "" is N; 0 if
 * malformed. */
static char
parse_command(const char *p)
{
	size_t len;
	char cmd;

	if (strncmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	p += strspn(p, " \t\r");
	len = strlen(p);
	while (len > 0 && strchr(" \t\r", p[len - 1]) != NULL)
		len--;
	if (len == 0)
		return 'N';
	if (len == 2 && memcmp(p, "\xd0\x95", 2) == 0)
		return 'E';
	cmd = p[0];
	if (len != 1 || strchr("LRESN", cmd) == NULL)
		return 0;
	return cmd;
}

/* Answers from a finished game or the wrong seat change nothing: the
 * worker never sends them, and a replay that does is rejected. A
 * malformed answer counts as N. */
static enum game_move
apply(struct game_state *s, int seat, const char *answer)
{
	char cmd;

	if (seat != next_seat(s))
		return GAME_MOVE_ILLEGAL;
	cmd = parse_command(answer);
	s->cmd[seat] = cmd ? cmd : 'N';
	if (next_seat(s) < 0)
		resolve(s);
	if (cmd == 0)
		return GAME_MOVE_ILLEGAL;
	return cmd == 'N' ? GAME_MOVE_PASS : GAME_MOVE_OK;
}

/* Per-turn bots fault only through the worker's own rules (a failed call
 * is N); if one is still reported, the game stops there and the seat
 * scores 0, the rules' penalty for cheating. */
static void
fault(struct game_state *s, int seat)
{
	assert(seat >= 0 && seat < SEATS);
	if (s->reason != NULL)
		return;
	s->reason = "fault";
	s->faulty = seat;
}

static void
scores(const struct game_state *s, int64_t *out)
{
	for (int seat = 0; seat < SEATS; seat++)
		out[seat] = seat == s->faulty ? 0 : s->points[seat];
}

static const char *
end_reason(const struct game_state *s)
{
	return s->reason;
}

static char
symbol(const struct obj *x)
{
	switch (x->kind) {
	case K_SHIP:
		return "urdl"[x->dir];
	case K_CARGO:
		return (char)('1' + x->owner);
	case K_ASTEROID:
		return '#';
	case K_ROCKET:
		return 'o';
	}
	return '?';
}

/* The field as input.txt shows it: objects first, '*' on the cells of
 * the last turn's collisions that are empty now. */
static void
draw(const struct game_state *s, char field[SW_ROWS][SW_COLS])
{
	for (int r = 0; r < SW_ROWS; r++)
		for (int c = 0; c < SW_COLS; c++)
			field[r][c] = s->boom[r][c] ? '*' : ' ';
	for (int i = 0; i < s->n; i++)
		if (s->o[i].alive)
			field[s->o[i].r][s->o[i].c] = symbol(&s->o[i]);
}

/* Writes the field at p, one line per row, and a '\0' after it. */
static void
put_rows(char *p, char field[SW_ROWS][SW_COLS])
{
	for (int r = 0; r < SW_ROWS; r++) {
		memcpy(p, field[r], SW_COLS);
		p[SW_COLS] = '\n';
		p += SW_COLS + 1;
	}
	*p = '\0';
}

static char *
view(const struct game_state *s, int seat, int64_t remaining_ms)
{
	char field[SW_ROWS][SW_COLS], *text;
	const struct obj *b;
	int n;

	(void)remaining_ms;	/* not part of the original input */
	assert(seat >= 0 && seat < SEATS);
	b = &s->o[seat];
	draw(s, field);
	text = xmalloc(64 + SW_ROWS * (SW_COLS + 1));
	n = sprintf(text, "%d\n%d %d\n%c\n", s->turn, b->alive ? b->r : -1,
	    b->alive ? b->c : -1, '1' + seat);
	put_rows(text + n, field);
	return text;
}

static int
position_cell(struct game_state *s, char ch, int r, int c)
{
	static const char rockets[] = "^>v<", ships[] = "urdlURDL";
	const char *p;

	if (ch == ' ')
		return 0;
	if (ch == '#' || ch == '1' || ch == '2') {
		add(s, ch == '#' ? K_ASTEROID : K_CARGO,
		    ch == '#' ? -1 : ch - '1', r, c, 0);
	} else if ((p = strchr(rockets, ch)) != NULL) {
		add(s, K_ROCKET, 0, r, c, (int)(p - rockets));
	} else if ((p = strchr(ships, ch)) != NULL) {
		struct obj *b = &s->o[(p - ships) / 4];

		if (b->alive)
			return -1;
		*b = (struct obj){ .kind = K_SHIP, .owner = b->owner, .r = r,
		    .c = c, .r0 = r, .c0 = c, .dir = (int)(p - ships) % 4,
		    .alive = true };
	} else {
		return -1;
	}
	return 0;
}

int
spacewars_position(struct game_state *s, const char *board, char *err,
    size_t errlen)
{
	int r = 0, c = 0;

	assert(s->cmd[0] == 0 && s->cmd[1] == 0);
	clear(s);
	for (const char *p = board; *p != '\0'; p++) {
		if (*p == '\n') {
			r++;
			c = 0;
			continue;
		}
		if (r >= SW_ROWS || c >= SW_COLS ||
		    position_cell(s, *p, r, c) == -1) {
			snprintf(err, errlen, "board:%d:%d: bad or extra"
			    " symbol '%c'", r + 1, c + 1, *p);
			return -1;
		}
		c++;
	}
	return 0;
}

void
spacewars_set_velocity(struct game_state *s, int seat, int vr, int vc)
{
	assert(seat >= 0 && seat < SEATS && vr == clamp(vr) &&
	    vc == clamp(vc));
	s->o[seat].vr = vr;
	s->o[seat].vc = vc;
}

void
spacewars_set_rocket_owner(struct game_state *s, int r, int c, int seat)
{
	assert(seat >= 0 && seat < SEATS);
	for (int i = 0; i < s->n; i++)
		if (s->o[i].kind == K_ROCKET && s->o[i].r == r &&
		    s->o[i].c == c)
			s->o[i].owner = seat;
}

/* Unlike view(), tells the seats and rockets apart: seat 1's battleship
 * in upper case, rockets by direction; empty cells are blanks. */
static char *
frame(const struct game_state *s)
{
	char field[SW_ROWS][SW_COLS], *text;
	int64_t sc[SEATS];
	int n;

	draw(s, field);
	for (int i = 0; i < s->n; i++) {
		const struct obj *x = &s->o[i];

		if (x->alive && x->kind == K_SHIP && x->owner == 1)
			field[x->r][x->c] = "URDL"[x->dir];
		else if (x->alive && x->kind == K_ROCKET)
			field[x->r][x->c] = "^>v<"[x->dir];
	}
	scores(s, sc);
	text = xmalloc(128 + SW_ROWS * (SW_COLS + 1));
	n = snprintf(text, 128, "turn %d: scores %lld %lld, ", s->turn,
	    (long long)sc[0], (long long)sc[1]);
	if (s->reason != NULL)
		n += snprintf(text + n, 128 - (size_t)n, "over: %s\n",
		    s->reason);
	else
		n += snprintf(text + n, 128 - (size_t)n, "%c to move\n",
		    'A' + next_seat(s));
	put_rows(text + n, field);
	return text;
}

const struct game game_spacewars = {
	.name = "spacewars",
	.version = "1",
	.min_seats = SEATS,
	.max_seats = SEATS,
	.bots = GAME_BOTS_PER_TURN_FILES,
	.dataset_parse = swfield_parse,
	.dataset_free = swfield_free,
	.start = start,
	.free_state = free_state,
	.next_seat = next_seat,
	.view = view,
	.apply = apply,
	.fault = fault,
	.scores = scores,
	.end_reason = end_reason,
	.frame = frame,
	.palette = "#:#8d6e63 *:#ff9800 1:#ef9a9a 2:#90caf9 u:#c62828 "
	    "r:#c62828 d:#c62828 l:#c62828 U:#1565c0 R:#1565c0 D:#1565c0 "
	    "L:#1565c0 ^:#fdd835 >:#fdd835 v:#fdd835 <:#fdd835",
	.generate = swgen_generate,
};
