/*
 * volt: the Volt referee. The game is simultaneous but the interface is
 * sequential, so a step is seat 0's call then seat 1's, both shown the
 * state as it was when the step began; the step is resolved, in the
 * rules' nine phases, when seat 1's answer arrives:
 *
 *	1. flag points;  2. bombs planted;  3. moves;  4. abilities used;
 *	5. flag colours;  6. abilities picked up from gates;  7. bombs
 *	explode;  8. bomb refill on every 6th step;  9. the next view.
 *
 * Within a phase players act in id order (ids are given in reading order
 * of the map, players, flags and gates alike; bombs get the next ids as
 * they are planted). Nothing is random: the seed only reaches the bots.
 */
#include "games/volt/volt.h"

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/volt/vtmap.h"

#define SEATS		2
#define MAX_BOMBS	3
#define BOMB_TIMER	3	/* explosion phases, the planting step's too */
#define RANGE		2
#define BIG_RANGE	4
#define BLINK		3	/* cells */
#define REFILL		6	/* steps */
#define GATE_PERIOD	10	/* steps */

enum ability { AB_NONE, AB_BLINK, AB_SWAP, AB_BIGBANG };
static const char *const ability_name[] = { "none", "blink", "swap",
    "bigbang" };

enum op { OP_STAY, OP_UP, OP_RIGHT, OP_DOWN, OP_LEFT, OP_BOMB, OP_BLINK,
    OP_SWAP, OP_BIGBANG };

/* Indexed by OP_UP .. OP_LEFT minus OP_UP. */
static const int dir_r[4] = { -1, 0, 1, 0 };
static const int dir_c[4] = { 0, 1, 0, -1 };
static const char *const dir_name[4] = { "up", "right", "down", "left" };

struct cmd {
	enum op op;
	int arg;		/* blink: direction 0..3; swap, bigbang: id */
};

struct player {
	int id, team;		/* team 0 or 1 (the rules' 1 and 2) */
	int r, c, bombs;
	enum ability ability;
	bool alive;
};

struct bomb {
	int id, team, owner;	/* owner: the planter's index in pl[] */
	int r, c, timer, range;
	bool fired;		/* exploding in the current phase 7 */
	bool rayed;		/* its voltage drawn */
};

/* A flag or a gate. */
struct site {
	int id, r, c;
	bool gate;
	int owner;		/* flag: 0 white, 1 or 2 */
	int digit;		/* gate: its phase at step 1 */
};

struct game_state {
	const struct game_dataset *ds;	/* borrowed */
	unsigned char cell[VT_MAX][VT_MAX];	/* terrain: enum vt_cell */
	bool hit[VT_MAX][VT_MAX];	/* voltage of the last step */
	struct player pl[VT_PLAYERS];	/* in id order */
	struct site *site;
	int nsite;
	short site_of[VT_MAX][VT_MAX];	/* index in site[], or -1 */
	struct bomb *bomb;
	int nbomb, bcap;
	int next_id;
	int step;		/* the step being played, from 1 */
	struct cmd cmd[VT_PLAYERS];
	bool given[SEATS];	/* this step's answer received */
	bool seen[SEATS];	/* whether a seat had its first call */
	int64_t points[SEATS];
	uint64_t seed;
	const char *reason;	/* NULL while running */
	int faulty;		/* seat that faulted, or -1 */
};

static void
place(struct game_state *s, int r, int c, int *np)
{
	unsigned char k = s->ds->cell[r][c];

	s->cell[r][c] = k;
	s->site_of[r][c] = -1;
	if (k == VT_TEAM1 || k == VT_TEAM2) {
		s->pl[(*np)++] = (struct player){ .id = s->next_id++,
		    .team = k - VT_TEAM1, .r = r, .c = c,
		    .bombs = MAX_BOMBS, .alive = true };
		s->cell[r][c] = VT_EMPTY;
	} else if (k == VT_FLAG || k == VT_GATE) {
		s->site_of[r][c] = (short)s->nsite;
		s->site[s->nsite++] = (struct site){ .id = s->next_id++,
		    .r = r, .c = c, .gate = k == VT_GATE,
		    .digit = s->ds->digit[r][c] };
	}
}

static struct game_state *
start(const struct game_dataset *ds, int seats, uint64_t seed)
{
	struct game_state *s = xcalloc(1, sizeof *s);
	int np = 0;

	(void)seats;	/* checked by the worker against max_seats */
	assert(seats == SEATS);
	s->ds = ds;
	s->seed = seed;
	s->step = 1;
	s->faulty = -1;
	s->next_id = 1;
	s->site = xcalloc((size_t)(ds->rows * ds->cols), sizeof *s->site);
	for (int r = 0; r < ds->rows; r++)
		for (int c = 0; c < ds->cols; c++)
			place(s, r, c, &np);
	assert(np == VT_PLAYERS);
	return s;
}

