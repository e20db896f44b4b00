/*
 * sandbox_bench: what the sandbox costs, against baselines measured in the
 * same run (issue 3's two targets).
 *
 * Spawn: /bin/true by fork + execve + waitpid, by fork + /bin/sh -c
 * "exec /bin/true" (what the sandbox execed before plain commands were
 * exec'd directly), by sandbox_new + sandbox_wait + sandbox_free cold
 * (everything on the critical path) and with sandbox_prepare() (the
 * steady state of runs one after another: each sandbox_free() has the
 * next sandbox prepared by the helper; its first run, which waits for
 * the helper, is shown apart), reused (sandbox_again: the next command
 * of a per-turn bot in the same sandbox), and, given --bwrap, by bwrap
 * --unshare-all --ro-bind / / /bin/true. Back to back and with 100 ms
 * of idle before each spawn (a game's turns: the next sandbox is ready
 * by then).
 *
 * Persistent bot: an echo bot (one line in, one line out) through plain
 * pipes, and in a sandbox started frozen with thaw, write, read, freeze
 * per move.
 *
 * Breakdown: the steps of sandbox_new replayed one by one with the
 * sandbox's own internals (cgroup.c, rootfs.c, filter.c), timestamped
 * here, so the library itself carries no instrumentation. Needs root.
 *
 * Usage: sandbox_bench [-n SPAWNS] [-m MOVES] [--bwrap PATH]
 */

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/mount.h>

#include "common/clock.h"
#include "common/log.h"
#include "sandbox/cgroup.h"
#include "sandbox/filter.h"
#include "sandbox/rootfs.h"
#include "sandbox/sandbox.h"

#define NS_FLAGS (CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | \
    CLONE_NEWUTS | CLONE_NEWNET)

struct series {
	const char *name;
	int64_t *ns;
	int n;
};

static char box[64];		/* the bots' folder, owned by the files uid */
static char bot_path[128];	/* echo bot inside box */
static int devnull = -1;

static void
series_init(struct series *s, const char *name, int cap)
{
	s->name = name;
	s->ns = xcalloc((size_t)cap, sizeof *s->ns);
	s->n = 0;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static double
pct_us(struct series *s, int pct)
{
	if (s->n == 0)
		return 0;
	qsort(s->ns, (size_t)s->n, sizeof *s->ns, cmp_i64);
	return (double)s->ns[(size_t)s->n * (size_t)pct / 100] / 1000.0;
}

static double
median_us(struct series *s)
{
	return pct_us(s, 50);
}

static void
die_errno(const char *what)
{
	log_errno("%s", what);
	exit(1);
}

/* fork + execve(argv) + waitpid, stdio to /dev/null. */
static int64_t
spawn_once(char *const argv[])
{
	int64_t t0 = clock_now_ns();
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		dup2(devnull, 0);
		dup2(devnull, 1);
		dup2(devnull, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0)
		die_errno("cannot fork");
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("cannot wait");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "%s failed (status %d)\n", argv[0], status);
		exit(1);
	}
	return clock_now_ns() - t0;
}

/* gap_us > 0: idle that long before each spawn, as between the turns of
 * a game (the kernel's fast paths cool down). */
static void
bench_spawn(struct series *s, char *const argv[], int n, int gap_us)
{
	for (int i = 0; i < n; i++) {
		if (gap_us > 0)
			usleep((useconds_t)gap_us);
		s->ns[s->n++] = spawn_once(argv);
	}
}

static void
sandbox_opts_init(struct sandbox_opts *o, const char *command, int in, int out)
{
	memset(o, 0, sizeof *o);
	o->dir = box;
	o->command = command;
	o->in = in;
	o->out = out;
	o->err = devnull;
}

/* sandbox_new + sandbox_wait + sandbox_free of /bin/true; the three
 * calls are also kept apart. */
