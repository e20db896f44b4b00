/* Unit tests for per-turn bots (worker/turnbot through worker/bot.h's
 * bot_new_per_turn): in ARG and FILES modes, tiny shell bots written by
 * the test answer, run late (TO, the answer ""), crash (RE), stay silent
 * (OK with the answer "": the game's own "no answer"), flood (OL), keep
 * state in their folder between calls (wiped after the game), and plant
 * symlinks and FIFOs (SV, never followed, never a hang); no process
 * outlives its call. Also the persistent bots' protocol checks:
 * answering twice, writing before being asked, writing after the game.
 * Needs root (the sandbox does). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
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

static char tmp_dir[64];
static char victim[128];	/* a file of ours plant.sh links to */
static char src_dir[128];	/* the bots' built folder */
static char log_path[128];
static const struct spec_limits limits = { .call_ms = 1000,
    .game_ms = 5000, .memory_mb = 256, .resident_mb = 128,
    .clock = SPEC_CLOCK_WALL, .ponder = false };
static struct spec_limits lim;	/* this test's: limits unless changed */

/* The bots. Shell builtins only: a bot may not start processes. */
static const char *const scripts[][2] = {
	{ "answer.sh", "printf 'got %s\\n' \"$1\"\n" },
	{ "count.sh", "n=0\n[ -f count ] && read -r n < count\nn=$((n + 1))\n"
	    "echo $n > count\necho $n\n" },
	{ "spin.sh", "while :; do :; done\n" },
	{ "early.sh", "echo early\nwhile :; do :; done\n" },
	{ "crash.sh", "kill -SEGV $$\n" },
	{ "exit3.sh", "echo 'too late to count'\nexit 3\n" },
	{ "silent.sh", "exit 0\n" },
	{ "flood.sh", "while :; do printf xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; "
	    "done\n" },
	{ "files.sh", "read -r a < input.txt\n{ read -r b; read -r b; } "
	    "< input.txt\necho \"ans $a/$b\" > output.txt\n" },
	{ "files_spin.sh", "echo spun > output.txt\nwhile :; do :; done\n" },
	{ "twice.sh", "while read -r l; do printf 'a\\nb\\n'; done\n" },
	{ "eager.sh", "echo hello\nwhile read -r l; do echo ok; done\n" },
	{ "after.sh", "while read -r l; do echo ok; done\necho after\n" },
	{ "echo.sh", "while read -r l; do echo \"ok $l\"; done\n" },
	{ "pid.sh", "echo $$\n" },
	{ "tmp.sh", "if [ -f /tmp/mark ]; then echo stale; else echo fresh; fi\n"
	    "echo > /tmp/mark\n" },
	{ "ipc.py", "import ctypes\nc = ctypes.CDLL(None)\n"
	    "had = c.shmget(4321, 0, 0) != -1\n"
	    "c.shmget(4321, 1 << 20, 0o1600)\n"
	    "print('stale' if had else 'fresh')\n" },
	{ "rewrite.sh", "if [ -f done ]; then read -r l < input.txt\n"
	    "[ \"$l\" = 'real 2' ] && exit 0\nexit 5\nfi\necho > done\n"
	    "echo forged > input.txt\necho '0 0 0 0' > output.txt\n" },
	{ "chatty.py", "import fcntl, os, sys\n"
	    "nb = fcntl.fcntl(1, fcntl.F_GETFL) & os.O_NONBLOCK\n"
	    "print('non-blocking' if nb else 'ans')\nsys.stdout.flush()\n"
	    "print('x' * 300000)\n" },
	{ "litter.py", "for i in range(17000):\n"
	    "    open('f%d' % i, 'w').close()\nprint('done')\n" },
	{ "mem.sh", "if [ -f done ]; then echo fine; exit 0; fi\necho > done\n"
	    "s=xxxxxxxx\nwhile :; do s=\"$s$s\"; done\n" },
};

