/* Unit tests for worker/bot with the script bots of tests/data/bots: each
 * misbehaviour gives its verdict, the bot is stopped between calls, and
 * no process of its group outlives bot_free(). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "worker/bot.h"

static char bots_dir[4096];
static char log_path[4096];
static const struct spec_limits limits = { 200, 5000, 256, 128 };

/* The state letter of a process, or 0 when gone. */
static char
proc_state(pid_t pid, int *pgrp)
{
	char path[64], buf[512], *p;
	FILE *f;
	char st = 0;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fgets(buf, sizeof buf, f) && (p = strrchr(buf, ')')))
		sscanf(p + 2, "%c %*d %d", &st, pgrp);
	fclose(f);
	return st;
}

/* Live (not zombie) processes in process group pgid. */
static int
group_count(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0, pgrp;
	char st;

	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pgrp = 0;
		st = proc_state(atoi(de->d_name), &pgrp);
		if (st && st != 'Z' && pgrp == pgid)
			n++;
	}
	closedir(d);
	return n;
}

static struct bot *
start(const char *run, const struct spec_limits *lim)
{
	struct bot *b = bot_new(bots_dir, run, lim ? lim : &limits, log_path);

	assert_non_null(b);
	return b;
}

/* One call; returns the verdict, *answer or *detail as the bot left. */
static enum verdict
call(struct bot *b, const char *req, int64_t remaining, char **answer,
    char **detail)
{
	enum verdict v;

	assert_int_equal(bot_call(b, req, limits.call_ms, remaining, answer,
	    &v, detail), 0);
	return v;
}

static void
finish(struct bot *b)
{
	pid_t pgid = bot_pgid(b);
	struct bot_usage u;

	bot_end(b, &u);
	assert_true(u.wall_ms >= 0 && u.cpu_ms >= 0 && u.peak_kb >= 0);
	bot_free(b);
	/* SIGKILLed processes take a moment to go, large ones more. */
	for (int i = 0; i < 100 && group_count(pgid) > 0; i++)
		usleep(10000);
	assert_int_equal(group_count(pgid), 0);
}

static void
test_echo(void **state)
{
	struct bot *b = start("sh ./echo.sh", NULL);
	char *answer, *detail;
	int pgrp;

	(void)state;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(call(b, "hello\n", 5000, &answer, &detail),
		    VERDICT_OK);
		assert_string_equal(answer, "ok hello");
		assert_null(detail);
		free(answer);
		/* Frozen until its next call. */
		assert_int_equal(proc_state(bot_pgid(b), &pgrp), 'T');
	}
	finish(b);
}

static void
test_crash(void **state)
{
	struct bot *b = start("sh ./crash.sh", NULL);
	char *answer, *detail;

	(void)state;
	assert_int_equal(call(b, "x\n", 5000, &answer, &detail), VERDICT_RE);
	assert_null(answer);
	print_message("crash bot: %s\n", detail);
	assert_non_null(strstr(detail, "11"));	/* SIGSEGV, or 128 + 11 */
	free(detail);
	/* Dead for every later call. */
	assert_int_equal(call(b, "x\n", 5000, &answer, &detail), VERDICT_RE);
	free(detail);
	finish(b);
}

static void
test_sleep(void **state)
{
	struct bot *b = start("sh ./sleep.sh", NULL);
	char *answer, *detail;
	struct timespec t0, t1;
	int64_t ms;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(call(b, "x\n", 5000, &answer, &detail), VERDICT_TO);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) /
	    1000000;
	assert_true(ms >= 200 && ms < 1000);
	free(detail);
	assert_true(group_count(bot_pgid(b)) >= 1);	/* sleep is in it */
	finish(b);
}

static void
test_game_time(void **state)
{
	struct bot *b = start("sh ./sleep.sh", NULL);
	char *answer, *detail;

	(void)state;
	/* Less game time left than the call limit: that is the deadline. */
	assert_int_equal(call(b, "x\n", 50, &answer, &detail), VERDICT_TO);
	assert_string_equal(detail, "game time exceeded");
	free(detail);
	finish(b);
}

