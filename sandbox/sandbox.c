/*
 * sandbox: runs one untrusted command contained and measured.
 *
 * Theory of operation. sandbox_new() takes a free slot N (flock on
 * /run/arena/sandbox/slot-N.lock, held for the sandbox's life), creates
 * the slot's cgroups, and clones a child into new user, pid, mount, ipc,
 * uts and network namespaces. The parent writes the child's uid and gid
 * maps:
 *
 *   inside 0    -> outside SANDBOX_SETUP_UID_BASE + N   (sets up, then waits)
 *   inside 1000 -> outside SANDBOX_BOT_UID_BASE + N     (runs the command)
 *
 * so nothing in the sandbox is a host uid anyone else uses, and two live
 * sandboxes never share one. The child is pid 1 of its pid namespace: it
 * dies with the parent (PR_SET_PDEATHSIG), builds the private root
 * (rootfs.c), forks the command, and then only reaps, sending the
 * command's wait status back when it ends and exiting, which kills
 * whatever else is left in the namespace.
 *
 * The command's process drops to inside uid 1000 (no capabilities), gets
 * its rlimits, NO_NEW_PRIVS and a new session, reports ready over a unix
 * socket (the parent learns its outside pid from SCM_CREDENTIALS), loads
 * the seccomp filter (filter.c), waits for "go" (the parent freezes it
 * first when asked to start frozen), closes every fd above 2 and execs
 * /bin/sh -c. Everything that can fail on our side fails before "go", so
 * sandbox_new() reports it as NULL and the caller makes XX.
 *
 * The folder is reached through an id-mapped mount: files owned on disk
 * by SANDBOX_FILES_UID/GID are the command's own inside (uid 1000). By
 * default pid 1 copies it into a tmpfs of limits.box_kb at /box, which
 * lives in the sandbox's mount namespace only, so what the command writes
 * is bounded, charged to its memory, and gone with the sandbox. With
 * keep_box the mount itself is /box, and what the command creates is
 * stored as SANDBOX_FILES_UID, whatever slot ran it. Without id-mapped
 * mounts (old kernel, file system without support) the folder is read
 * (or bound) as is: only what "other" may read or write.
 *
 * A command that may not start processes is pinned to one CPU, the
 * slot's among those the worker may use: by the slot's cpuset group when
 * there is one, and always by sched_setaffinity before the exec, which
 * the seccomp filter then refuses to it.
 */

#include "sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/mount.h>

#include "common/log.h"
#include "sandbox/cgroup.h"
#include "sandbox/child.h"
#include "sandbox/filter.h"
#include "sandbox/rootfs.h"

#define SLOTS 256
#define RUN_DIR "/run/arena/sandbox"

struct sandbox {
	int slot;		/* 0..SLOTS-1 */
	int lock_fd;		/* flock on the slot's lock file */
	pid_t init;		/* pid 1 of its namespace, as seen from here */
	pid_t cmd;		/* the command, as seen from here */
	int pidfd;		/* init's pidfd: readable once it exits */
	int ctl;		/* socket to init and the command */
	struct cgroup *cg;
	int64_t memory_kb;	/* the memory limit, 0: none */
	int64_t oom_base;	/* OOM kills before the command started */
	bool frozen;
	bool killed;		/* by sandbox_kill(), not on its own */
	bool reaped;		/* init has been waited for */
	int status;		/* the command's wait status, when sent */
	bool have_status;
	bool ended;		/* verdict and detail are final */
	enum verdict verdict;
	char *detail;
};

/* The id-mapping user namespace of each slot, made once per process. */
static int idmap_fd[SLOTS];

