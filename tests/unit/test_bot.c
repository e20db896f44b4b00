/* Unit tests for worker/bot with the script bots of tests/data/bots, each
 * run in the sandbox in a fresh copy of that folder: each misbehaviour
 * gives its verdict, the bot gets no CPU between calls (unless it may
 * ponder), the call's clock is the one the limits name, and no process of
 * its sandbox's uids outlives bot_free(). Needs root (the sandbox does). */
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
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/tree.h"
#include "sandbox/sandbox.h"
#include "worker/bot.h"

static char bots_src[4096];
static char tmp_dir[64];
static char log_path[128];
static const struct spec_limits limits = { .call_ms = 200,
    .game_ms = 5000, .memory_mb = 256, .resident_mb = 128,
    .clock = SPEC_CLOCK_WALL, .ponder = false };

struct tbot {
	struct bot *b;
	char *box;		/* its copy of tests/data/bots */
	int slot;		/* its sandbox's slot: its uids */
};

/* The real uid of pid from its status, or -1 when gone or a zombie. */
static long
proc_uid(const char *pid)
{
	char path[64], line[256], state = 0;
	long uid = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%s/status", pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "State:", 6) == 0)
			sscanf(line + 6, " %c", &state);
		else if (strncmp(line, "Uid:", 4) == 0)
			uid = strtol(line + 4, NULL, 10);
	}
	fclose(f);
	return state == 'Z' ? -1 : uid;
}

/* Live processes running as the slot's command or setup uid. */
static int
slot_count(int slot)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	long uid;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		uid = proc_uid(de->d_name);
		if (uid == SANDBOX_BOT_UID_BASE + slot ||
		    uid == SANDBOX_SETUP_UID_BASE + slot)
			n++;
	}
	closedir(d);
	return n;
}

static struct tbot
start(const char *run, const struct spec_limits *lim)
{
	static int n;
	struct tbot t;
	char pid[16];
	long uid;

	t.box = xasprintf("%s/box-%d", tmp_dir, n++);
	assert_int_equal(tree_copy(bots_src, t.box, SANDBOX_FILES_UID,
	    SANDBOX_FILES_GID), 0);
	t.b = bot_new(t.box, run, lim ? lim : &limits, log_path);
	assert_non_null(t.b);
	snprintf(pid, sizeof pid, "%d", (int)bot_pid(t.b));
	uid = proc_uid(pid);
	assert_in_range(uid, SANDBOX_BOT_UID_BASE, SANDBOX_BOT_UID_BASE + 255);
	t.slot = (int)(uid - SANDBOX_BOT_UID_BASE);
	return t;
}

/* One call; returns the verdict, *answer or *detail as the bot left. */
static enum verdict
call(struct tbot *t, const char *req, int64_t call_ms, int64_t remaining,
    char **answer, char **detail)
{
	enum verdict v;

	assert_int_equal(bot_call(t->b, req, call_ms, remaining, answer, &v,
	    detail), 0);
	assert_true(v == VERDICT_OK ? *answer && !*detail : !*answer &&
	    *detail);
	return v;
}

/* A call that must fault with v; returns its detail (caller frees). */
static char *
call_fault(struct tbot *t, const char *req, int64_t call_ms,
    enum verdict v)
{
	char *answer, *detail;

	assert_int_equal(call(t, req, call_ms, 5000, &answer, &detail), v);
	print_message("%s: %s\n", verdict_code(v), detail);
	return detail;
}

/* A call that must answer `want`. */
static void
call_ok(struct tbot *t, const char *req, int64_t call_ms, const char *want)
{
	char *answer, *detail;
	enum verdict v = call(t, req, call_ms, 5000, &answer, &detail);

	if (v != VERDICT_OK)
		fail_msg("%s: %s", verdict_code(v), detail);
	assert_string_equal(answer, want);
	free(answer);
}

static void
finish(struct tbot *t, struct bot_usage *usage)
{
	struct bot_usage u;

	bot_end(t->b, &u);
	assert_true(u.wall_ms >= 0 && u.cpu_ms >= 0 && u.peak_kb >= 0);
	bot_free(t->b);
	/* sandbox_free() waits for its cgroup to empty: nothing may linger. */
	assert_int_equal(slot_count(t->slot), 0);
	assert_int_equal(tree_remove(t->box), 0);
	free(t->box);
	if (usage)
		*usage = u;
}

static void
test_echo(void **state)
{
	struct tbot t = start("sh ./echo.sh", NULL);

	(void)state;
	for (int i = 0; i < 3; i++)
		call_ok(&t, "hello\n", 200, "ok hello");
	finish(&t, NULL);
}