static void
free_state(struct game_state *s)
{
	if (s == NULL)
		return;
	free(s->site);
	free(s->bomb);
	free(s);
}

static int
next_seat(const struct game_state *s)
{
	if (s->reason != NULL)
		return -1;
	for (int seat = 0; seat < SEATS; seat++)
		if (!s->given[seat])
			return seat;
	return -1;
}

static enum ability
gate_ability(const struct site *g, int step)
{
	int phase = (g->digit + step - 1) % GATE_PERIOD;

	return phase < 6 ? AB_BLINK : phase == 6 ? AB_BIGBANG : AB_SWAP;
}

/* The index of the bomb on (r, c), or -1. */
static int
bomb_at(const struct game_state *s, int r, int c)
{
	for (int i = 0; i < s->nbomb; i++)
		if (s->bomb[i].r == r && s->bomb[i].c == c)
			return i;
	return -1;
}

static struct bomb *
bomb_id(struct game_state *s, int id)
{
	for (int i = 0; i < s->nbomb; i++)
		if (s->bomb[i].id == id)
			return &s->bomb[i];
	return NULL;
}

/* Whether a player may end a move or a blink on (r, c). */
static bool
enterable(struct game_state *s, int r, int c)
{
	return r >= 0 && r < s->ds->rows && c >= 0 && c < s->ds->cols &&
	    s->cell[r][c] != VT_WALL && s->cell[r][c] != VT_BOX &&
	    bomb_at(s, r, c) < 0;
}

/* Phase 2. A second bomb on a cell is refused (two players sharing it). */
static void
plant(struct game_state *s)
{
	for (int i = 0; i < VT_PLAYERS; i++) {
		struct player *p = &s->pl[i];

		if (!p->alive || s->cmd[i].op != OP_BOMB || p->bombs == 0 ||
		    bomb_at(s, p->r, p->c) >= 0)
			continue;
		if (s->nbomb == s->bcap) {
			s->bcap = s->bcap ? 2 * s->bcap : 16;
			s->bomb = xrealloc(s->bomb,
			    (size_t)s->bcap * sizeof *s->bomb);
		}
		s->bomb[s->nbomb++] = (struct bomb){ .id = s->next_id++,
		    .team = p->team, .owner = i, .r = p->r, .c = p->c,
		    .timer = BOMB_TIMER, .range = RANGE };
		p->bombs--;
	}
}

/* Phase 3. Players never block each other, so order does not matter. */
static void
move(struct game_state *s)
{
	for (int i = 0; i < VT_PLAYERS; i++) {
		struct player *p = &s->pl[i];
		enum op op = s->cmd[i].op;
		int r, c;

		if (!p->alive || op < OP_UP || op > OP_LEFT)
			continue;
		r = p->r + dir_r[op - OP_UP];
		c = p->c + dir_c[op - OP_UP];
		if (enterable(s, r, c)) {
			p->r = r;
			p->c = c;
		}
	}
}

/* Phase 4 for one player: true if the ability took effect (and is
 * spent); a use that cannot (target blocked, a bomb not allowed) keeps
 * it. */
static bool
use(struct game_state *s, int i, const struct cmd *k)
{
	struct player *p = &s->pl[i];
	struct bomb *b;
	int r, c;

	if (k->op == OP_BLINK) {
		r = p->r + BLINK * dir_r[k->arg];
		c = p->c + BLINK * dir_c[k->arg];
		if (p->ability != AB_BLINK || !enterable(s, r, c))
			return false;
		p->r = r;
		p->c = c;
		return true;
	}
	b = bomb_id(s, k->arg);
	if (k->op == OP_SWAP) {
		if (p->ability != AB_SWAP || b == NULL || b->team != p->team)
			return false;
		r = b->r;
		c = b->c;
		b->r = p->r;
		b->c = p->c;
		p->r = r;
		p->c = c;
		return true;
	}
	if (p->ability != AB_BIGBANG || b == NULL || b->owner != i)
		return false;
	b->range = BIG_RANGE;
	return true;
}

static void
abilities(struct game_state *s)
{
	for (int i = 0; i < VT_PLAYERS; i++)
		if (s->pl[i].alive && s->cmd[i].op >= OP_BLINK &&
		    use(s, i, &s->cmd[i]))
			s->pl[i].ability = AB_NONE;
}