static int
take_slot(int *slot)
{
	char path[64];

	if ((mkdir("/run/arena", 0755) < 0 && errno != EEXIST) ||
	    (mkdir(RUN_DIR, 0755) < 0 && errno != EEXIST) ||
	    (mkdir(ROOTFS_MOUNTPOINT, 0755) < 0 && errno != EEXIST))
		return log_errno("cannot create '%s'", ROOTFS_MOUNTPOINT);
	for (int i = 0; i < SLOTS; i++) {
		snprintf(path, sizeof path, RUN_DIR "/slot-%d.lock", i);
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0)
			return log_errno("cannot open '%s'", path);
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			*slot = i;
			return fd;
		}
		close(fd);
	}
	return log_error("no free sandbox slot (all %d are taken)", SLOTS);
}

void
sandbox_sweep(void)
{
	char path[64];

	for (int i = 0; i < SLOTS; i++) {
		snprintf(path, sizeof path, RUN_DIR "/slot-%d.lock", i);
		int fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;	/* never used */
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			(void)cgroup_sweep(i);
		close(fd);
	}
}

static int
write_map(pid_t pid, const char *file, const char *map)
{
	char path[64];

	snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return log_errno("cannot open '%s'", path);
	ssize_t n = write(fd, map, strlen(map));
	close(fd);
	if (n != (ssize_t)strlen(map))
		return log_errno("cannot write '%s'", path);
	return 0;
}

/* A user namespace mapping SANDBOX_FILES_UID to the slot's bot uid. */
static int
idmap_userns(int slot)
{
	int p[2];
	char map[64], path[64], c = 0;

	if (idmap_fd[slot] > 0)
		return idmap_fd[slot];
	if (pipe2(p, O_CLOEXEC) < 0)
		return log_errno("cannot create a pipe");
	pid_t pid = fork();
	if (pid == 0) {
		close(p[1]);
		/* Lives in the namespace until the parent has its fd. */
		if (unshare(CLONE_NEWUSER) == 0)
			(void)read(p[0], &c, 1);
		_exit(0);
	}
	close(p[0]);
	int fd = -1;
	if (pid < 0) {
		log_errno("cannot fork");
		goto done;
	}
	snprintf(path, sizeof path, "/proc/%d/ns/user", (int)pid);
	for (int i = 0; i < 1000 && fd < 0; i++) {
		struct stat self, child;
		/* Wait until the child has left our user namespace. */
		if (stat("/proc/self/ns/user", &self) == 0 &&
		    stat(path, &child) == 0 && self.st_ino != child.st_ino)
			fd = open(path, O_RDONLY | O_CLOEXEC);
		else
			usleep(100);
	}
	snprintf(map, sizeof map, "%d %d 1\n", SANDBOX_FILES_UID,
	    SANDBOX_BOT_UID_BASE + slot);
	if (fd < 0 || write_map(pid, "uid_map", map) < 0 ||
	    write_map(pid, "gid_map", map) < 0) {
		if (fd >= 0)
			close(fd);
		fd = log_error("cannot make the id-mapping namespace of slot %d",
		    slot);
	}
done:
	close(p[1]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	if (fd >= 0)
		idmap_fd[slot] = fd;
	return fd;
}

/* A detached id-mapped copy of the mount of dir, or -1 (then the child
 * binds dir plainly). Logged once: it is a degradation, not a failure. */
static int
idmapped_box(const char *dir, int slot)
{
	static bool warned;
	int userns = idmap_userns(slot);
	int fd = (int)syscall(SYS_open_tree, AT_FDCWD, dir,
	    OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	struct mount_attr attr = {
		.attr_set = MOUNT_ATTR_IDMAP | MOUNT_ATTR_NOSUID |
		    MOUNT_ATTR_NODEV,
		.userns_fd = (uint64_t)userns,
	};

	if (fd < 0)
		return log_errno("cannot open the mount of '%s'", dir);
	if (userns >= 0 && syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH,
	    &attr, sizeof attr) == 0)
		return fd;
	if (!warned)
		log_warn("no id-mapped mount of '%s': the folder is bound as "
		    "is and owned by whoever owns it", dir);
	warned = true;
	close(fd);
	return -1;
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
fill_defaults(struct sandbox_limits *l)
{
	if (l->pids <= 0)
		l->pids = 64;
	if (l->file_kb <= 0)
		l->file_kb = 64 * 1024;
	if (l->tmp_kb <= 0)
		l->tmp_kb = 64 * 1024;
	if (l->nofile <= 0)
		l->nofile = 64;
	if (l->box_kb <= 0)
		l->box_kb = 256 * 1024;
}

/* The slot-th CPU (mod their count) of those we may run on. */
static int
slot_cpu(int slot)
{
	cpu_set_t mine;
	int count;

	if (sched_getaffinity(0, sizeof mine, &mine) < 0 ||
	    (count = CPU_COUNT(&mine)) == 0)
		return log_errno("cannot read our CPU affinity");
	for (int cpu = 0, n = slot % count; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &mine) && n-- == 0)
			return cpu;
	return log_error("cannot pick a CPU for slot %d", slot);
}

/* What the child reads the folder through: an id-mapped mount of it, or
 * without one the folder itself (bound as is with keep_box: -1). */
static int
box_source(const struct sandbox_opts *opts, int slot)
{
	int fd = idmapped_box(opts->dir, slot);

	if (fd >= 0 || opts->keep_box)
		return fd;
	fd = open(opts->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		log_errno("cannot open '%s'", opts->dir);
	return fd;
}

/* Receives one control message; for CHILD_READY also the sender's pid. */
static ssize_t
receive(int ctl, char *buf, size_t size, pid_t *sender)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(struct ucred))];
	} control;
	struct iovec iov = { buf, size - 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = &control, .msg_controllen = sizeof control,
	};
	ssize_t n;

	do
		n = recvmsg(ctl, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	if (sender && c && c->cmsg_type == SCM_CREDENTIALS) {
		struct ucred cred;
		memcpy(&cred, CMSG_DATA(c), sizeof cred);
		*sender = cred.pid;
	}
	return n;
}

