/*
 * Unit tests for sandbox/: each runs a real command in a real sandbox and
 * checks the verdict and then the machine: no process left with the
 * slot's uids, the slot's cgroups removed, its lock free. Needs root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/tree.h"
#include "sandbox/sandbox.h"

struct run {
	char dir[64];		/* the bot's folder */
	int out;		/* its stdout: dir/../out.txt */
	char out_path[80];
	struct sandbox *sb;
	int slot;
};

static int
setup(void **state)
{
	struct run *r = xcalloc(1, sizeof *r);

	snprintf(r->dir, sizeof r->dir, "/tmp/test-sandbox-XXXXXX");
	assert_non_null(mkdtemp(r->dir));
	assert_int_equal(chown(r->dir, SANDBOX_FILES_UID, SANDBOX_FILES_GID), 0);
	snprintf(r->out_path, sizeof r->out_path, "%s.out", r->dir);
	r->out = open(r->out_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(r->out >= 0);
	*state = r;
	return 0;
}

static int
teardown(void **state)
{
	struct run *r = *state;

	sandbox_free(r->sb);
	close(r->out);
	unlink(r->out_path);
	tree_remove(r->dir);
	free(r);
	return 0;
}

/* Starts o->command with r's folder and output. */
static void
start_opts(struct run *r, struct sandbox_opts *o)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	o->dir = r->dir;
	o->in = null;
	o->out = r->out;
	o->err = 2;
	r->sb = sandbox_new(o);
	close(null);
	assert_non_null(r->sb);
	r->slot = sandbox_slot(r->sb);
}

static void
start(struct run *r, const char *command, bool processes, bool frozen,
    int64_t memory_kb, int pids)
{
	struct sandbox_opts o = {
		.command = command, .processes = processes, .frozen = frozen,
		.limits = { .memory_kb = memory_kb, .pids = pids },
	};

	start_opts(r, &o);
}

static enum verdict
finish(struct run *r, int64_t timeout_ms, char **detail)
{
	enum verdict v;

	assert_int_equal(sandbox_wait(r->sb, timeout_ms, &v, detail), 0);
	return v;
}

/* Whether any process runs as one of the slot's uids. */
static bool
slot_processes(int slot)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[300];
	struct stat st;
	bool found = false;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9') {
			snprintf(path, sizeof path, "/proc/%s", e->d_name);
			if (stat(path, &st) == 0 &&
			    (st.st_uid == (uid_t)(SANDBOX_BOT_UID_BASE + slot) ||
			    st.st_uid == (uid_t)(SANDBOX_SETUP_UID_BASE + slot)))
				found = true;
		}
	closedir(d);
	return found;
}

static bool
slot_cgroups(int slot)
{
	static const char *const names[] = {
		"memory", "pids", "cpuacct", "freezer", "cpuset"
	};
	char line[512], path[1024];
	bool found = false;

	for (int i = 0; i < 5; i++) {
		FILE *f = fopen("/proc/self/cgroup", "r");
		assert_non_null(f);
		while (fgets(line, sizeof line, f)) {
			char *own = strrchr(line, ':');
			if (!strstr(line, names[i]) || !own)
				continue;
			own[strcspn(own, "\n")] = '\0';
			snprintf(path, sizeof path,
			    "/sys/fs/cgroup/%s%s/arena/slot-%d", names[i],
			    strcmp(own + 1, "/") == 0 ? "" : own + 1, slot);
			if (access(path, F_OK) == 0)
				found = true;
		}
		fclose(f);
	}
	return found;
}