static void
test_garbage(void **state)
{
	struct bot *b = start("sh ./garbage.sh", NULL);
	char *answer, *detail;

	(void)state;
	assert_int_equal(call(b, "x\n", 5000, &answer, &detail), VERDICT_OK);
	assert_string_equal(answer, "\001\002 garbage ### x");
	free(answer);
	finish(b);
}

static void
test_early_exit(void **state)
{
	struct bot *b = start("sh ./early.sh", NULL);
	char *answer, *detail;

	(void)state;
	assert_int_equal(call(b, "x\n", 5000, &answer, &detail), VERDICT_OK);
	assert_string_equal(answer, "first");
	free(answer);
	assert_int_equal(call(b, "x\n", 5000, &answer, &detail), VERDICT_RE);
	assert_string_equal(detail, "exited with code 3");
	free(detail);
	finish(b);
}

static void
test_flood(void **state)
{
	struct bot *b = start("sh ./flood.sh", NULL);
	char *answer, *detail;

	(void)state;
	assert_int_equal(call(b, "x\n", 5000, &answer, &detail), VERDICT_OL);
	free(detail);
	finish(b);
}

static void
test_memory(void **state)
{
	struct spec_limits lim = { 2000, 5000, 64, 128 };
	struct bot *b = start("sh ./memory.sh", &lim);
	char *answer, *detail;
	enum verdict v;

	(void)state;
	assert_int_equal(bot_call(b, "x\n", lim.call_ms, 5000, &answer, &v,
	    &detail), 0);
	/* ML when we saw it near the limit, else RE (see bot.h). */
	assert_true(v == VERDICT_ML || v == VERDICT_RE);
	print_message("memory bot: %s: %s\n", verdict_code(v), detail);
	free(detail);
	finish(b);
}

static void
test_resident(void **state)
{
	struct spec_limits lim = { 2000, 5000, 512, 16 };
	struct bot *b = start("sh ./resident.sh", &lim);
	char *answer, *detail;
	enum verdict v;

	(void)state;
	assert_int_equal(bot_call(b, "x\n", lim.call_ms, 5000, &answer, &v,
	    &detail), 0);
	assert_int_equal(v, VERDICT_ML);
	assert_non_null(strstr(detail, "resident"));
	free(detail);
	finish(b);
}

static void
test_forker(void **state)
{
	struct bot *b = start("sh ./forker.sh", NULL);
	char *answer, *detail;

	(void)state;
	assert_int_equal(call(b, "x\n", 5000, &answer, &detail), VERDICT_OK);
	free(answer);
	assert_true(group_count(bot_pgid(b)) >= 2);
	finish(b);
}

static void
test_missing_folder(void **state)
{
	struct bot *b = bot_new("/nonexistent/folder", "sh ./echo.sh", &limits,
	    log_path);
	char *answer, *detail;

	(void)state;
	assert_non_null(b);
	assert_int_equal(call(b, "x\n", 5000, &answer, &detail), VERDICT_RE);
	free(detail);
	finish(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_echo),
		cmocka_unit_test(test_crash),
		cmocka_unit_test(test_sleep),
		cmocka_unit_test(test_game_time),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_early_exit),
		cmocka_unit_test(test_flood),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_resident),
		cmocka_unit_test(test_forker),
		cmocka_unit_test(test_missing_folder),
	};
	const char *src = getenv("ARENA_SOURCE_DIR");

	log_init("test", false);
	snprintf(bots_dir, sizeof bots_dir, "%s/tests/data/bots",
	    src ? src : ".");
	snprintf(log_path, sizeof log_path, "/tmp/arena-test-bot-%d.log",
	    (int)getpid());
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	remove(log_path);
	return rc;
}
