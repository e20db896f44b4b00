/*
 * slbot: board parsing, move generation and the rules for the Slime house
 * bots. The rules must match games/slime/slime.c: spread (distance 1 to
 * an empty cell) and jump (distance 2, the source emptied) convert every
 * non-empty neighbour of the target; merge (distance 1 onto an own slime)
 * fills the target's empty neighbours and empties the source.
 */
#include "slbot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
slb_parse(const char *arg, struct slb_board *b, char *me)
{
	const char *p = arg;
	int rows = 0;

	if (p[0] < '1' || p[0] > '4' || p[1] != ',')
		return -1;
	*me = p[0];
	p += 2;
	b->n = (int)strcspn(p, ",");
	if (b->n < 2 || b->n > SLB_MAX_SIDE)
		return -1;
	while (rows < b->n) {
		if ((int)strcspn(p, ",") != b->n)
			return -1;
		memcpy(b->cell + rows * b->n, p, (size_t)b->n);
		p += b->n;
		rows++;
		if (rows < b->n && *p++ != ',')
			return -1;
	}
	return *p == '\0' ? 0 : -1;
}

static int
dist(int r1, int c1, int r2, int c2)
{
	int dr = abs(r1 - r2), dc = abs(c1 - c2);

	return dr > dc ? dr : dc;
}

int
slb_moves(const struct slb_board *b, char me, struct slb_move *out)
{
	static unsigned char spread[SLB_MAX_SIDE * SLB_MAX_SIDE];
	int n = b->n, k = 0;

	memset(spread, 0, (size_t)(n * n));
	for (int r = 0; r < n; r++) {
		for (int c = 0; c < n; c++) {
			if (b->cell[r * n + c] != me)
				continue;
			for (int r2 = r - 2; r2 <= r + 2; r2++) {
				for (int c2 = c - 2; c2 <= c + 2; c2++) {
					int d = dist(r, c, r2, c2), t;
					char x;

					if (d == 0 || r2 < 0 || c2 < 0 ||
					    r2 >= n || c2 >= n)
						continue;
					t = r2 * n + c2;
					x = b->cell[t];
					if ((x != '.' && x != me) ||
					    (x == me && d == 2))
						continue;
					if (x == '.' && d == 1 && spread[t]++)
						continue;
					out[k++] = (struct slb_move){ r, c, r2, c2 };
				}
			}
		}
	}
	return k;
}

/* Neighbours of (r, c) holding an enemy of me, and empty ones. */
static void
around(const struct slb_board *b, char me, int r, int c, int *enemy,
    int *empty)
{
	*enemy = *empty = 0;
	for (int r2 = r - 1; r2 <= r + 1; r2++) {
		for (int c2 = c - 1; c2 <= c + 1; c2++) {
			char x;

			if ((r2 == r && c2 == c) || r2 < 0 || c2 < 0 ||
			    r2 >= b->n || c2 >= b->n)
				continue;
			x = b->cell[r2 * b->n + c2];
			*enemy += x != '.' && x != me;
			*empty += x == '.';
		}
	}
}

void
slb_play(struct slb_board *b, char me, const struct slb_move *m)
{
	int n = b->n, merge = b->cell[m->r2 * n + m->c2] == me;
	int d = dist(m->r1, m->c1, m->r2, m->c2);

	b->cell[m->r2 * n + m->c2] = me;
	for (int r = m->r2 - 1; r <= m->r2 + 1; r++) {
		for (int c = m->c2 - 1; c <= m->c2 + 1; c++) {
			char *x;

			if (r < 0 || c < 0 || r >= n || c >= n)
				continue;
			x = &b->cell[r * n + c];
			if (merge ? *x == '.' : *x != '.')
				*x = me;
		}
	}
	if (merge || d == 2)
		b->cell[m->r1 * n + m->c1] = '.';
}

int
slb_gain(const struct slb_board *b, char me, const struct slb_move *m)
{
	int enemy, empty;

	around(b, me, m->r2, m->c2, &enemy, &empty);
	if (b->cell[m->r2 * b->n + m->c2] == me)
		return empty - 1;
	if (dist(m->r1, m->c1, m->r2, m->c2) == 2)
		return 2 * enemy;
	return 1 + 2 * enemy;
}

int
slb_greedy(const struct slb_board *b, char me, struct slb_move *best)
{
	static struct slb_move moves[SLB_MAX_MOVES];
	int k = slb_moves(b, me, moves), top = -1;

	for (int i = 0; i < k; i++) {
		int g = slb_gain(b, me, &moves[i]);

		if (g > top) {
			top = g;
			*best = moves[i];
		}
	}
	return top >= 0 ? 0 : -1;
}

int
slb_count(const struct slb_board *b, char me)
{
	int k = 0;

	for (int i = 0; i < b->n * b->n; i++)
		k += b->cell[i] == me;
	return k;
}

/* FNV-1a */
uint64_t
slb_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

void
slb_answer(const struct slb_move *m)
{
	if (m == NULL)
		printf("0 0 0 0\n");
	else
		printf("%d %d %d %d\n", m->r1, m->c1, m->r2, m->c2);
	fflush(stdout);
}