static void
bench_sandbox_spawn(struct series *total, struct series part[3], int n,
    int gap_us)
{
	struct sandbox_opts o;

	sandbox_opts_init(&o, "/bin/true", devnull, devnull);
	for (int i = 0; i < n; i++) {
		enum verdict v;
		char *detail = NULL;
		if (gap_us > 0)
			usleep((useconds_t)gap_us);
		int64_t t0 = clock_now_ns();
		struct sandbox *sb = sandbox_new(&o);
		if (!sb)
			exit(1);
		int64_t t1 = clock_now_ns();
		if (sandbox_wait(sb, 10000, &v, &detail) < 0 ||
		    v != VERDICT_OK) {
			fprintf(stderr, "sandboxed /bin/true: %s\n",
			    detail ? detail : "failed");
			exit(1);
		}
		int64_t t2 = clock_now_ns();
		sandbox_free(sb);
		int64_t t3 = clock_now_ns();
		free(detail);
		total->ns[total->n++] = t3 - t0;
		part[0].ns[part[0].n++] = t1 - t0;
		part[1].ns[part[1].n++] = t2 - t1;
		part[2].ns[part[2].n++] = t3 - t2;
	}
}

/* One sandbox with `again`, /bin/true run in it n times by sandbox_again
 * + sandbox_wait (the calls of a per-turn bot after its first); the
 * first run, which makes it, is not counted. */
static void
bench_sandbox_again(struct series *total, struct series part[2], int n,
    int gap_us)
{
	struct sandbox_opts o;
	struct sandbox *sb;
	enum verdict v;
	char *detail = NULL;

	sandbox_opts_init(&o, "/bin/true", devnull, devnull);
	o.again = o.keep_box = true;
	for (int i = -1; i < n; i++) {
		if (gap_us > 0 && i >= 0)
			usleep((useconds_t)gap_us);
		int64_t t0 = clock_now_ns();
		if (i < 0 ? (sb = sandbox_new(&o)) == NULL :
		    sandbox_again(sb, &o) < 0)
			exit(1);
		int64_t t1 = clock_now_ns();
		if (sandbox_wait(sb, 10000, &v, &detail) < 0 ||
		    v != VERDICT_OK) {
			fprintf(stderr, "sandboxed /bin/true again: %s\n",
			    detail ? detail : "failed");
			exit(1);
		}
		int64_t t2 = clock_now_ns();
		free(detail);
		detail = NULL;
		if (i < 0)
			continue;
		total->ns[total->n++] = t2 - t0;
		part[0].ns[part[0].n++] = t1 - t0;
		part[1].ns[part[1].n++] = t2 - t1;
	}
	sandbox_free(sb);
}

/* Writes one line and reads it back. */
static void
round_trip(int to, int from, const char *line)
{
	char buf[256];
	size_t len = strlen(line), got = 0;

	if (write(to, line, len) != (ssize_t)len)
		die_errno("cannot write to the bot");
	while (got < len) {
		ssize_t r = read(from, buf + got, sizeof buf - got);
		if (r <= 0)
			die_errno("the bot stopped answering");
		got += (size_t)r;
	}
	if (got != len || memcmp(buf, line, len) != 0) {
		fprintf(stderr, "the echo bot answered something else\n");
		exit(1);
	}
}

static void
make_pipes(int to[2], int from[2])
{
	if (pipe2(to, O_CLOEXEC) < 0 || pipe2(from, O_CLOEXEC) < 0)
		die_errno("cannot create pipes");
}