/* A per-turn bot on a private copy of the bots. */
static struct bot *
start(const char *run, enum game_bots mode)
{
	struct bot *b = bot_new_per_turn(src_dir, run, mode, &lim, log_path);

	assert_non_null(b);
	assert_int_equal(bot_pid(b), -1);
	return b;
}

/* One call; returns its verdict; *answer always set, *detail on a
 * fault (caller frees both). */
static enum verdict
call(struct bot *b, const char *view, int64_t remaining, char **answer,
    char **detail)
{
	enum verdict v;

	assert_int_equal(bot_call(b, view, lim.call_ms, remaining, answer,
	    &v, detail), 0);
	assert_non_null(*answer);
	assert_true(v == VERDICT_OK ? *detail == NULL : *detail != NULL);
	if (v != VERDICT_OK) {
		print_message("%s: %s\n", verdict_code(v), *detail);
		assert_string_equal(*answer, "");
	}
	return v;
}

static void
call_ok(struct bot *b, const char *view, const char *want)
{
	char *answer, *detail;
	enum verdict v = call(b, view, lim.game_ms, &answer, &detail);

	if (v != VERDICT_OK)
		fail_msg("%s: %s", verdict_code(v), detail);
	assert_string_equal(answer, want);
	free(answer);
}

/* A call that must fail with v and a detail holding want. */
static void
call_fault(struct bot *b, const char *view, enum verdict v, const char *want)
{
	char *answer, *detail;

	assert_int_equal(call(b, view, lim.game_ms, &answer, &detail), v);
	assert_non_null(strstr(detail, want));
	free(answer);
	free(detail);
}

/* Live (not zombie) processes whose command line holds marker. */
static int
marked(const char *marker)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	char path[300], buf[4096], state[512];
	int n = 0, fd;
	ssize_t len;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof path, "/proc/%s/cmdline", de->d_name);
		if ((fd = open(path, O_RDONLY)) == -1)
			continue;
		len = read(fd, buf, sizeof buf - 1);
		close(fd);
		for (ssize_t i = 0; i < len; i++)
			if (buf[i] == '\0')
				buf[i] = ' ';
		buf[len > 0 ? len : 0] = '\0';
		snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
		if ((fd = open(path, O_RDONLY)) == -1)
			continue;
		len = read(fd, state, sizeof state - 1);
		close(fd);
		state[len > 0 ? len : 0] = '\0';
		if (strstr(buf, marker) && !strstr(state, ") Z"))
			n++;
	}
	closedir(d);
	return n;
}

/* Ends the game: usage back. */
static void
finish(struct bot *b, struct bot_usage *usage)
{
	struct bot_usage u;

	bot_end(b, &u);
	assert_true(u.wall_ms >= 0 && u.cpu_ms >= 0 && u.peak_kb >= 0);
	bot_free(b);
	if (usage)
		*usage = u;
}