static int
send_byte(int ctl, char c)
{
	if (send(ctl, &c, 1, MSG_NOSIGNAL) != 1)
		return log_errno("cannot talk to the sandbox");
	return 0;
}

/* Maps, cgroups, "go": everything between clone() and the exec. */
static int
start(struct sandbox *sb, bool frozen)
{
	char map[128], msg[600];
	ssize_t n;

	snprintf(map, sizeof map, "0 %d 1\n%d %d 1\n",
	    SANDBOX_SETUP_UID_BASE + sb->slot, CHILD_INSIDE_UID,
	    SANDBOX_BOT_UID_BASE + sb->slot);
	if (write_map(sb->init, "uid_map", map) < 0 ||
	    write_map(sb->init, "gid_map", map) < 0)
		return -1;
	if (cgroup_attach(sb->cg, sb->init) < 0)
		return -1;
	cgroup_set_init(sb->cg, sb->init);
	if (send_byte(sb->ctl, CHILD_MAPPED) < 0)
		return -1;
	if ((n = receive(sb->ctl, msg, sizeof msg, &sb->cmd)) <= 0)
		return log_error("sandbox of slot %d died while starting",
		    sb->slot);
	if (msg[0] != CHILD_READY)
		return log_error("cannot start a sandbox: %s", msg + 1);
	if ((sb->oom_base = cgroup_oom_kills(sb->cg)) < 0)
		return -1;
	if (frozen && sandbox_freeze(sb) < 0)
		return -1;
	return send_byte(sb->ctl, CHILD_GO);
}