static void
bench_pipe_moves(struct series *s, int m)
{
	int to[2], from[2], status;
	char line[64];

	make_pipes(to, from);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		execl(bot_path, bot_path, (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	for (int i = 0; i < m; i++) {
		snprintf(line, sizeof line, "move %d\n", i);
		int64_t t0 = clock_now_ns();
		round_trip(to[1], from[0], line);
		s->ns[s->n++] = clock_now_ns() - t0;
	}
	close(to[1]);
	close(from[0]);
	waitpid(pid, &status, 0);
}

/* part: thaw, write + read, freeze. */
static void
bench_sandbox_moves(struct series *s, struct series part[3], int m)
{
	int to[2], from[2];
	char line[64];
	struct sandbox_opts o;

	make_pipes(to, from);
	sandbox_opts_init(&o, "./echo_bot", to[0], from[1]);
	o.frozen = true;
	struct sandbox *sb = sandbox_new(&o);
	if (!sb)
		exit(1);
	close(to[0]);
	close(from[1]);
	for (int i = 0; i < m; i++) {
		snprintf(line, sizeof line, "move %d\n", i);
		int64_t t0 = clock_now_ns();
		if (sandbox_thaw(sb) < 0)
			exit(1);
		int64_t t1 = clock_now_ns();
		round_trip(to[1], from[0], line);
		int64_t t2 = clock_now_ns();
		if (sandbox_freeze(sb) < 0)
			exit(1);
		int64_t t3 = clock_now_ns();
		s->ns[s->n++] = t3 - t0;
		part[0].ns[part[0].n++] = t1 - t0;
		part[1].ns[part[1].n++] = t2 - t1;
		part[2].ns[part[2].n++] = t3 - t2;
	}
	close(to[1]);
	close(from[0]);
	sandbox_free(sb);
}

/* ---- breakdown: sandbox_new's steps replayed with timestamps ---- */

enum step {
	ST_SLOT, ST_CGROUP, ST_IDMAP, ST_CLONE, ST_MAPS, ST_ATTACH,
	ST_ROOTFS, ST_SECCOMP, ST_EXIT, ST_CGFREE, ST_COUNT
};

static const char *const step_names[ST_COUNT] = {
	"slot lock (open + flock)",
	"cgroup create + limits (4 v1 dirs)",
	"id-mapped /box (open_tree + setattr)",
	"clone (6 namespaces)",
	"uid/gid map writes",
	"cgroup attach (4 cgroup.procs)",
	"rootfs build (in child)",
	"seccomp load (in child)",
	"child exit + reap (ns teardown)",
	"cgroup kill + rmdir",
};

/* The same search as sandbox.c's take_slot(). */
static int
lock_slot(int *slot)
{
	char path[64];

	for (int i = 0; i < 256; i++) {
		snprintf(path, sizeof path, "/run/arena/sandbox/slot-%d.lock",
		    i);
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0)
			die_errno("cannot open a slot lock");
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			*slot = i;
			return fd;
		}
		close(fd);
	}
	fprintf(stderr, "no free slot\n");
	exit(1);
}

/* A user namespace mapping the files uid to the slot's bot uid, made
 * once as sandbox.c does. */
static int
make_idmap_userns(int slot)
{
	int p[2];
	char map[64], path[64], c;

	if (pipe2(p, O_CLOEXEC) < 0)
		die_errno("cannot create a pipe");
	pid_t pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (unshare(CLONE_NEWUSER) == 0)
			(void)read(p[0], &c, 1);
		_exit(0);
	}
	usleep(20000);
	snprintf(path, sizeof path, "/proc/%d/ns/user", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(map, sizeof map, "%d %d 1\n", SANDBOX_FILES_UID,
	    SANDBOX_BOT_UID_BASE + slot);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "/proc/%d/%s", (int)pid,
		    i ? "gid_map" : "uid_map");
		int m = open(path, O_WRONLY | O_CLOEXEC);
		if (m < 0 || write(m, map, strlen(map)) < 0)
			die_errno("cannot write an id map");
		close(m);
	}
	close(p[1]);
	close(p[0]);
	waitpid(pid, NULL, 0);
	return fd;
}

