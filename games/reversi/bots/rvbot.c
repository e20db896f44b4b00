/*
 * rvbot: the house AIs' protocol loop and shared search parts. The board
 * is kept as black and white discs; each request applies the opponent's
 * move, the AI picks a square for the side to move, and the reply is
 * applied too, so the board always follows the referee's.
 */
#define _POSIX_C_SOURCE 200809L	/* clock_gettime under a strict -std */
#include "rvbot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct game {
	uint64_t disc[2];	/* [0] black, [1] white */
	int colour;
	int started;		/* header seen */
	struct rvbot bot;
};

int64_t
rvbot_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t
splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t
rvbot_random(struct rvbot *b)
{
	return splitmix(&b->rng);
}

int
rvbot_pick(struct rvbot *b, uint64_t set)
{
	int n = rvboard_count(set), k = (int)(rvbot_random(b) % (uint64_t)n);

	while (k-- > 0)
		set &= set - 1;
	return __builtin_ctzll(set);
}

int
rvbot_final(uint64_t own, uint64_t opp)
{
	int a = rvboard_count(own), b = rvboard_count(opp);
	int empty = 64 - a - b;

	return a > b ? a - b + empty : a < b ? a - b - empty : 0;
}

int
rvbot_insert(int *order, int *key, int n, int sq, int k)
{
	int i = n;

	for (; i > 0 && key[i - 1] > k; i--) {
		key[i] = key[i - 1];
		order[i] = order[i - 1];
	}
	key[i] = k;
	order[i] = sq;
	return n + 1;
}

struct solver {
	long nodes, max_nodes;
};

/* Negamax with alpha-beta; with many empties, the moves that leave the
 * opponent fewest replies go first (they cut soonest). */
static int
solve(struct solver *sv, uint64_t own, uint64_t opp, int alpha, int beta,
    int passed)
{
	uint64_t moves = rvboard_moves(own, opp);
	int order[32], key[32], n = 0, best = -65;

	if (++sv->nodes > sv->max_nodes)
		return 0;
	if (moves == 0)
		return passed ? rvbot_final(own, opp) :
		    -solve(sv, opp, own, -beta, -alpha, 1);
	for (; moves != 0; moves &= moves - 1) {
		int sq = __builtin_ctzll(moves), k = 0;
		uint64_t o = own, p = opp;

		if (64 - rvboard_count(own | opp) > 7) {
			rvboard_play(&o, &p, sq);
			k = rvboard_count(rvboard_moves(p, o));
		}
		n = rvbot_insert(order, key, n, sq, k);
	}
	for (int i = 0; i < n && alpha < beta; i++) {
		uint64_t o = own, p = opp;
		int v;

		rvboard_play(&o, &p, order[i]);
		v = -solve(sv, p, o, -beta, -alpha, 0);
		if (v > best)
			best = v;
		if (v > alpha)
			alpha = v;
	}
	return best;
}

int
rvbot_solve(uint64_t own, uint64_t opp, long max_nodes, int *score)
{
	struct solver sv = { 0, max_nodes };
	uint64_t moves = rvboard_moves(own, opp);
	int best = -1, alpha = -65;

	if (moves == 0) {
		*score = -solve(&sv, opp, own, -65, 65, 1);
		return sv.nodes > max_nodes ? -2 : -1;
	}
	for (; moves != 0; moves &= moves - 1) {
		int sq = __builtin_ctzll(moves), v;
		uint64_t o = own, p = opp;

		rvboard_play(&o, &p, sq);
		v = -solve(&sv, p, o, -65, -alpha, 0);
		if (sv.nodes > max_nodes)
			return -2;
		if (v > alpha) {
			alpha = v;
			best = sq;
		}
	}
	*score = alpha;
	return best;
}

static int
protocol_error(const char *what, const char *line)
{
	fprintf(stderr, "rvbot: %s: '%s'\n", what, line);
	return -1;
}

/* "reversi COLOUR SEED BOARD TOMOVE": the game's first request. */
static int
read_header(struct game *g, const char *line)
{
	char colour[8], board[65], tomove[8];
	unsigned long long seed;

	if (sscanf(line, "reversi %7s %llu %64s %7s", colour, &seed, board,
	    tomove) != 4 || strlen(board) != 64)
		return protocol_error("bad header", line);
	g->colour = strcmp(colour, "white") == 0;
	g->disc[0] = g->disc[1] = 0;
	for (int sq = 0; sq < 64; sq++) {
		if (board[sq] == 'X')
			g->disc[0] |= 1ULL << sq;
		else if (board[sq] == 'O')
			g->disc[1] |= 1ULL << sq;
	}
	/* Both seats get the same seed: the colour tells their streams
	 * apart. */
	g->bot.rng = seed ^ (g->colour ? 0x5bd1e995deadbeefULL : 0);
	g->started = 1;
	return 0;
}

/* "start T" or "ROW COL T": the opponent's move and our time. */
static int
read_move(struct game *g, const char *line)
{
	long long t;
	int r, c, them = !g->colour;

	if (sscanf(line, "start %lld", &t) == 1) {
		g->bot.time_ms = t;
		return 0;
	}
	if (sscanf(line, "%d %d %lld", &r, &c, &t) != 3)
		return protocol_error("bad request", line);
	g->bot.time_ms = t;
	if (r == -1 && c == -1)
		return 0;
	if (r < 0 || r > 7 || c < 0 || c > 7 ||
	    rvboard_flips(g->disc[them], g->disc[!them], r * 8 + c) == 0)
		return protocol_error("opponent's move is not legal", line);
	rvboard_play(&g->disc[them], &g->disc[!them], r * 8 + c);
	return 0;
}

static void
answer(struct game *g, rvbot_choose choose)
{
	struct rvbot *b = &g->bot;
	int me = g->colour, sq = -1;

	b->own = g->disc[me];
	b->opp = g->disc[!me];
	b->empties = 64 - rvboard_count(b->own | b->opp);
	if (rvboard_moves(b->own, b->opp) != 0) {
		sq = choose(b);
		rvboard_play(&g->disc[me], &g->disc[!me], sq);
	}
	printf("%d %d\n", sq < 0 ? -1 : sq / 8, sq < 0 ? -1 : sq % 8);
	fflush(stdout);
}

int
rvbot_run(rvbot_choose choose)
{
	struct game g = { .started = 0 };
	char line[256];

	while (fgets(line, sizeof line, stdin) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		if (strncmp(line, "reversi ", 8) == 0) {
			if (read_header(&g, line) == -1)
				return 2;
			continue;
		}
		if (!g.started)
			return protocol_error("no header", line), 2;
		g.bot.started_ms = rvbot_now_ms();
		if (read_move(&g, line) == -1)
			return 2;
		if (g.bot.first_time_ms == 0)
			g.bot.first_time_ms = g.bot.time_ms;
		answer(&g, choose);
	}
	return 0;
}