/* The CPU time the spinner reports in its answer; its thread spins on. */
static long
spinner_cpu(struct tbot *t)
{
	char *answer, *detail;
	long ms;

	assert_int_equal(call(t, "x\n", 1000, 5000, &answer, &detail),
	    VERDICT_OK);
	ms = strtol(answer, NULL, 10);
	free(answer);
	return ms;
}

/* Frozen between calls: a thread that spins after the answer gets no CPU
 * until the next call, and is killed with the bot at the end. */
static void
test_frozen(void **state)
{
	struct tbot t = start("sh ./spinner.sh", NULL);
	long before, after;

	(void)state;
	before = spinner_cpu(&t);
	usleep(500000);
	after = spinner_cpu(&t);
	print_message("frozen: %ld ms of CPU between calls\n", after - before);
	assert_true(after - before < 100);
	finish(&t, NULL);
}

/* With ponder the same thread computes between calls. */
static void
test_ponder(void **state)
{
	struct spec_limits lim = limits;
	struct tbot t;
	long before, after;

	(void)state;
	lim.ponder = true;
	t = start("sh ./spinner.sh", &lim);
	before = spinner_cpu(&t);
	usleep(600000);
	after = spinner_cpu(&t);
	print_message("pondering: %ld ms of CPU between calls\n",
	    after - before);
	assert_true(after - before >= 150);
	finish(&t, NULL);
}

static void
test_crash(void **state)
{
	struct tbot t = start("sh ./crash.sh", NULL);
	char *detail = call_fault(&t, "x\n", 1000, VERDICT_RE);

	(void)state;
	assert_non_null(strstr(detail, "SIGSEGV"));
	free(detail);
	/* Dead for every later call. */
	free(call_fault(&t, "x\n", 1000, VERDICT_RE));
	finish(&t, NULL);
}

static void
test_sleep(void **state)
{
	struct tbot t = start("sh ./sleep.sh", NULL);
	int64_t t0 = clock_now_ms(), ms;
	char *detail = call_fault(&t, "x\n", 200, VERDICT_TO);

	(void)state;
	ms = clock_now_ms() - t0;
	assert_true(ms >= 200 && ms < 1500);
	assert_non_null(strstr(detail, "200 ms (wall clock)"));
	free(detail);
	assert_true(slot_count(t.slot) >= 1);	/* sleep is in it, frozen */
	finish(&t, NULL);
}

static void
test_game_time(void **state)
{
	struct tbot t = start("sh ./sleep.sh", NULL);
	char *answer, *detail;

	(void)state;
	/* Less game time left than the call limit: that is the deadline. */
	assert_int_equal(call(&t, "x\n", 200, 50, &answer, &detail),
	    VERDICT_TO);
	assert_string_equal(detail, "game time exceeded (wall clock)");
	free(detail);
	finish(&t, NULL);
}

static void
test_garbage(void **state)
{
	struct tbot t = start("sh ./garbage.sh", NULL);

	(void)state;
	call_ok(&t, "x\n", 1000, "\001\002 garbage ### x");
	finish(&t, NULL);
}

static void
test_early_exit(void **state)
{
	struct tbot t = start("sh ./early.sh", NULL);
	char *detail;

	(void)state;
	call_ok(&t, "x\n", 1000, "first");
	detail = call_fault(&t, "x\n", 1000, VERDICT_RE);
	assert_non_null(strstr(detail, "exit code 3"));
	free(detail);
	finish(&t, NULL);
}

static void
test_flood(void **state)
{
	struct tbot t = start("sh ./flood.sh", NULL);

	(void)state;
	free(call_fault(&t, "x\n", 1000, VERDICT_OL));
	finish(&t, NULL);
}

/* Over memory_mb during a call: the memory cgroup kills it. */
static void
test_memory(void **state)
{
	struct spec_limits lim = limits;
	struct tbot t;
	struct bot_usage u;
	char *detail;

	(void)state;
	lim.memory_mb = 64;
	t = start("sh ./memory.sh", &lim);
	detail = call_fault(&t, "x\n", 3000, VERDICT_ML);
	assert_non_null(strstr(detail, "memory limit of 64 MB"));
	free(detail);
	finish(&t, &u);
	assert_true(u.peak_kb >= 48 * 1024);
}

/* Under memory_mb but over resident_mb once it has answered. */
static void
test_resident(void **state)
{
	struct spec_limits lim = limits;
	struct tbot t;
	char *detail;

	(void)state;
	lim.resident_mb = 16;
	t = start("sh ./resident.sh", &lim);
	detail = call_fault(&t, "x\n", 3000, VERDICT_ML);
	assert_non_null(strstr(detail, "resident"));
	free(detail);
	finish(&t, NULL);
}