static int
idmapped_box(int userns)
{
	struct mount_attr attr = {
		.attr_set = MOUNT_ATTR_IDMAP | MOUNT_ATTR_NOSUID |
		    MOUNT_ATTR_NODEV,
		.userns_fd = (uint64_t)userns,
	};
	int fd = (int)syscall(SYS_open_tree, AT_FDCWD, box,
	    OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);

	if (fd < 0 || syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH,
	    &attr, sizeof attr) < 0)
		die_errno("cannot make an id-mapped mount");
	return fd;
}

/* The sandbox's pid 1, cut short: root of its namespace, builds the root,
 * loads the filter, reports both times on res and exits. */
_Noreturn static void
replay_child(int go, int res, int box_fd)
{
	char c, err[512];
	int64_t t[2];

	if (read(go, &c, 1) != 1 || setresgid(0, 0, 0) < 0 ||
	    setgroups(0, NULL) < 0 || setresuid(0, 0, 0) < 0)
		_exit(1);
	int64_t t0 = clock_now_ns();
	if (rootfs_prepare(err, sizeof err) < 0 ||
	    rootfs_finish(box_fd, true, 64 * 1024, 0, err, sizeof err) < 0) {
		fprintf(stderr, "rootfs: %s\n", err);
		_exit(1);
	}
	int64_t t1 = clock_now_ns();
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || filter_load(false) < 0)
		_exit(1);
	t[0] = t1 - t0;
	t[1] = clock_now_ns() - t1;
	(void)write(res, t, sizeof t);
	_exit(0);
}

static void
write_maps(pid_t pid, int slot)
{
	char map[128], path[64];

	snprintf(map, sizeof map, "0 %d 1\n1000 %d 1\n",
	    SANDBOX_SETUP_UID_BASE + slot, SANDBOX_BOT_UID_BASE + slot);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "/proc/%d/%s", (int)pid,
		    i ? "gid_map" : "uid_map");
		int fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, map, strlen(map)) < 0)
			die_errno("cannot write a map");
		close(fd);
	}
}

static void
replay_once(struct series st[ST_COUNT], int userns)
{
	int64_t t[ST_COUNT + 1], child_t[2];
	int slot, go[2], res[2], status;

	t[0] = clock_now_ns();
	int lock = lock_slot(&slot);
	t[1] = clock_now_ns();
	uid_t uids[2] = { SANDBOX_SETUP_UID_BASE + slot,
	    SANDBOX_BOT_UID_BASE + slot };
	struct cgroup *cg = cgroup_new(slot, 0, 64, uids);
	if (!cg)
		exit(1);
	t[2] = clock_now_ns();
	int box_fd = idmapped_box(userns);
	t[3] = clock_now_ns();
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(res, O_CLOEXEC) < 0)
		die_errno("cannot create pipes");
	pid_t pid = (pid_t)syscall(SYS_clone, NS_FLAGS | SIGCHLD, NULL, NULL,
	    NULL, NULL);
	if (pid == 0)
		replay_child(go[0], res[1], box_fd);
	if (pid < 0)
		die_errno("cannot clone");
	t[4] = clock_now_ns();
	write_maps(pid, slot);
	t[5] = clock_now_ns();
	if (cgroup_attach(cg, pid) < 0)
		exit(1);
	t[6] = clock_now_ns();
	if (write(go[1], "g", 1) != 1 || read(res[0], child_t, sizeof child_t) !=
	    sizeof child_t) {
		fprintf(stderr, "the replayed sandbox child failed\n");
		exit(1);
	}
	int64_t t_done = clock_now_ns();
	waitpid(pid, &status, 0);
	int64_t t_reaped = clock_now_ns();
	cgroup_free(cg);
	int64_t t_freed = clock_now_ns();
	close(box_fd);
	close(lock);
	for (int i = 0; i < 4; i++)
		close(i < 2 ? go[i] : res[i - 2]);
	for (int i = 0; i <= ST_ATTACH; i++)
		st[i].ns[st[i].n++] = t[i + 1] - t[i];
	(void)t_done;
	st[ST_ROOTFS].ns[st[ST_ROOTFS].n++] = child_t[0];
	st[ST_SECCOMP].ns[st[ST_SECCOMP].n++] = child_t[1];
	st[ST_EXIT].ns[st[ST_EXIT].n++] = t_reaped - t_done;
	st[ST_CGFREE].ns[st[ST_CGFREE].n++] = t_freed - t_reaped;
}