/* After sandbox_free(): nothing of the slot is left. */
static void
assert_clean(struct run *r)
{
	char path[64];

	sandbox_free(r->sb);
	r->sb = NULL;
	assert_false(slot_processes(r->slot));
	assert_false(slot_cgroups(r->slot));
	snprintf(path, sizeof path, "/run/arena/sandbox/slot-%d.lock", r->slot);
	int fd = open(path, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	close(fd);
}

static char *
output(struct run *r)
{
	static char buf[4096];
	ssize_t n = pread(r->out, buf, sizeof buf - 1, 0);

	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

static void
check(struct run *r, const char *command, bool processes, enum verdict want,
    const char *detail_part)
{
	char *detail = NULL;

	start(r, command, processes, false, 256 * 1024, 0);
	enum verdict v = finish(r, 10000, &detail);
	if (v != want || (detail_part && !strstr(detail, detail_part)))
		fail_msg("'%s': %s (%s), want %s", command, verdict_code(v),
		    detail, verdict_code(want));
	free(detail);
}

static void
test_ok_with_usage(void **state)
{
	struct run *r = *state;
	struct sandbox_usage u;

	check(r, "python3 -c 'x = b\"a\" * (20 << 20); print(len(x))'", false,
	    VERDICT_OK, "exit code 0");
	assert_int_equal(sandbox_usage(r->sb, &u), 0);
	assert_true(u.cpu_ms >= 1);
	assert_true(u.peak_kb >= 20 * 1024);
	assert_string_equal(output(r), "20971520\n");
	assert_clean(r);
}

static void
test_exit_code(void **state)
{
	check(*state, "sh -c 'exit 3'", false, VERDICT_RE, "exit code 3");
	assert_clean(*state);
}

static void
test_signal(void **state)
{
	check(*state, "sh -c 'kill -SEGV $$'", false, VERDICT_RE, "SIGSEGV");
	assert_clean(*state);
}

static void
test_memory_bomb(void **state)
{
	struct run *r = *state;
	char *detail = NULL;

	start(r, "python3 -c 'x = b\"a\" * (200 << 20)'", false, false,
	    64 * 1024, 0);
	assert_int_equal(finish(r, 10000, &detail), VERDICT_ML);
	free(detail);
	assert_clean(r);
}

static void
test_fork(void **state)
{
	struct run *r = *state;

	check(r, "sh -c '/bin/true'", false, VERDICT_RE, "exit code 2");
	assert_clean(r);
	check(r, "sh -c '/bin/true; /bin/true'", true, VERDICT_OK, NULL);
	assert_clean(r);
}

static void
test_thread_bomb(void **state)
{
	struct run *r = *state;
	char *detail = NULL;

	start(r, "python3 -c '\nimport threading, time\nn = 0\ntry:\n"
	    "    while True:\n"
	    "        threading.Thread(target=time.sleep, args=(3,)).start()\n"
	    "        n += 1\nexcept RuntimeError:\n    print(n, flush=True)\n"
	    "import os\nos._exit(0)'", false, false, 256 * 1024, 16);
	assert_int_equal(finish(r, 10000, &detail), VERDICT_OK);
	free(detail);
	int n = atoi(output(r));
	assert_true(n >= 1 && n < 16);
	assert_clean(r);
}

static void
test_fork_bomb(void **state)
{
	struct run *r = *state;
	char *detail = NULL;

	start(r, "sh -c 'b() { b & b & }; b; sleep 1' 2>/dev/null", true, false,
	    256 * 1024, 16);
	(void)finish(r, 5000, &detail);
	free(detail);
	assert_clean(r);
}

static void
test_network(void **state)
{
	struct run *r = *state;
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof a;
	char command[512];
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(s, 1), 0);
	assert_int_equal(getsockname(s, (struct sockaddr *)&a, &len), 0);
	snprintf(command, sizeof command, "python3 -c '\nimport socket\n"
	    "try:\n    socket.create_connection((\"127.0.0.1\", %d), 1)\n"
	    "    print(\"connected\")\nexcept OSError:\n    print(\"no tcp\")\n"
	    "try:\n    socket.socket(40, socket.SOCK_STREAM)\n"
	    "    print(\"vsock\")\nexcept OSError:\n    print(\"no vsock\")'",
	    ntohs(a.sin_port));
	check(r, command, false, VERDICT_OK, NULL);
	assert_string_equal(output(r), "no tcp\nno vsock\n");
	close(s);
	assert_clean(r);
}

/* Creates dir/name (a file holding text, or a folder when text is NULL)
 * owned by the command's files uid, with mode. */
static void
make(struct run *r, const char *name, const char *text, mode_t mode)
{
	char path[128];

	snprintf(path, sizeof path, "%s/%s", r->dir, name);
	if (text) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		assert_int_equal(fclose(f), 0);
	} else {
		assert_int_equal(mkdir(path, 0700), 0);
	}
	assert_int_equal(chown(path, SANDBOX_FILES_UID, SANDBOX_FILES_GID), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static bool
exists(struct run *r, const char *name)
{
	char path[128];

	snprintf(path, sizeof path, "%s/%s", r->dir, name);
	return access(path, F_OK) == 0;
}

/* The private /box holds a copy of the folder (no set-id bits, no FIFO,
 * symlinks as such, everything the command's) and nothing written there
 * reaches the folder. */
static void
test_files(void **state)
{
	struct run *r = *state;
	char secret[] = "/tmp/test-sandbox-secret-XXXXXX";
	char command[1024], path[128];
	int fd = mkstemp(secret);

	assert_true(fd >= 0);
	close(fd);
	make(r, "data", "hello", 0600);
	make(r, "suid", "#!/bin/sh\necho run\n", 04755);
	make(r, "sub", NULL, 0500);
	make(r, "sub/inner", "deep", 0400);
	snprintf(path, sizeof path, "%s/link", r->dir);
	assert_int_equal(symlink("data", path), 0);
	snprintf(path, sizeof path, "%s/pipe", r->dir);
	assert_int_equal(mkfifo(path, 0666), 0);
	snprintf(command, sizeof command, "sh -c 'test ! -e /etc/shadow && "
	    "test ! -e /root && test ! -e %s && test ! -e /var/lib && "
	    "test \"$(cat data sub/inner)\" = hellodeep && test ! -u suid && "
	    "./suid && test -L link && test ! -e pipe && "
	    "test \"$(stat --printf \"%%u:%%a \" . data sub)\" = "
	    "\"1000:700 1000:600 1000:500 \" && echo -n written > /box/made && "
	    "echo -n more >> data'", secret);
	check(r, command, true, VERDICT_OK, NULL);
	unlink(secret);
	assert_string_equal(output(r), "run\n");
	assert_false(exists(r, "made"));
	snprintf(path, sizeof path, "%s/data", r->dir);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 5);
	assert_clean(r);
}

/* With keep_box, /box is the folder: what is written there stays, owned
 * by the files uid. */
static void
test_keep_box(void **state)
{
	struct run *r = *state;
	struct sandbox_opts o = {
		.command = "sh -c 'echo -n written > /box/made'",
		.keep_box = true,
	};
	char path[128], *detail = NULL;

	start_opts(r, &o);
	assert_int_equal(finish(r, 10000, &detail), VERDICT_OK);
	free(detail);
	snprintf(path, sizeof path, "%s/made", r->dir);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char buf[16] = "";
	assert_non_null(fgets(buf, sizeof buf, f));
	fclose(f);
	assert_string_equal(buf, "written");
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_uid, SANDBOX_FILES_UID);
	assert_clean(r);
}