/* A bot may not start processes: fork fails, and nothing is left. */
static void
test_forker(void **state)
{
	struct tbot t = start("sh ./forker.sh", NULL);

	(void)state;
	call_ok(&t, "x\n", 1000, "refused");
	assert_int_equal(slot_count(t.slot), 2);	/* pid 1 and the bot */
	finish(&t, NULL);
}

static void
test_ptrace(void **state)
{
	struct tbot t = start("sh ./ptrace.sh", NULL);
	char *detail = call_fault(&t, "x\n", 1000, VERDICT_SV);

	(void)state;
	assert_non_null(strstr(detail, "seccomp"));
	free(detail);
	finish(&t, NULL);
}

/* On the CPU clock a call is charged what it computes. */
static void
test_cpu_clock(void **state)
{
	struct spec_limits lim = limits;
	struct tbot t;
	struct bot_usage u;
	char *detail;

	(void)state;
	lim.clock = SPEC_CLOCK_CPU;
	t = start("sh ./spin.sh", &lim);
	call_ok(&t, "0\n", 1000, "spun 0");	/* perl has started */
	call_ok(&t, "100\n", 200, "spun 100");
	detail = call_fault(&t, "300\n", 200, VERDICT_TO);
	assert_string_equal(detail, "no answer within 200 ms (CPU clock)");
	free(detail);
	finish(&t, &u);
	assert_true(u.cpu_ms >= 100);
}

/* On the CPU clock sleeping costs nothing, up to the wall backstop; on the
 * wall clock the same nap is too long. */
static void
test_cpu_clock_sleep(void **state)
{
	struct spec_limits lim = limits;
	struct tbot t;
	int64_t t0, ms;
	char *detail;

	(void)state;
	lim.clock = SPEC_CLOCK_CPU;
	t = start("sh ./nap.sh", &lim);
	call_ok(&t, "0\n", 1000, "slept 0");
	call_ok(&t, "300\n", 200, "slept 300");
	t0 = clock_now_ms();
	detail = call_fault(&t, "5000\n", 200, VERDICT_TO);
	ms = clock_now_ms() - t0;
	assert_true(ms >= BOT_WALL_FACTOR * 200 && ms < 2000);
	assert_string_equal(detail, "no answer within 200 ms (CPU clock)");
	free(detail);
	finish(&t, NULL);

	t = start("sh ./nap.sh", NULL);
	call_ok(&t, "0\n", 1000, "slept 0");
	t0 = clock_now_ms();
	detail = call_fault(&t, "300\n", 200, VERDICT_TO);
	ms = clock_now_ms() - t0;
	assert_true(ms >= 200 && ms < BOT_WALL_FACTOR * 200 + 1000);
	assert_string_equal(detail, "no answer within 200 ms (wall clock)");
	free(detail);
	finish(&t, NULL);
}

/* No folder to run in is our failure, not the bot's. */
static void
test_missing_folder(void **state)
{
	(void)state;
	assert_null(bot_new("/nonexistent/folder", "sh ./echo.sh", &limits,
	    log_path));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_echo),
		cmocka_unit_test(test_frozen),
		cmocka_unit_test(test_ponder),
		cmocka_unit_test(test_crash),
		cmocka_unit_test(test_sleep),
		cmocka_unit_test(test_game_time),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_early_exit),
		cmocka_unit_test(test_flood),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_resident),
		cmocka_unit_test(test_forker),
		cmocka_unit_test(test_ptrace),
		cmocka_unit_test(test_cpu_clock),
		cmocka_unit_test(test_cpu_clock_sleep),
		cmocka_unit_test(test_missing_folder),
	};
	const char *src = getenv("ARENA_SOURCE_DIR");
	int rc;

	log_init("test", false);
	snprintf(bots_src, sizeof bots_src, "%s/tests/data/bots",
	    src ? src : ".");
	snprintf(tmp_dir, sizeof tmp_dir, "/tmp/arena-test-bot-XXXXXX");
	/* The sandbox's uids must reach the copies inside. */
	if (mkdtemp(tmp_dir) == NULL || chmod(tmp_dir, 0755) == -1) {
		perror("test_bot: temporary folder");
		return 1;
	}
	snprintf(log_path, sizeof log_path, "%s/bots.log", tmp_dir);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (tree_remove(tmp_dir) == -1)
		rc = 1;
	return rc;
}