/* Phases 5 and 6. */
static void
sites(struct game_state *s)
{
	for (int k = 0; k < s->nsite; k++) {
		struct site *f = &s->site[k];
		bool on[SEATS] = { false, false };

		for (int i = 0; i < VT_PLAYERS; i++)
			if (s->pl[i].alive && s->pl[i].r == f->r &&
			    s->pl[i].c == f->c)
				on[s->pl[i].team] = true;
		if (f->gate || (!on[0] && !on[1]))
			continue;
		f->owner = on[0] && on[1] ? 0 : on[0] ? 1 : 2;
	}
	for (int i = 0; i < VT_PLAYERS; i++) {
		struct player *p = &s->pl[i];
		int k = s->site_of[p->r][p->c];

		if (p->alive && k >= 0 && s->site[k].gate)
			p->ability = gate_ability(&s->site[k], s->step);
	}
}

/* One bomb's voltage: its own cell, then each direction up to its range,
 * stopped by walls and by boxes (destroyed once the phase is over, so
 * every ray of the phase stops at them); bombs reached fire too. */
static void
ray(struct game_state *s, const struct bomb *b, bool boxes[VT_MAX][VT_MAX])
{
	s->hit[b->r][b->c] = true;
	for (int d = 0; d < 4; d++) {
		for (int k = 1; k <= b->range; k++) {
			int r = b->r + k * dir_r[d], c = b->c + k * dir_c[d];
			int o;

			if (r < 0 || r >= s->ds->rows || c < 0 ||
			    c >= s->ds->cols || s->cell[r][c] == VT_WALL)
				break;
			if (s->cell[r][c] == VT_BOX) {
				boxes[r][c] = true;
				break;
			}
			s->hit[r][c] = true;
			if ((o = bomb_at(s, r, c)) >= 0)
				s->bomb[o].fired = true;
		}
	}
}

/* Phase 7: timers run down, bombs at 0 fire, fired bombs fire those they
 * reach within the same phase, then the hit die and the fired go. */
static void
explode(struct game_state *s)
{
	bool boxes[VT_MAX][VT_MAX], more = true;
	int n = 0;

	memset(boxes, 0, sizeof boxes);
	for (int i = 0; i < s->nbomb; i++)
		s->bomb[i].fired = --s->bomb[i].timer <= 0;
	while (more) {
		more = false;
		for (int i = 0; i < s->nbomb; i++) {
			struct bomb *b = &s->bomb[i];

			if (b->fired && !b->rayed) {
				b->rayed = true;
				ray(s, b, boxes);
				more = true;
			}
		}
	}
	for (int i = 0; i < VT_PLAYERS; i++)
		if (s->hit[s->pl[i].r][s->pl[i].c])
			s->pl[i].alive = false;
	for (int r = 0; r < s->ds->rows; r++)
		for (int c = 0; c < s->ds->cols; c++)
			if (boxes[r][c]) {
				s->cell[r][c] = VT_EMPTY;
				s->hit[r][c] = true;
			}
	for (int i = 0; i < s->nbomb; i++)
		if (!s->bomb[i].fired)
			s->bomb[n++] = s->bomb[i];
	s->nbomb = n;
}

static void
refill(struct game_state *s)
{
	if (s->step % REFILL != 0)
		return;
	for (int i = 0; i < VT_PLAYERS; i++)
		if (s->pl[i].alive && s->pl[i].bombs < MAX_BOMBS)
			s->pl[i].bombs++;
}

static int
living(const struct game_state *s, int team)
{
	int n = 0;

	for (int i = 0; i < VT_PLAYERS; i++)
		n += s->pl[i].alive && s->pl[i].team == team;
	return n;
}

/* The winning seat, or -1 while there is none: a fault loses, then a
 * team with living players beats one without, then points. */
static int
winner(const struct game_state *s)
{
	int a = living(s, 0) > 0, b = living(s, 1) > 0;

	if (s->faulty >= 0)
		return !s->faulty;
	if (a != b)
		return a ? 0 : 1;
	if (s->points[0] != s->points[1])
		return s->points[0] > s->points[1] ? 0 : 1;
	return -1;
}

static void
check_end(struct game_state *s)
{
	int a = living(s, 0), b = living(s, 1);

	if (a == 0 && b == 0)
		s->reason = "all_dead";
	else if (a == 0 || b == 0)
		s->reason = "team_dead";
	else if (s->step >= s->ds->steps)
		s->reason = "steps";
	if (s->reason != NULL && winner(s) < 0)
		s->reason = "undecided";
}