/* /box stops at box_kb: the write fails with ENOSPC, and leaves nothing
 * behind on the disk. */
static void
test_box_full(void **state)
{
	struct run *r = *state;
	struct sandbox_opts o = {
		.command = "python3 -c '\nimport errno\ntry:\n"
		    "    open(\"/box/big\", \"wb\")"
		    ".write(b\"x\" * (16 << 20))\n"
		    "    print(\"written\")\nexcept OSError as e:\n"
		    "    print(errno.errorcode[e.errno])'",
		.limits = { .memory_kb = 256 * 1024, .box_kb = 8 * 1024 },
	};
	char *detail = NULL;

	start_opts(r, &o);
	assert_int_equal(finish(r, 10000, &detail), VERDICT_OK);
	free(detail);
	assert_string_equal(output(r), "ENOSPC\n");
	assert_false(exists(r, "big"));
	assert_clean(r);
}

/* Many spinning threads get one CPU: CPU time stays within wall time. */
static void
test_one_core(void **state)
{
	struct run *r = *state;
	struct sandbox_usage u;
	char *detail = NULL;
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* hashlib lets go of the GIL: the threads really run at once. */
	start(r, "python3 -c '\nimport hashlib, threading\n"
	    "b = b\"x\" * (1 << 20)\ndef spin():\n    while True:\n"
	    "        hashlib.sha256(b).digest()\nfor i in range(7):\n"
	    "    threading.Thread(target=spin, daemon=True).start()\n"
	    "spin()'", false, false, 256 * 1024, 0);
	assert_int_equal(finish(r, 1000, &detail), VERDICT_TO);
	free(detail);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_int_equal(sandbox_usage(r->sb, &u), 0);
	int64_t wall_ms = (t1.tv_sec - t0.tv_sec) * 1000 +
	    (t1.tv_nsec - t0.tv_nsec) / 1000000;
	if (u.cpu_ms > wall_ms + 50)
		fail_msg("cpu %lld ms in %lld ms of wall time",
		    (long long)u.cpu_ms, (long long)wall_ms);
	assert_true(u.cpu_ms >= 500);
	assert_clean(r);
}