static void
bench_breakdown(struct series st[ST_COUNT], int n, int gap_us)
{
	int slot;
	int lock = lock_slot(&slot);
	int userns = make_idmap_userns(slot);

	close(lock);
	if (filter_prepare(false) < 0)
		exit(1);
	for (int i = 0; i < ST_COUNT; i++)
		series_init(&st[i], step_names[i], n);
	for (int i = 0; i < n; i++) {
		if (gap_us > 0)
			usleep((useconds_t)gap_us);
		replay_once(st, userns);
	}
	close(userns);
}

/* ---- setup and report ---- */

static void
copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	ssize_t n;

	if (in < 0 || out < 0)
		die_errno("cannot copy the echo bot");
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			die_errno("cannot copy the echo bot");
	if (fchown(out, SANDBOX_FILES_UID, SANDBOX_FILES_GID) < 0)
		die_errno("cannot chown the echo bot");
	close(in);
	close(out);
}

static void
make_box(void)
{
	char self[512], src[600];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n < 0)
		die_errno("cannot find myself");
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	snprintf(src, sizeof src, "%s/bench_echo_bot", self);
	snprintf(box, sizeof box, "/tmp/arena-bench-XXXXXX");
	if (!mkdtemp(box) || chown(box, SANDBOX_FILES_UID,
	    SANDBOX_FILES_GID) < 0)
		die_errno("cannot make the bench folder");
	snprintf(bot_path, sizeof bot_path, "%s/echo_bot", box);
	copy_file(src, bot_path);
}