static void
resolve(struct game_state *s)
{
	memset(s->hit, 0, sizeof s->hit);
	for (int k = 0; k < s->nsite; k++)
		if (!s->site[k].gate && s->site[k].owner > 0)
			s->points[s->site[k].owner - 1]++;
	plant(s);
	move(s);
	abilities(s);
	sites(s);
	explode(s);
	refill(s);
	check_end(s);
	memset(s->given, 0, sizeof s->given);
	memset(s->cmd, 0, sizeof s->cmd);
	if (s->reason == NULL)
		s->step++;
}

/* Reads an unsigned number of at most 9 digits at *p. */
static int
number(const char **p, int *out)
{
	int v = 0, digits = 0;

	while (**p >= '0' && **p <= '9' && digits++ < 9)
		v = 10 * v + *(*p)++ - '0';
	if (digits == 0 || (**p >= '0' && **p <= '9'))
		return -1;
	*out = v;
	return 0;
}

static const char *
skip_blanks(const char *p)
{
	return p + strspn(p, " \t\r");
}

/* The index of word among n words of list, matching len bytes of p;
 * -1 if none. */
static int
find_word(const char *const *list, int n, const char *p, size_t len)
{
	for (int w = 0; w < n; w++)
		if (strlen(list[w]) == len && strncmp(p, list[w], len) == 0)
			return w;
	return -1;
}

/* One command between p and end (a ',' or the end of the answer): the
 * word, then for blink a direction, for swap and bigbang a bomb id. On
 * failure *out is left alone. */
static int
parse_cmd(const char *p, const char *end, struct cmd *out)
{
	static const char *const word[] = { "stay", "up", "right", "down",
	    "left", "bomb", "blink", "swap", "bigbang" };
	struct cmd k = { OP_STAY, 0 };
	size_t n;
	int w;

	p = skip_blanks(p);
	n = strcspn(p, " \t\r,");
	if ((w = find_word(word, OP_BIGBANG + 1, p, n)) < 0)
		return -1;
	k.op = (enum op)w;
	p = skip_blanks(p + n);
	if (k.op == OP_BLINK) {
		n = strcspn(p, " \t\r,");
		if ((k.arg = find_word(dir_name, 4, p, n)) < 0)
			return -1;
		p = skip_blanks(p + n);
	} else if (k.op >= OP_SWAP && number(&p, &k.arg) == -1) {
		return -1;
	}
	if (skip_blanks(p) != end)
		return -1;
	*out = k;
	return 0;
}

/* Answers from a finished game or the wrong seat change nothing: the
 * worker never sends them, and a replay that does is rejected. A
 * malformed command is its player's "stay"; a wrong number of commands
 * makes both stay. Commands for dead players are ignored. */
static enum game_move
apply(struct game_state *s, int seat, const char *answer)
{
	const char *comma, *end = answer + strlen(answer);
	struct cmd k[2] = { { OP_STAY, 0 }, { OP_STAY, 0 } };
	bool bad = false, idle = true;
	int j = 0;

	if (seat != next_seat(s))
		return GAME_MOVE_ILLEGAL;
	s->seen[seat] = true;
	comma = strchr(answer, ',');
	if (comma == NULL || strchr(comma + 1, ',') != NULL) {
		bad = true;
	} else {
		bad |= parse_cmd(answer, comma, &k[0]) == -1;
		bad |= parse_cmd(comma + 1, end, &k[1]) == -1;
	}
	for (int i = 0; i < VT_PLAYERS; i++) {
		if (s->pl[i].team != seat)
			continue;
		s->cmd[i] = k[j++];
		idle = idle && (s->cmd[i].op == OP_STAY || !s->pl[i].alive);
	}
	s->given[seat] = true;
	if (next_seat(s) < 0)
		resolve(s);
	return bad ? GAME_MOVE_ILLEGAL : idle ? GAME_MOVE_PASS : GAME_MOVE_OK;
}

/* A team process that times out, crashes or breaks a rule ends the game
 * and loses it. */
static void
fault(struct game_state *s, int seat)
{
	assert(seat >= 0 && seat < SEATS);
	if (s->reason != NULL)
		return;
	s->reason = "fault";
	s->faulty = seat;
}

/* Flag points, except that a winner by survival or by the other's fault
 * gets one point more than the loser if it had no more, so the higher
 * score always wins; a faulty seat scores 0. */
static void
scores(const struct game_state *s, int64_t *out)
{
	int w = winner(s);

	for (int seat = 0; seat < SEATS; seat++)
		out[seat] = seat == s->faulty ? 0 : s->points[seat];
	if (w >= 0 && out[w] <= out[!w])
		out[w] = out[!w] + 1;
}