struct sandbox *
sandbox_new(const struct sandbox_opts *opts)
{
	struct sandbox *sb = xcalloc(1, sizeof *sb);
	struct child_args a = {
		.dir = opts->dir, .command = opts->command, .in = opts->in,
		.out = opts->out, .err = opts->err, .processes = opts->processes,
		.limits = opts->limits, .box_fd = -1, .cpu = -1,
		.keep_box = opts->keep_box,
	};
	int sp[2] = { -1, -1 }, one = 1;

	sb->init = sb->pidfd = sb->ctl = -1;
	fill_defaults(&a.limits);
	sb->memory_kb = a.limits.memory_kb;
	if ((sb->lock_fd = take_slot(&sb->slot)) < 0)
		goto fail;
	uid_t uids[2] = { SANDBOX_SETUP_UID_BASE + sb->slot,
	    SANDBOX_BOT_UID_BASE + sb->slot };
	if (filter_prepare(opts->processes) < 0 ||
	    !(sb->cg = cgroup_new(sb->slot, a.limits.memory_kb, a.limits.pids,
	    uids)))
		goto fail;
	a.limit_data = cgroup_kind() == CGROUP_NONE;
	if (!opts->processes && ((a.cpu = slot_cpu(sb->slot)) < 0 ||
	    cgroup_pin(sb->cg, a.cpu) < 0))
		goto fail;
	a.box_fd = box_source(opts, sb->slot);
	if (a.box_fd < 0 && !opts->keep_box)
		goto fail;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0 ||
	    setsockopt(sp[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof one) < 0) {
		log_errno("cannot create the sandbox's control socket");
		goto fail;
	}
	a.ctl = sp[1];
	sb->ctl = sp[0];
	sb->init = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWPID |
	    CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET | SIGCHLD,
	    NULL, NULL, NULL, NULL);
	if (sb->init == 0)
		child_init(&a);
	if (sb->init < 0) {
		log_errno("cannot clone the sandbox of slot %d", sb->slot);
		goto fail;
	}
	close(sp[1]);
	sp[1] = -1;
	if ((sb->pidfd = (int)syscall(SYS_pidfd_open, sb->init, 0)) < 0) {
		log_errno("cannot open a pidfd of the sandbox");
		goto fail;
	}
	if (start(sb, opts->frozen) < 0)
		goto fail;
	if (a.box_fd >= 0)
		close(a.box_fd);
	return sb;
fail:
	if (a.box_fd >= 0)
		close(a.box_fd);
	if (sp[1] >= 0)
		close(sp[1]);
	sandbox_free(sb);
	return NULL;
}

/* Waits for pid 1 (every other process of the namespace is gone then) and
 * picks up the command's status if it sent one. */
static void
reap_init(struct sandbox *sb)
{
	int status;
	char buf[600];

	if (sb->reaped || sb->init <= 0)
		return;
	while (waitpid(sb->init, &status, 0) < 0 && errno == EINTR)
		;
	sb->reaped = true;
	(void)fcntl(sb->ctl, F_SETFL, O_NONBLOCK);
	for (;;) {
		ssize_t n = receive(sb->ctl, buf, sizeof buf, NULL);
		if (n <= 0)
			break;
		if (n == sizeof(int)) {
			memcpy(&sb->status, buf, sizeof(int));
			sb->have_status = true;
		}
	}
}

static void
decide(struct sandbox *sb)
{
	int64_t ooms = cgroup_oom_kills(sb->cg);
	int st = sb->status;

	if (ooms > sb->oom_base && !(sb->have_status && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 0)) {
		sb->verdict = VERDICT_ML;
		sb->detail = xasprintf("memory limit of %lld MB exceeded",
		    (long long)(sb->memory_kb / 1024));
	} else if (!sb->have_status) {
		sb->verdict = VERDICT_RE;
		sb->detail = xstrdup(sb->killed ? "killed by the sandbox" :
		    "the sandbox's init died");
	} else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS) {
		sb->verdict = VERDICT_SV;
		sb->detail = xstrdup("killed by the seccomp filter (SIGSYS): "
		    "a refused system call");
	} else if (WIFSIGNALED(st)) {
		const char *name = sigabbrev_np(WTERMSIG(st));
		sb->verdict = VERDICT_RE;
		sb->detail = xasprintf("killed by signal %d (SIG%s)",
		    WTERMSIG(st), name ? name : "?");
	} else if (WEXITSTATUS(st) != 0) {
		sb->verdict = VERDICT_RE;
		sb->detail = xasprintf("exit code %d", WEXITSTATUS(st));
	} else {
		sb->verdict = VERDICT_OK;
		sb->detail = xstrdup("exit code 0");
	}
	sb->ended = true;
}