static int
remove_entry(const char *path, const struct stat *st, int type,
    struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

static void
row(struct series *s, double base_us)
{
	double med = median_us(s);

	printf("  %-44s %9.1f %9.1f", s->name, med, pct_us(s, 90));
	if (base_us > 0)
		printf("  %6.2fx", med / base_us);
	printf("\n");
}

static void
header(const char *title, bool ratio)
{
	printf("\n%s\n  %-44s %9s %9s%s\n", title, "", "median us", "p90 us",
	    ratio ? "  vs fork+exec" : "");
}

int
main(int argc, char **argv)
{
	int n = 300, m = 2000;
	const char *bwrap = NULL;

	log_init("bench", false);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
			m = atoi(argv[++i]);
		else if (strcmp(argv[i], "--bwrap") == 0 && i + 1 < argc)
			bwrap = argv[++i];
		else {
			fprintf(stderr, "usage: %s [-n SPAWNS] [-m MOVES] "
			    "[--bwrap PATH]\n", argv[0]);
			return 2;
		}
	}
	if (n < 10 || m < 10 || geteuid() != 0) {
		fprintf(stderr, "needs root, -n >= 10, -m >= 10\n");
		return 2;
	}
	if ((devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
		die_errno("cannot open /dev/null");
	make_box();

	struct series fe, fsh, sbx, bw, sbx_part[3], pipe_rt, sbx_rt, rt_part[3];
	struct series fe_gap, sbx_gap, sbx_gap_part[3];
	struct series sbp, sbp_part[3], sbp_first, sbp_gap, sbp_gap_part[3];
	struct series st[ST_COUNT], st_gap[ST_COUNT];
	struct series sba, sba_part[2], sba_gap, sba_gap_part[2];
	int n_gap = n / 10;
	series_init(&fe, "fork + exec /bin/true", n);
	series_init(&fsh, "fork + exec sh -c 'exec /bin/true'", n);
	series_init(&sbx, "arena sandbox, cold: new + wait + free", n);
	series_init(&sbx_part[0], "  sandbox_new (up to \"go\")", n);
	series_init(&sbx_part[1], "  sandbox_wait (true runs, init exits)", n);
	series_init(&sbx_part[2], "  sandbox_free (kill, cgroups removed)", n);
	series_init(&sbp, "prepared: new + wait + free, steady state", n);
	series_init(&sbp_part[0], "  sandbox_new (hand over, up to \"go\")", n);
	series_init(&sbp_part[1], "  sandbox_wait (true runs, init exits)", n);
	series_init(&sbp_part[2], "  sandbox_free (kill, cgroups removed)", n);
	series_init(&sbp_first, "prepared: first run after sandbox_prepare()",
	    10);
	series_init(&sbp_gap, "prepared, 100 ms apart", n_gap);
	series_init(&sbp_gap_part[0], "  sandbox_new", n_gap);
	series_init(&sbp_gap_part[1], "  sandbox_wait", n_gap);
	series_init(&sbp_gap_part[2], "  sandbox_free", n_gap);
	series_init(&sba, "reused (sandbox_again): again + wait", n);
	series_init(&sba_part[0], "  sandbox_again (up to \"go\")", n);
	series_init(&sba_part[1], "  sandbox_wait (true runs, init reaps)",
	    n);
	series_init(&sba_gap, "reused, 100 ms apart", n_gap);
	series_init(&sba_gap_part[0], "  sandbox_again", n_gap);
	series_init(&sba_gap_part[1], "  sandbox_wait", n_gap);
	series_init(&bw, "bwrap --unshare-all --ro-bind / / /bin/true", n);
	series_init(&fe_gap, "fork + exec /bin/true, 100 ms apart", n_gap);
	series_init(&sbx_gap, "arena sandbox, cold, 100 ms apart", n_gap);
	series_init(&sbx_gap_part[0], "  sandbox_new", n_gap);
	series_init(&sbx_gap_part[1], "  sandbox_wait", n_gap);
	series_init(&sbx_gap_part[2], "  sandbox_free", n_gap);
	series_init(&pipe_rt, "plain pipe round trip", m);
	series_init(&sbx_rt, "sandbox: thaw + round trip + freeze", m);
	series_init(&rt_part[0], "  thaw", m);
	series_init(&rt_part[1], "  write + read (bot runs)", m);
	series_init(&rt_part[2], "  freeze (until FROZEN)", m);

	char *true_argv[] = { "/bin/true", NULL };
	char *sh_argv[] = { "/bin/sh", "-c", "exec /bin/true", NULL };
	char *bw_argv[] = { (char *)bwrap, "--unshare-all", "--ro-bind", "/",
	    "/", "/bin/true", NULL };

	/* Interleaved in rounds so drift from other load hits all alike. */
	for (int r = 0; r < 10; r++) {
		bench_spawn(&fe, true_argv, n / 10, 0);
		bench_spawn(&fsh, sh_argv, n / 10, 0);
		bench_sandbox_spawn(&sbx, sbx_part, n / 10, 0);
		struct series first[3];
		for (int i = 0; i < 3; i++)
			series_init(&first[i], "", 1);
		if (sandbox_prepare() < 0)
			exit(1);
		bench_sandbox_spawn(&sbp_first, first, 1, 0);
		bench_sandbox_spawn(&sbp, sbp_part, n / 10, 0);
		sandbox_unprepare();
		for (int i = 0; i < 3; i++)
			free(first[i].ns);
		bench_sandbox_again(&sba, sba_part, n / 10, 0);
		if (bwrap)
			bench_spawn(&bw, bw_argv, n / 10, 0);
	}
	bench_spawn(&fe_gap, true_argv, n_gap, 100000);
	bench_sandbox_spawn(&sbx_gap, sbx_gap_part, n_gap, 100000);
	if (sandbox_prepare() < 0)
		exit(1);
	bench_sandbox_spawn(&sbp_gap, sbp_gap_part, n_gap, 100000);
	sandbox_unprepare();
	bench_sandbox_again(&sba_gap, sba_gap_part, n_gap, 100000);
	bench_pipe_moves(&pipe_rt, m);
	bench_sandbox_moves(&sbx_rt, rt_part, m);
	bench_breakdown(st, n / 2, 0);
	bench_breakdown(st_gap, n_gap, 100000);

	double base = median_us(&fe);
	printf("arena sandbox benchmark: %d spawns each, %d moves, cgroups %s, "
	    "%ld CPUs\n", fe.n, m, cgroup_kind_name(cgroup_kind()),
	    sysconf(_SC_NPROCESSORS_ONLN));
	header("Spawn to exit of /bin/true, back to back", true);
	row(&fe, base);
	row(&fsh, base);
	row(&sbx, base);
	for (int i = 0; i < 3; i++)
		row(&sbx_part[i], base);
	row(&sbp, base);
	for (int i = 0; i < 3; i++)
		row(&sbp_part[i], base);
	row(&sbp_first, base);
	row(&sba, base);
	for (int i = 0; i < 2; i++)
		row(&sba_part[i], base);
	if (bwrap)
		row(&bw, base);
	double base_gap = median_us(&fe_gap);
	header("Spawn to exit, 100 ms idle before each (turns of a game)", true);
	row(&fe_gap, base_gap);
	row(&sbx_gap, base_gap);
	for (int i = 0; i < 3; i++)
		row(&sbx_gap_part[i], base_gap);
	row(&sbp_gap, base_gap);
	for (int i = 0; i < 3; i++)
		row(&sbp_gap_part[i], base_gap);
	row(&sba_gap, base_gap);
	for (int i = 0; i < 2; i++)
		row(&sba_gap_part[i], base_gap);
	header("Persistent echo bot, per move", false);
	row(&pipe_rt, 0);
	row(&sbx_rt, 0);
	for (int i = 0; i < 3; i++)
		row(&rt_part[i], 0);
	printf("\nsandbox_new's steps replayed one by one (median us)\n  %-44s"
	    " %12s %12s\n", "", "back to back", "100 ms apart");
	double sum = 0, sum_gap = 0;
	for (int i = 0; i < ST_COUNT; i++) {
		double med = median_us(&st[i]), gap = median_us(&st_gap[i]);
		printf("  %-44s %12.1f %12.1f\n", step_names[i], med, gap);
		sum += med;
		sum_gap += gap;
	}
	printf("  %-44s %12.1f %12.1f\n", "sum", sum, sum_gap);

	double ratio = median_us(&sbx) / base, rt = median_us(&sbx_rt);
	double ratio_gap = median_us(&sbx_gap) / base_gap;
	double prep = median_us(&sbp) / base;
	double prep_gap = median_us(&sbp_gap) / base_gap;
	printf("\nTarget 1, sandboxed spawn within 2x of fork+exec:\n"
	    "  cold (sandbox_new does it all): %.2fx back to back, %.2fx "
	    "100 ms apart\n  prepared ahead (sandbox_prepare), steady state: "
	    "%.2fx back to back, %.2fx 100 ms apart  %s\n", ratio, ratio_gap,
	    prep, prep_gap, prep <= 2.0 && prep_gap <= 2.0 ? "PASS" : "MISS");
	double again = median_us(&sba) / base;
	double again_gap = median_us(&sba_gap) / base_gap;
	printf("  reused (sandbox_again, a per-turn bot's calls after its "
	    "first): %.2fx back to back, %.2fx 100 ms apart  %s\n", again,
	    again_gap, again <= 2.0 && again_gap <= 2.0 ? "PASS" : "MISS");
	printf("Target 2, thaw + move + freeze median under 100 us: %.1f us  "
	    "%s\n", rt, rt < 100.0 ? "PASS" : "MISS");
	nftw(box, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	return 0;
}
