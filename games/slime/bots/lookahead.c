/*
 * lookahead: a one-ply search with a reply model. Each of the best
 * CANDIDATES moves by immediate gain (and a pass) is played, then every
 * other player on the board answers in seat order with its greedy move;
 * the move leaving the most own cells after that round wins, ties going
 * to the larger immediate gain. Candidates stop after BUDGET_MS, far
 * inside the 100 ms call limit.
 */
#include <stdlib.h>
#include <time.h>

#include "slbot.h"

#define CANDIDATES	64
#define BUDGET_MS	40

struct cand {
	struct slb_move m;
	int gain;
};

static int
by_gain(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->gain != y->gain)
		return y->gain - x->gain;
	if (x->m.r1 != y->m.r1)
		return x->m.r1 - y->m.r1;
	if (x->m.c1 != y->m.c1)
		return x->m.c1 - y->m.c1;
	if (x->m.r2 != y->m.r2)
		return x->m.r2 - y->m.r2;
	return x->m.c2 - y->m.c2;
}

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Own cells after m (or a pass, NULL) and one greedy reply by each other
 * player, in seat order after me. */
static int
outcome(const struct slb_board *b, char me, const struct slb_move *m)
{
	static struct slb_board t;
	struct slb_move reply;

	t = *b;
	if (m != NULL)
		slb_play(&t, me, m);
	for (int k = 1; k < 4; k++) {
		char p = (char)('1' + (me - '1' + k) % 4);

		if (slb_greedy(&t, p, &reply) == 0)
			slb_play(&t, p, &reply);
	}
	return slb_count(&t, me);
}

int
main(int argc, char **argv)
{
	static struct slb_board b;
	static struct slb_move moves[SLB_MAX_MOVES];
	static struct cand c[SLB_MAX_MOVES];
	long deadline = now_ms() + BUDGET_MS;
	int k, best = -1, top;
	char me;

	if (argc < 2 || slb_parse(argv[argc - 1], &b, &me) == -1) {
		slb_answer(NULL);
		return 1;
	}
	k = slb_moves(&b, me, moves);
	for (int i = 0; i < k; i++) {
		c[i].m = moves[i];
		c[i].gain = slb_gain(&b, me, &moves[i]);
	}
	qsort(c, (size_t)k, sizeof *c, by_gain);
	top = outcome(&b, me, NULL);
	for (int i = 0; i < k && i < CANDIDATES; i++) {
		int v = outcome(&b, me, &c[i].m);

		if (v > top) {
			top = v;
			best = i;
		}
		if (now_ms() > deadline)
			break;
	}
	slb_answer(best >= 0 ? &c[best].m : NULL);
	return 0;
}