static const char *
end_reason(const struct game_state *s)
{
	return s->reason;
}

/* Terrain as the map format writes it, without gate digits. */
static char
terrain(const struct game_state *s, int r, int c)
{
	return "EWBFP"[s->cell[r][c] <= VT_GATE ? s->cell[r][c] : 0];
}

static void
put_objects(const struct game_state *s, FILE *f)
{
	fprintf(f, "objects %d\n", VT_PLAYERS + s->nbomb + s->nsite);
	for (int i = 0; i < VT_PLAYERS; i++) {
		const struct player *p = &s->pl[i];

		fprintf(f, "player %d %d %d %d %d %d %s\n", p->id, p->r, p->c,
		    p->team + 1, p->alive, p->bombs,
		    ability_name[p->ability]);
	}
	for (int i = 0; i < s->nbomb; i++) {
		const struct bomb *b = &s->bomb[i];

		fprintf(f, "bomb %d %d %d %d %d %d %d\n", b->id, b->r, b->c,
		    b->team + 1, b->timer, b->range, s->pl[b->owner].id);
	}
	for (int k = 0; k < s->nsite; k++) {
		const struct site *g = &s->site[k];

		if (g->gate)
			fprintf(f, "gate %d %d %d %s\n", g->id, g->r, g->c,
			    ability_name[gate_ability(g, s->step)]);
		else
			fprintf(f, "flag %d %d %d %d\n", g->id, g->r, g->c,
			    g->owner);
	}
}

static char *
view(const struct game_state *s, int seat, int64_t remaining_ms)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f == NULL)
		fatal("out of memory");
	assert(seat >= 0 && seat < SEATS);
	if (!s->seen[seat])
		fprintf(f, "volt %d %d %d %d %llu\n", seat + 1, s->ds->rows,
		    s->ds->cols, s->ds->steps, (unsigned long long)s->seed);
	fprintf(f, "step %d %lld %lld %lld\n", s->step,
	    (long long)s->points[0], (long long)s->points[1],
	    (long long)remaining_ms);
	for (int r = 0; r < s->ds->rows; r++) {
		for (int c = 0; c < s->ds->cols; c++)
			fputc(terrain(s, r, c), f);
		fputc('\n', f);
	}
	put_objects(s, f);
	if (fclose(f) != 0)
		fatal("out of memory");
	return text;
}

/* One character per cell (legend in docs/games/volt.md): players over
 * bombs over voltage over terrain. */
static char
symbol(const struct game_state *s, int r, int c)
{
	int g;
	char ch = '.';

	if (s->cell[r][c] == VT_WALL)
		ch = '#';
	else if (s->cell[r][c] == VT_BOX)
		ch = 'B';
	else if ((g = s->site_of[r][c]) >= 0)
		ch = s->site[g].gate ? 'P' : "Fab"[s->site[g].owner];
	if (s->hit[r][c])
		ch = '*';
	if (bomb_at(s, r, c) >= 0)
		ch = 'o';
	for (int i = 0; i < VT_PLAYERS; i++)
		if (s->pl[i].alive && s->pl[i].r == r && s->pl[i].c == c)
			ch = (char)('1' + s->pl[i].team);
	return ch;
}

static char *
frame(const struct game_state *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f == NULL)
		fatal("out of memory");
	fprintf(f, "step %d of %d: points %lld %lld, players %d %d%s%s\n",
	    s->step, s->ds->steps, (long long)s->points[0],
	    (long long)s->points[1], living(s, 0), living(s, 1),
	    s->reason != NULL ? ", over: " : "",
	    s->reason != NULL ? s->reason : "");
	for (int r = 0; r < s->ds->rows; r++) {
		for (int c = 0; c < s->ds->cols; c++)
			fputc(symbol(s, r, c), f);
		fputc('\n', f);
	}
	if (fclose(f) != 0)
		fatal("out of memory");
	return text;
}

const struct game game_volt = {
	.name = "volt",
	.version = "1",
	.min_seats = SEATS,
	.max_seats = SEATS,
	.bots = GAME_BOTS_PERSISTENT,
	.dataset_parse = vtmap_parse,
	.dataset_free = vtmap_free,
	.start = start,
	.free_state = free_state,
	.next_seat = next_seat,
	.view = view,
	.apply = apply,
	.fault = fault,
	.scores = scores,
	.end_reason = end_reason,
	.frame = frame,
	.palette = "#:#555555 B:#a0522d .:#f4f4f4 F:#ffffff a:#f4a0a0 "
	    "b:#a0b4f4 P:#c080f0 o:#202020 *:#ffd700 1:#dd3333 2:#3355dd",
};
