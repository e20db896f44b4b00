/*
 * perft: counts Reversi leaves from the standard start with the referee's
 * move generator (games/reversi/rvboard.c, Bik's convention: a forced
 * pass is a ply, a finished game above full depth is one leaf) and prints
 * nodes per second. With an expected count it also says PASS or FAIL.
 *
 *	perft DEPTH [EXPECTED]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "games/reversi/rvboard.h"

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	unsigned long long n, want;
	double t0, dt;
	int depth;

	if (argc < 2 || argc > 3 || (depth = atoi(argv[1])) < 1 ||
	    depth > 20) {
		fprintf(stderr, "usage: perft DEPTH [EXPECTED]\n");
		return 2;
	}
	t0 = now_s();
	n = rvboard_perft(RV_START_BLACK, RV_START_WHITE, depth);
	dt = now_s() - t0;
	printf("depth %d leaves %llu time %.3f s %.1f Mleaves/s", depth, n,
	    dt, dt > 0 ? (double)n / dt / 1e6 : 0.0);
	if (argc == 3) {
		want = strtoull(argv[2], NULL, 10);
		printf(" %s\n", n == want ? "PASS" : "FAIL");
		return n == want ? 0 : 1;
	}
	printf("\n");
	return 0;
}
