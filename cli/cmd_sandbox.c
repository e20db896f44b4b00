/*
 * cmd_sandbox: `arena sandbox [limits] -- CMD ARGS...` runs one command the
 * way a bot is run, with stdin, stdout and stderr passed through, and
 * prints its verdict and usage on stderr, so an organiser can check a
 * suspicious entry by hand. --repeat N runs it N times in a row, each in
 * a fresh sandbox, and ends with a summary (verdicts, spawn-to-exit
 * times): a cheap soak test of the sandbox itself.
 */
#define _XOPEN_SOURCE 700
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/tree.h"
#include "sandbox/sandbox.h"

struct args {
	struct sandbox_opts opts;
	long time_ms;
	long repeat;		/* runs in a row, 1 without --repeat */
	char *command;		/* owned */
};

/* The arguments as one shell command, each single-quoted. */
static char *
quote(int argc, char **argv)
{
	size_t size = 1;

	for (int i = 0; i < argc; i++)
		size += 4 * strlen(argv[i]) + 3;
	char *s = xmalloc(size), *p = s;
	for (int i = 0; i < argc; i++) {
		*p++ = '\'';
		for (const char *c = argv[i]; *c; c++) {
			if (*c == '\'') {
				memcpy(p, "'\\''", 4);
				p += 4;
			} else {
				*p++ = *c;
			}
		}
		*p++ = '\'';
		*p++ = i + 1 < argc ? ' ' : '\0';
	}
	if (argc == 0)
		*p = '\0';
	return s;
}

static int
parse(int argc, char **argv, struct args *a)
{
	static const struct option longs[] = {
		{ "memory-mb", required_argument, NULL, 'm' },
		{ "time-ms", required_argument, NULL, 't' },
		{ "pids", required_argument, NULL, 'p' },
		{ "dir", required_argument, NULL, 'd' },
		{ "processes", no_argument, NULL, 'P' },
		{ "box-mb", required_argument, NULL, 'b' },
		{ "keep-box", no_argument, NULL, 'k' },
		{ "repeat", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	long n;
	int c;

	a->time_ms = 10000;
	a->repeat = 1;
	a->opts.limits.memory_kb = 512 * 1024;
	while ((c = getopt_long(argc, argv, "+", longs, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (cli_parse_count("--memory-mb", optarg, 1, 1 << 20,
			    &n) < 0)
				return -1;
			a->opts.limits.memory_kb = n * 1024;
			break;
		case 't':
			if (cli_parse_count("--time-ms", optarg, 1, 86400000,
			    &a->time_ms) < 0)
				return -1;
			break;
		case 'p':
			if (cli_parse_count("--pids", optarg, 1, 4096, &n) < 0)
				return -1;
			a->opts.limits.pids = (int)n;
			break;
		case 'd':
			a->opts.dir = optarg;
			break;
		case 'P':
			a->opts.processes = true;
			break;
		case 'b':
			if (cli_parse_count("--box-mb", optarg, 1, 1 << 20,
			    &n) < 0)
				return -1;
			a->opts.limits.box_kb = n * 1024;
			break;
		case 'k':
			a->opts.keep_box = true;
			break;
		case 'r':
			if (cli_parse_count("--repeat", optarg, 1, 10000000,
			    &a->repeat) < 0)
				return -1;
			break;
		default:
			return -1;
		}
	}
	if (optind >= argc)
		return -1;
	a->command = quote(argc - optind, argv + optind);
	a->opts.command = a->command;
	return 0;
}

static int64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* One run: prints its verdict line; *wall_us is spawn to exit. 0, or -1
 * on our failure. */
static int
run(struct args *a, enum verdict *v, int64_t *wall_us)
{
	struct sandbox_usage u = { 0 };
	char *detail = NULL;
	int64_t start = now_us();

	a->opts.in = 0;
	a->opts.out = 1;
	a->opts.err = 2;
	struct sandbox *sb = sandbox_new(&a->opts);
	if (!sb)
		return -1;
	if (sandbox_wait(sb, a->time_ms, v, &detail) < 0 ||
	    sandbox_usage(sb, &u) < 0) {
		sandbox_free(sb);
		free(detail);
		return -1;
	}
	*wall_us = now_us() - start;
	sandbox_free(sb);
	fprintf(stderr, "verdict %s (%s), cpu %lld ms, wall %lld ms, "
	    "peak %lld MB\n", verdict_code(*v), detail, (long long)u.cpu_ms,
	    (long long)(*wall_us / 1000), (long long)(u.peak_kb + 1023) / 1024);
	free(detail);
	return 0;
}

static int
by_value(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

/* "N runs, K ok" (lower case: one line per run says OK already) and the
 * other verdicts, then the median and 90th percentile spawn-to-exit. */
static void
summary(long runs, const long counts[VERDICT_COUNT], int64_t *walls)
{
	fprintf(stderr, "repeat: %ld runs, %ld ok", runs, counts[VERDICT_OK]);
	for (int v = 0; v < VERDICT_COUNT; v++)
		if (v != VERDICT_OK && counts[v] > 0)
			fprintf(stderr, ", %ld %s", counts[v], verdict_code(v));
	qsort(walls, (size_t)runs, sizeof *walls, by_value);
	fprintf(stderr, "; spawn to exit: median %.1f ms, p90 %.1f ms\n",
	    (double)walls[runs / 2] / 1000,
	    (double)walls[(runs * 9) / 10] / 1000);
}

/* a->repeat runs in a row. 0 when every one is OK, 1 otherwise. */
static int
run_all(struct args *a)
{
	long counts[VERDICT_COUNT] = { 0 }, done;
	int64_t *walls = xcalloc((size_t)a->repeat, sizeof *walls);
	enum verdict v = VERDICT_XX;

	/* Runs in a row are the per-turn game's case: each sandbox is made
	 * ready while the one before runs. A failure to prepare only makes
	 * each run prepare its own. */
	if (a->repeat > 1 && !a->opts.processes)
		(void)sandbox_prepare();
	for (done = 0; done < a->repeat; done++) {
		if (run(a, &v, &walls[done]) < 0)
			break;
		counts[v]++;
	}
	sandbox_unprepare();
	if (a->repeat > 1 && done > 0)
		summary(done, counts, walls);
	free(walls);
	return done == a->repeat && counts[VERDICT_OK] == done ? 0 : 1;
}

int
cmd_sandbox(int argc, char **argv)
{
	struct args a = { 0 };
	char temp[] = "/tmp/arena-sandbox-XXXXXX";
	int rc;

	if (parse(argc, argv, &a) < 0) {
		fprintf(stderr, "usage: arena sandbox [--memory-mb N] "
		    "[--time-ms N] [--pids N] [--dir DIR] [--processes]\n"
		    "    [--box-mb N] [--keep-box] [--repeat N] "
		    "-- CMD ARGS...\n");
		free(a.command);
		return 2;
	}
	if (!a.opts.dir) {
		if (!mkdtemp(temp) || chown(temp, SANDBOX_FILES_UID,
		    SANDBOX_FILES_GID) < 0) {
			log_errno("cannot create a folder for the command");
			free(a.command);
			return 1;
		}
		a.opts.dir = temp;
	}
	rc = run_all(&a);
	if (a.opts.dir == temp)
		(void)tree_remove(temp);
	free(a.command);
	return rc;
}