static void
test_seccomp_kill(void **state)
{
	/* ptrace (101 on x86-64) is one of the calls that kill: SV. */
	check(*state, "python3 -c 'import ctypes; "
	    "ctypes.CDLL(None).syscall(101, 0, 0, 0, 0)'", false, VERDICT_SV,
	    "seccomp");
	assert_clean(*state);
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static void
test_freeze(void **state)
{
	struct run *r = *state;
	struct sandbox_usage a, b, c;

	start(r, "sh -c 'while :; do :; done'", false, true, 0, 0);
	sleep_ms(100);
	assert_int_equal(sandbox_usage(r->sb, &a), 0);
	assert_true(a.cpu_ms < 5);
	assert_int_equal(sandbox_thaw(r->sb), 0);
	sleep_ms(200);
	assert_int_equal(sandbox_freeze(r->sb), 0);
	assert_int_equal(sandbox_usage(r->sb, &b), 0);
	assert_true(b.cpu_ms >= 50);
	sleep_ms(300);
	assert_int_equal(sandbox_usage(r->sb, &c), 0);
	assert_true(c.cpu_ms - b.cpu_ms <= 1);
	enum verdict v;
	char *detail = NULL;
	assert_int_equal(sandbox_ended(r->sb, &v, &detail), 0);
	assert_clean(r);
}

static void
test_leftovers(void **state)
{
	struct run *r = *state;

	start(r, "sh -c '(sleep 100 &); setsid sleep 100 & sleep 100'", true,
	    false, 0, 0);
	sleep_ms(200);
	assert_true(slot_processes(r->slot));
	assert_clean(r);
}

static void
test_timeout(void **state)
{
	struct run *r = *state;
	char *detail = NULL;

	start(r, "sleep 10", false, false, 0, 0);
	assert_int_equal(finish(r, 200, &detail), VERDICT_TO);
	assert_non_null(strstr(detail, "200 ms"));
	free(detail);
	assert_clean(r);
}

/* Processes of the slot's command uid whose command line holds needle. */
static int
slot_commands(int slot, const char *needle)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[300], buf[1024];
	struct stat st;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s", e->d_name);
		if (stat(path, &st) < 0 ||
		    st.st_uid != (uid_t)(SANDBOX_BOT_UID_BASE + slot))
			continue;
		snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
		if (fd >= 0)
			close(fd);
		for (ssize_t i = 0; i < len; i++)
			buf[i] = buf[i] ? buf[i] : ' ';
		buf[len > 0 ? len : 0] = '\0';
		n += strstr(buf, needle) != NULL;
	}
	closedir(d);
	return n;
}

/* The next command in r's sandbox (made with again). */
static int
again(struct run *r, struct sandbox_opts *o, const char *command)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC), rc;

	o->command = command;
	o->in = null;
	rc = sandbox_again(r->sb, o);
	close(null);
	return rc;
}

/* One sandbox, several commands (a per-turn bot's calls): each ends with
 * nothing of it left, its usage its own; then everything goes. */
static void
test_again(void **state)
{
	struct run *r = *state;
	struct sandbox_usage u;
	struct sandbox_opts o = { .again = true, .keep_box = true,
	    .command = "python3 -c 'import threading, time\n"
	    "threading.Thread(target=time.sleep, args=(100,)).start()\n"
	    "print(\"first\", flush=True)'",
	    .limits = { .memory_kb = 256 * 1024 } };
	char *detail = NULL;
	int slot;

	start_opts(r, &o);
	slot = r->slot;
	/* Its thread keeps it alive: killed at the limit, thread and all. */
	assert_int_equal(finish(r, 1000, &detail), VERDICT_TO);
	free(detail);
	assert_int_equal(slot_commands(slot, "threading"), 0);
	assert_non_null(strstr(output(r), "first"));
	assert_int_equal(again(r, &o, "python3 -c 'x = b\"a\" * (40 << 20); "
	    "print(\"big\")'"), 0);
	assert_int_equal(finish(r, 10000, &detail), VERDICT_OK);
	free(detail);
	assert_int_equal(sandbox_usage(r->sb, &u), 0);
	assert_true(u.peak_kb >= 40 * 1024);
	assert_int_equal(again(r, &o, "echo again"), 0);
	assert_int_equal(sandbox_slot(r->sb), slot);
	assert_int_equal(finish(r, 10000, &detail), VERDICT_OK);
	free(detail);
	assert_non_null(strstr(output(r), "big\nagain\n"));
	/* Peak and CPU count from this run's start. */
	assert_int_equal(sandbox_usage(r->sb, &u), 0);
	assert_true(u.peak_kb < 40 * 1024 && u.cpu_ms < 100);
	assert_clean(r);
	/* Only a sandbox made for it runs again. */
	start(r, "true", false, false, 0, 0);
	assert_int_equal(finish(r, 10000, &detail), VERDICT_OK);
	free(detail);
	assert_int_equal(again(r, &o, "true"), -1);
	assert_clean(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ok_with_usage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exit_code, setup, teardown),
		cmocka_unit_test_setup_teardown(test_signal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memory_bomb, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork, setup, teardown),
		cmocka_unit_test_setup_teardown(test_thread_bomb, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fork_bomb, setup, teardown),
		cmocka_unit_test_setup_teardown(test_network, setup, teardown),
		cmocka_unit_test_setup_teardown(test_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_box, setup, teardown),
		cmocka_unit_test_setup_teardown(test_box_full, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_core, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seccomp_kill, setup, teardown),
		cmocka_unit_test_setup_teardown(test_freeze, setup, teardown),
		cmocka_unit_test_setup_teardown(test_leftovers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_again, setup, teardown),
	};

	if (geteuid() != 0) {
		fprintf(stderr, "test_sandbox: skipped, needs root\n");
		return 0;
	}
	log_init("test", false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
