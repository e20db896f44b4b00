/*
 * A Dream City bot that spends a fixed time on every call, then passes:
 * `burn cpu MS` spins until it has used MS of CPU time, `burn sleep MS`
 * sleeps MS of wall time. Build: cc -O2 -o burn burn.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double
seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
burn(const char *how, double s)
{
	if (strcmp(how, "cpu") == 0) {
		double end = seconds(CLOCK_PROCESS_CPUTIME_ID) + s;

		while (seconds(CLOCK_PROCESS_CPUTIME_ID) < end)
			;
	} else {
		struct timespec ts = { (time_t)s,
		    (long)((s - (time_t)s) * 1e9) };

		nanosleep(&ts, NULL);
	}
}

int
main(int argc, char **argv)
{
	char line[4096];

	if (argc != 3)
		return 2;
	while (fgets(line, sizeof line, stdin) != NULL) {
		if (strcmp(line, "end\n") != 0)
			continue;
		burn(argv[1], atoi(argv[2]) / 1000.0);
		printf("pass\n");
		fflush(stdout);
	}
	return 0;
}