/* ARG: the view is one argument, quoted: no shell sees its contents. */
static void
test_arg_answer(void **state)
{
	static char big[100 * 101 + 2], want[sizeof big + 4];
	struct bot *b = start("sh ./answer.sh", GAME_BOTS_PER_TURN_ARG);

	(void)state;
	call_ok(b, "1,ab..\n", "got 1,ab..");
	call_ok(b, "it's $(id) `id` \"q\" ;id\n", "got it's $(id) `id` "
	    "\"q\" ;id");
	/* A 100x100 Slime view. */
	memset(big, '.', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memcpy(want, "got ", 4);
	memcpy(want + 4, big, sizeof big);
	call_ok(b, big, want);
	finish(b, NULL);
}

/* The folder is its memory between calls, and a new game starts afresh. */
static void
test_folder_kept(void **state)
{
	struct bot_usage u;
	struct bot *b = start("sh ./count.sh", GAME_BOTS_PER_TURN_ARG);

	(void)state;
	call_ok(b, "x\n", "1");
	call_ok(b, "x\n", "2");
	call_ok(b, "x\n", "3");
	finish(b, &u);
	assert_true(u.peak_kb > 0);
	b = start("sh ./count.sh", GAME_BOTS_PER_TURN_ARG);
	call_ok(b, "x\n", "1");
	finish(b, NULL);
}

/* Late: TO, the answer "", killed at the call limit (no process left),
 * and the next call is made as usual. */
static void
test_late(void **state)
{
	struct bot_usage u;
	char marker[64];
	struct bot *b = start("sh ./spin.sh", GAME_BOTS_PER_TURN_ARG);
	int64_t t0;

	(void)state;
	snprintf(marker, sizeof marker, "spin-marker-%d", (int)getpid());
	lim.call_ms = 100;	/* Slime's */
	for (int i = 0; i < 2; i++) {
		t0 = clock_now_ms();
		call_fault(b, marker, VERDICT_TO, "no answer within 100 ms "
		    "(wall clock)");
		assert_true(clock_now_ms() - t0 < 1000);
		assert_true(bot_last_ms(b) >= 100 && bot_last_ms(b) < 500);
		assert_int_equal(marked(marker), 0);
	}
	finish(b, &u);
	lim = limits;
	assert_true(u.wall_ms >= 200);
	/* It spun on its CPU both times (sharing it, on a busy machine). */
	assert_true(u.cpu_ms > 0 && u.cpu_ms <= u.wall_ms + 50);
}

/* Its stdout is an ordinary (blocking) pipe: 300 KB after its answer are
 * read and dropped while it writes them, and it exits normally. */
static void
test_chatty(void **state)
{
	struct bot *b;

	(void)state;
	lim.call_ms = 5000;
	b = start("python3 ./chatty.py", GAME_BOTS_PER_TURN_ARG);
	call_ok(b, "x", "ans");
	finish(b, NULL);
	lim = limits;
}

/* An answer given before the deadline stands though it was killed. */
static void
test_answered_then_late(void **state)
{
	struct bot *b = start("sh ./early.sh", GAME_BOTS_PER_TURN_ARG);

	(void)state;
	call_ok(b, "x", "early");
	finish(b, NULL);
}

/* No game time left: TO at once, without starting it. */
static void
test_game_time(void **state)
{
	char *answer, *detail;
	struct bot *b = start("sh ./answer.sh", GAME_BOTS_PER_TURN_ARG);

	(void)state;
	assert_int_equal(call(b, "x\n", 0, &answer, &detail), VERDICT_TO);
	assert_string_equal(detail, "game time exceeded (wall clock)");
	free(answer);
	free(detail);
	/* Less left than the call limit: that is the deadline. */
	bot_free(b);
	b = start("sh ./spin.sh", GAME_BOTS_PER_TURN_ARG);
	assert_int_equal(call(b, "x\n", 30, &answer, &detail), VERDICT_TO);
	assert_string_equal(detail, "game time exceeded (wall clock)");
	assert_true(bot_last_ms(b) >= 30 && bot_last_ms(b) < 500);
	free(answer);
	free(detail);
	finish(b, NULL);
}

static void
test_crash_and_silence(void **state)
{
	struct bot *b = start("sh ./crash.sh", GAME_BOTS_PER_TURN_ARG);

	(void)state;
	call_fault(b, "x", VERDICT_RE, "SIGSEGV");
	call_fault(b, "x", VERDICT_RE, "SIGSEGV");	/* each call anew */
	finish(b, NULL);
	b = start("sh ./exit3.sh", GAME_BOTS_PER_TURN_ARG);
	call_fault(b, "x", VERDICT_RE, "exit code 3");
	finish(b, NULL);
	b = start("sh ./silent.sh", GAME_BOTS_PER_TURN_ARG);
	call_ok(b, "x", "");	/* silence is the game's "no answer" */
	finish(b, NULL);
	b = start("sh ./flood.sh", GAME_BOTS_PER_TURN_ARG);
	call_fault(b, "x", VERDICT_OL, "wrote over");
	finish(b, NULL);
}

/* FILES: input.txt holds the view; the answer is output.txt's first
 * line, read even when it was killed at the call limit. */
static void
test_files(void **state)
{
	struct bot *b = start("sh ./files.sh", GAME_BOTS_PER_TURN_FILES);

	(void)state;
	call_ok(b, "7\n3 4\n", "ans 7/3 4");
	call_ok(b, "8\n5 6\n", "ans 8/5 6");
	finish(b, NULL);
	b = start("sh ./files_spin.sh", GAME_BOTS_PER_TURN_FILES);
	call_ok(b, "1\n", "spun");
	finish(b, NULL);
	/* No output.txt: the stale one of the last call is not reused. */
	b = start("sh ./silent.sh", GAME_BOTS_PER_TURN_FILES);
	call_ok(b, "1\n", "");
	finish(b, NULL);
}

/* output.txt as a symlink out of its folder or as a FIFO: SV at once. */
static void
test_files_traps(void **state)
{
	struct bot *b;
	int64_t t0;

	(void)state;
	b = start("ln -s /etc/passwd output.txt", GAME_BOTS_PER_TURN_FILES);
	call_fault(b, "1\n", VERDICT_SV, "output.txt is a symlink");
	finish(b, NULL);
	b = start("mkfifo output.txt", GAME_BOTS_PER_TURN_FILES);
	t0 = clock_now_ms();
	call_fault(b, "1\n", VERDICT_SV, "output.txt is not a regular file");
	assert_true(clock_now_ms() - t0 < 1000);
	/* Its FIFO is replaced by our next call, not opened. */
	call_fault(b, "1\n", VERDICT_SV, "not a regular file");
	finish(b, NULL);
	/* A 60 MB sparse file: only its first 64 KB are read. */
	b = start("truncate -s 60M output.txt", GAME_BOTS_PER_TURN_FILES);
	t0 = clock_now_ms();
	call_fault(b, "1\n", VERDICT_OL, "first line is longer");
	assert_true(clock_now_ms() - t0 < 1000);
	finish(b, NULL);
	/* A hard link to its input (nothing else is on its mount). */
	b = start("ln input.txt output.txt", GAME_BOTS_PER_TURN_FILES);
	call_ok(b, "12 34\nmore\n", "12 34");
	finish(b, NULL);
}

/* A forged input.txt and a stale output.txt left for the next call: the
 * next call gets its own input (or it exits 5) and no answer it did not
 * write. */
static void
test_files_stale(void **state)
{
	struct bot *b = start("sh ./rewrite.sh", GAME_BOTS_PER_TURN_FILES);

	(void)state;
	call_ok(b, "real 1\n", "0 0 0 0");
	call_ok(b, "real 2\n", "");
	finish(b, NULL);
}

/* What a bot planted as input.txt (a symlink to a file of ours) or as
 * output.txt (a folder) is removed, never written through or read. */
static void
test_files_planted(void **state)
{
	char buf[16];
	struct bot *b = start("sh ./plant.sh", GAME_BOTS_PER_TURN_FILES);
	ssize_t n;
	int fd;

	(void)state;
	call_ok(b, "1\nx\n", "first");		/* then plants its link */
	call_fault(b, "2\ny\n", VERDICT_SV, "not a regular file");
	call_ok(b, "3\nz\n", "ans 3");
	fd = open(victim, O_RDONLY);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	assert_string_equal(buf, "orig\n");
	finish(b, NULL);
}

/* Calls after the first reuse the seat's sandbox: each is a new process
 * (pids grow in its pid namespace) with a fresh /tmp and IPC namespace,
 * so nothing but the folder carries over. */
static void
test_reuse(void **state)
{
	char *answer, *detail;
	struct bot *b = start("sh ./pid.sh", GAME_BOTS_PER_TURN_ARG);
	long first, second;

	(void)state;
	assert_int_equal(call(b, "x", 5000, &answer, &detail), VERDICT_OK);
	first = strtol(answer, NULL, 10);
	free(answer);
	assert_int_equal(call(b, "x", 5000, &answer, &detail), VERDICT_OK);
	second = strtol(answer, NULL, 10);
	free(answer);
	assert_true(first >= 2 && second > first);
	finish(b, NULL);
	b = start("sh ./tmp.sh", GAME_BOTS_PER_TURN_ARG);
	call_ok(b, "x", "fresh");
	call_ok(b, "x", "fresh");
	finish(b, NULL);
	lim.call_ms = 3000;	/* python's start on a busy machine */
	b = start("python3 ./ipc.py", GAME_BOTS_PER_TURN_ARG);
	call_ok(b, "x", "fresh");
	call_ok(b, "x", "fresh");
	finish(b, NULL);
	lim = limits;
}

/* Killed by the memory cgroup: ML; the next call runs with its peak
 * counted afresh. */
static void
test_reuse_after_ml(void **state)
{
	struct bot_usage u;
	struct bot *b;

	(void)state;
	lim.memory_mb = 32;
	lim.call_ms = 5000;
	b = start("sh ./mem.sh", GAME_BOTS_PER_TURN_ARG);
	call_fault(b, "x", VERDICT_ML, "memory limit of 32 MB");
	call_ok(b, "x", "fine");
	finish(b, &u);
	assert_true(u.peak_kb >= 16 * 1024 && u.peak_kb <= 40 * 1024);
	lim = limits;
}

/* Its folder is a tmpfs of the sandbox's size, with 16384 entries at
 * most: filling it fails inside (here: python's ENOSPC, exit code 1),
 * never on the worker's disk; what it made stays for its next call. */
static void
test_folder_full(void **state)
{
	struct bot *b;

	(void)state;
	lim.call_ms = lim.game_ms = 60000;	/* a busy machine */
	b = start("python3 ./litter.py", GAME_BOTS_PER_TURN_ARG);
	call_fault(b, "x", VERDICT_RE, "exit code 1");
	call_fault(b, "x", VERDICT_RE, "exit code 1");
	finish(b, NULL);
	lim = limits;
}

/* A persistent bot on a private copy of the bots. */
static struct bot *
start_persistent(const char *run, const struct spec_limits *plim)
{
	struct bot *b = bot_new(src_dir, run, plim ? plim : &limits,
	    log_path);

	assert_non_null(b);
	return b;
}

static void
end_persistent(struct bot *b)
{
	bot_end(b, NULL);
	bot_free(b);
}

/* Two lines for one request: WA, the game ends. */
static void
test_answered_twice(void **state)
{
	struct bot *b = start_persistent("sh ./twice.sh", NULL);
	char *answer, *detail;
	enum verdict v;

	(void)state;
	assert_int_equal(bot_call(b, "x\n", 1000, 5000, &answer, &v,
	    &detail), 0);
	assert_int_equal(v, VERDICT_WA);
	assert_string_equal(detail, "answered twice");
	assert_null(answer);
	free(detail);
	end_persistent(b);
}

/* Output before its first request (it may ponder, so it runs). */
static void
test_wrote_before_asked(void **state)
{
	struct spec_limits ponder = limits;
	struct bot *b;
	char *answer, *detail;
	enum verdict v;

	(void)state;
	ponder.ponder = true;
	b = start_persistent("sh ./eager.sh", &ponder);
	usleep(300000);
	assert_int_equal(bot_call(b, "x\n", 1000, 5000, &answer, &v,
	    &detail), 0);
	assert_int_equal(v, VERDICT_WA);
	assert_string_equal(detail, "wrote before it was asked");
	free(detail);
	end_persistent(b);
}

/* After its last call: heard once the game is over (its input ends),
 * not before. */
static void
test_wrote_after_game(void **state)
{
	struct bot *b = start_persistent("sh ./after.sh", NULL);
	char *answer, *detail;
	enum verdict v;

	(void)state;
	assert_int_equal(bot_call(b, "x\n", 1000, 5000, &answer, &v,
	    &detail), 0);
	assert_int_equal(v, VERDICT_OK);
	assert_string_equal(answer, "ok");
	free(answer);
	bot_listen(b);
	assert_int_equal(bot_after_game(b, clock_now_ms() + 2000, &detail), 1);
	assert_string_equal(detail, "wrote after the game ended");
	free(detail);
	end_persistent(b);

	b = start_persistent("sh ./echo.sh", NULL);
	assert_int_equal(bot_call(b, "x\n", 1000, 5000, &answer, &v,
	    &detail), 0);
	assert_string_equal(answer, "ok x");
	free(answer);
	bot_listen(b);
	assert_int_equal(bot_after_game(b, clock_now_ms() + BOT_AFTER_MS,
	    &detail), 0);
	assert_null(detail);
	end_persistent(b);
}

/* Writes the bots into the built folder, owned as a build leaves it. */
static int
write_bots(void)
{
	FILE *f;
	char *path;

	if (mkdir(src_dir, 0755) == -1)
		return -1;
	for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
		path = xasprintf("%s/%s", src_dir, scripts[i][0]);
		f = fopen(path, "w");
		free(path);
		if (f == NULL || fputs(scripts[i][1], f) == EOF ||
		    fchown(fileno(f), SANDBOX_FILES_UID, SANDBOX_FILES_GID) ||
		    fclose(f) == EOF)
			return -1;
	}
	/* plant.sh names a file of ours: it links input.txt to it, then
	 * makes output.txt a folder, then answers. */
	snprintf(victim, sizeof victim, "%s/victim", tmp_dir);
	path = xasprintf("%s/plant.sh", src_dir);
	f = fopen(path, "w");
	free(path);
	if (f == NULL || fprintf(f, "if [ -f done2 ]; then read -r a < "
	    "input.txt; echo \"ans $a\" > output.txt; exit 0; fi\n"
	    "if [ -f done ]; then echo > done2; exec mkdir output.txt; fi\n"
	    "echo > done\necho first > output.txt\n"
	    "exec ln -sf %s input.txt\n", victim) < 0 ||
	    fchown(fileno(f), SANDBOX_FILES_UID, SANDBOX_FILES_GID) ||
	    fclose(f) == EOF)
		return -1;
	if ((f = fopen(victim, "w")) == NULL || fputs("orig\n", f) == EOF ||
	    fclose(f) == EOF)
		return -1;
	return chown(src_dir, SANDBOX_FILES_UID, SANDBOX_FILES_GID);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arg_answer),
		cmocka_unit_test(test_folder_kept),
		cmocka_unit_test(test_late),
		cmocka_unit_test(test_answered_then_late),
		cmocka_unit_test(test_chatty),
		cmocka_unit_test(test_game_time),
		cmocka_unit_test(test_crash_and_silence),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_files_traps),
		cmocka_unit_test(test_files_planted),
		cmocka_unit_test(test_files_stale),
		cmocka_unit_test(test_reuse),
		cmocka_unit_test(test_reuse_after_ml),
		cmocka_unit_test(test_folder_full),
		cmocka_unit_test(test_answered_twice),
		cmocka_unit_test(test_wrote_before_asked),
		cmocka_unit_test(test_wrote_after_game),
	};
	int rc;

	log_init("test", false);
	lim = limits;
	snprintf(tmp_dir, sizeof tmp_dir, "/tmp/arena-test-turnbot-XXXXXX");
	/* The sandbox's uids must reach the folders inside. */
	if (mkdtemp(tmp_dir) == NULL || chmod(tmp_dir, 0755) == -1) {
		perror("test_turnbot: temporary folder");
		return 1;
	}
	snprintf(src_dir, sizeof src_dir, "%s/built", tmp_dir);
	snprintf(log_path, sizeof log_path, "%s/bots.log", tmp_dir);
	if (write_bots() == -1) {
		perror("test_turnbot: bots");
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	sandbox_unprepare();
	if (tree_remove(tmp_dir) == -1)
		rc = 1;
	return rc;
}