int
sandbox_ended(struct sandbox *sb, enum verdict *verdict, char **detail)
{
	if (!sb->ended) {
		struct pollfd p = { .fd = sb->pidfd, .events = POLLIN };
		if (!sb->reaped && poll(&p, 1, 0) == 0)
			return 0;
		reap_init(sb);
		decide(sb);
	}
	*verdict = sb->verdict;
	*detail = xstrdup(sb->detail);
	return 1;
}

int
sandbox_wait(struct sandbox *sb, int64_t timeout_ms, enum verdict *verdict,
    char **detail)
{
	int64_t deadline = now_ms() + timeout_ms;
	struct pollfd p = { .fd = sb->pidfd, .events = POLLIN };

	while (!sb->ended && !sb->reaped) {
		int64_t left = deadline - now_ms();
		if (left <= 0) {
			sandbox_kill(sb);
			if (!sb->have_status) {
				decide(sb);
				if (sb->verdict != VERDICT_ML) {
					free(sb->detail);
					sb->verdict = VERDICT_TO;
					sb->detail = xasprintf("wall time limit "
					    "of %lld ms exceeded",
					    (long long)timeout_ms);
				}
			}
			break;
		}
		if (poll(&p, 1, (int)(left > 60000 ? 60000 : left)) < 0 &&
		    errno != EINTR)
			return log_errno("cannot wait for the sandbox");
		if (p.revents)
			break;
	}
	return sandbox_ended(sb, verdict, detail) == 1 ? 0 : -1;
}

void
sandbox_kill(struct sandbox *sb)
{
	if (sb->reaped)
		return;
	if (!sb->have_status)
		sb->killed = true;
	kill(sb->init, SIGKILL);
	(void)cgroup_kill(sb->cg);
	sb->frozen = false;
	reap_init(sb);
}

void
sandbox_free(struct sandbox *sb)
{
	if (!sb)
		return;
	if (sb->init > 0)
		sandbox_kill(sb);
	cgroup_free(sb->cg);
	if (sb->pidfd >= 0)
		close(sb->pidfd);
	if (sb->ctl >= 0)
		close(sb->ctl);
	if (sb->lock_fd >= 0)
		close(sb->lock_fd);
	free(sb->detail);
	free(sb);
}

int
sandbox_freeze(struct sandbox *sb)
{
	if (sb->frozen)
		return 0;
	if (cgroup_freeze(sb->cg) < 0)
		return -1;
	sb->frozen = true;
	return 0;
}

int
sandbox_thaw(struct sandbox *sb)
{
	if (!sb->frozen)
		return 0;
	if (cgroup_thaw(sb->cg) < 0)
		return -1;
	sb->frozen = false;
	return 0;
}

int
sandbox_usage(struct sandbox *sb, struct sandbox_usage *u)
{
	struct cgroup_usage c;

	if (cgroup_usage(sb->cg, &c) < 0)
		return -1;
	u->cpu_ms = c.cpu_ns / 1000000;
	u->peak_kb = c.peak_kb;
	u->resident_kb = c.resident_kb;
	u->tasks = c.tasks;
	return 0;
}

int
sandbox_reset_peak(struct sandbox *sb)
{
	return cgroup_reset_peak(sb->cg);
}

pid_t
sandbox_pid(const struct sandbox *sb)
{
	return sb->cmd;
}

int
sandbox_fd(const struct sandbox *sb)
{
	return sb->pidfd;
}

int
sandbox_slot(const struct sandbox *sb)
{
	return sb->slot;
}
