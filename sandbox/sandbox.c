/*
 * sandbox: runs one untrusted command contained and measured.
 *
 * Theory of operation. A sandbox is made in two halves. Preparing it
 * takes a free slot N (flock on /run/arena/sandbox/slot-N.lock, held for
 * the sandbox's life), creates the slot's cgroups, and clones a child
 * into new user, pid, mount, ipc, uts and network namespaces. The parent
 * writes the child's uid and gid maps:
 *
 *   inside 0    -> outside SANDBOX_SETUP_UID_BASE + N   (sets up, then waits)
 *   inside 1000 -> outside SANDBOX_BOT_UID_BASE + N     (runs the command)
 *
 * so nothing in the sandbox is a host uid anyone else uses, and two live
 * sandboxes never share one. The child is pid 1 of its pid namespace: it
 * dies with the parent (PR_SET_PDEATHSIG), builds the private root
 * (rootfs.c) and waits. Starting it hands pid 1 the command, its limits,
 * its stdin, stdout and stderr and the folder: pid 1 mounts /tmp and
 * /box, forks the command, and then only reaps, sending the command's
 * wait status back when it ends and exiting, which kills whatever else
 * is left in the namespace. A sandbox runs one command only: the next
 * run gets new namespaces, a new /tmp and /box.
 *
 * sandbox_new() does both halves, unless sandbox_prepare() was called:
 * then a helper process (forked once, dying with us) prepares the next
 * bot sandbox while the current one runs, and sandbox_new() only starts
 * it. The helper clones with CLONE_PARENT, so pid 1 is our child as in
 * the cold path; it hands us the slot's lock and the control socket.
 *
 * The command's process, forked by pid 1 while the sandbox is prepared,
 * drops to inside uid 1000 (no capabilities), gets a new session,
 * NO_NEW_PRIVS and the seccomp filter (filter.c); given the run, its
 * descriptors and rlimits; it reports ready over a unix socket (the
 * parent learns its outside pid from SCM_CREDENTIALS), waits for "go"
 * (the parent freezes it first when asked to start frozen), closes every
 * fd above 2 and execs the command (child.c). Everything that can fail
 * on our side fails before "go", so sandbox_new() reports it as NULL and
 * the caller makes XX.
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

#include "common/clock.h"
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
	int cmd_fd;		/* again: the command's pidfd, to kill it */
	int ctl;		/* socket to init and the command */
	bool again;		/* init serves more runs (sandbox_again()) */
	int64_t cpu_base_ns;	/* CPU of the sandbox before this run */
	int64_t limit_kb;	/* the cgroup's limits as last set; */
	int limit_pids;		/* -1: not yet */
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

/* The first free slot but avoid (-1: none), locked. */
static int
take_slot(int *slot, int avoid)
{
	char path[64];

	if ((mkdir("/run/arena", 0755) < 0 && errno != EEXIST) ||
	    (mkdir(RUN_DIR, 0755) < 0 && errno != EEXIST) ||
	    (mkdir(ROOTFS_MOUNTPOINT, 0755) < 0 && errno != EEXIST))
		return log_errno("cannot create '%s'", ROOTFS_MOUNTPOINT);
	for (int i = 0; i < SLOTS; i++) {
		if (i == avoid)
			continue;
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

/* A detached copy of the mount of dir (open_tree), id-mapped when the
 * kernel and file system allow, else as is (logged once: a degradation,
 * not a failure); nosuid, nodev. -1 after logging. */
static int
detached_box(const char *dir, int slot)
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
	attr.attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
	if (syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH, &attr,
	    sizeof attr) == 0)
		return fd;
	log_errno("cannot make the mount of '%s' nosuid", dir);
	close(fd);
	return -1;
}

static void
fill_defaults(struct sandbox_limits *l)
{
	if (l->pids <= 0)
		l->pids = 64;
	if (l->file_kb <= 0)
		l->file_kb = 64 * 1024;
	if (l->tmp_kb <= 0)
		l->tmp_kb = ROOTFS_TMP_KB;
	if (l->nofile <= 0)
		l->nofile = 64;
	if (l->box_kb <= 0)
		l->box_kb = ROOTFS_BOX_KB;
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

/* What pid 1 mounts at /box (keep_box) or copies into it: a detached
 * mount of the folder, or without one (copy only) the folder itself. */
static int
box_source(const struct sandbox_opts *opts, int slot)
{
	int fd = detached_box(opts->dir, slot);

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

/* A prepared sandbox: pid 1 built (or building) its root and waits. */
struct zygote {
	int slot;
	int lock_fd;
	pid_t init;
	int ctl;		/* to init (and later the command) */
	int cpu;		/* the CPU it is pinned to, or -1 */
	struct cgroup *cg;
};

static void
zygote_close(struct zygote *z)
{
	if (z->ctl >= 0)
		close(z->ctl);
	if (z->lock_fd >= 0)
		close(z->lock_fd);
	z->ctl = z->lock_fd = -1;
}

/* Kills a zygote nobody will use (init is our child) and frees its slot. */
static void
zygote_discard(struct zygote *z)
{
	if (z->init > 0) {
		kill(z->init, SIGKILL);
		while (waitpid(z->init, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (z->cg)
		cgroup_free(z->cg);
	else if (z->lock_fd >= 0)
		(void)cgroup_sweep(z->slot);
	z->cg = NULL;
	zygote_close(z);
}

/* Prepares a sandbox: slot, cgroups (pinned to the slot's CPU unless
 * processes), namespaces, maps. With parent, init is our parent's child
 * (the helper's CLONE_PARENT). Its root is built from there on. */
static int
zygote_start(struct zygote *z, bool processes, bool parent, int avoid)
{
	char map[128];
	int sp[2] = { -1, -1 }, one = 1;

	*z = (struct zygote){ .lock_fd = -1, .init = -1, .ctl = -1,
	    .cpu = -1 };
	if ((z->lock_fd = take_slot(&z->slot, avoid)) < 0)
		return -1;
	uid_t uids[2] = { SANDBOX_SETUP_UID_BASE + z->slot,
	    SANDBOX_BOT_UID_BASE + z->slot };
	if (!(z->cg = cgroup_new(z->slot, 0, 64, uids)) || (!processes &&
	    ((z->cpu = slot_cpu(z->slot)) < 0 || cgroup_pin(z->cg, z->cpu) < 0)))
		goto fail;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0 ||
	    setsockopt(sp[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof one) < 0) {
		log_errno("cannot create the sandbox's control socket");
		goto fail;
	}
	z->ctl = sp[0];
	z->init = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWPID |
	    CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET |
	    (parent ? CLONE_PARENT : 0) | SIGCHLD, NULL, NULL, NULL, NULL);
	if (z->init == 0)
		child_init(sp[1]);
	close(sp[1]);
	if (z->init < 0) {
		log_errno("cannot clone the sandbox of slot %d", z->slot);
		goto fail;
	}
	snprintf(map, sizeof map, "0 %d 1\n%d %d 1\n",
	    SANDBOX_SETUP_UID_BASE + z->slot, CHILD_INSIDE_UID,
	    SANDBOX_BOT_UID_BASE + z->slot);
	if (write_map(z->init, "uid_map", map) < 0 ||
	    write_map(z->init, "gid_map", map) < 0 ||
	    cgroup_attach(z->cg, z->init) < 0)
		goto fail;
	struct child_setup setup = { CHILD_MAPPED, processes, z->cpu };
	if (send(z->ctl, &setup, sizeof setup, MSG_NOSIGNAL) != sizeof setup) {
		log_errno("cannot talk to the sandbox");
		goto fail;
	}
	cgroup_set_init(z->cg, z->init);
	return 0;
fail:
	if (!parent)
		zygote_discard(z);
	else {
		if (z->init > 0)
			kill(z->init, SIGKILL);	/* our parent reaps it */
		cgroup_free(z->cg);
		zygote_close(z);
	}
	return -1;
}

/* Sends the run to pid 1 with in, out, err and the folder's fd. */
static int
send_run(int ctl, const struct child_run *run, const int fds[4])
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(4 * sizeof(int))];
	} control;
	struct iovec iov = { (void *)run, sizeof *run };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = &control, .msg_controllen = sizeof control,
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(4 * sizeof(int));
	memcpy(CMSG_DATA(c), fds, 4 * sizeof(int));
	if (sendmsg(ctl, &msg, MSG_NOSIGNAL) != (ssize_t)sizeof *run)
		return log_errno("cannot talk to the sandbox");
	return 0;
}

/* again: a pidfd of the command (waiting for "go", so not reaped yet),
 * to kill it and nothing else without racing pid reuse. */
static int
command_pidfd(struct sandbox *sb)
{
	if (sb->cmd_fd >= 0)
		close(sb->cmd_fd);
	sb->cmd_fd = (int)syscall(SYS_pidfd_open, sb->cmd, 0);
	if (sb->cmd_fd < 0)
		return log_errno("cannot open a pidfd of the sandboxed command");
	return 0;
}

/* Limits, the run, "go": everything between a prepared sandbox and the
 * exec. */
static int
start(struct sandbox *sb, const struct sandbox_opts *opts,
    struct child_run *run, int box_fd)
{
	char msg[600];
	int fds[4] = { opts->in, opts->out, opts->err, box_fd };

	/* Another run of the same sandbox mostly has the same limits. */
	if ((run->limits.memory_kb != sb->limit_kb ||
	    run->limits.pids != sb->limit_pids) && cgroup_limit(sb->cg,
	    run->limits.memory_kb, run->limits.pids) < 0)
		return -1;
	sb->limit_kb = run->limits.memory_kb;
	sb->limit_pids = run->limits.pids;
	if (receive(sb->ctl, msg, sizeof msg, NULL) <= 0)
		return log_error("sandbox of slot %d died while starting",
		    sb->slot);
	if (msg[0] != CHILD_PREPARED)
		return log_error("cannot start a sandbox: %s", msg + 1);
	if (send_run(sb->ctl, run, fds) < 0)
		return -1;
	if (receive(sb->ctl, msg, sizeof msg, &sb->cmd) <= 0)
		return log_error("sandbox of slot %d died while starting",
		    sb->slot);
	if (msg[0] != CHILD_READY)
		return log_error("cannot start a sandbox: %s", msg + 1);
	if (sb->again && command_pidfd(sb) < 0)
		return -1;
	if ((sb->oom_base = cgroup_oom_kills(sb->cg)) < 0)
		return -1;
	if (opts->frozen && sandbox_freeze(sb) < 0)
		return -1;
	return send_byte(sb->ctl, CHILD_GO);
}

/* ---- the helper that prepares sandboxes ahead ---- */

/* us -> helper: an int, prepare one (not in that slot) */
#define HELPER_READY 'z'	/* helper -> us: struct handoff, lock + ctl */

struct handoff {
	char type;		/* HELPER_READY, or CHILD_ERROR */
	int slot;
	pid_t init;
	int cpu;
};

static struct {
	pid_t owner;		/* the process the helper works for */
	pid_t pid;		/* the helper */
	int fd;			/* socket to it */
	bool asked;		/* a sandbox was asked for, not yet taken */
	bool taken;		/* the last one runs: ask when it is freed */
	bool at_exit;		/* sandbox_unprepare() is registered */
} helper = { .fd = -1 };

static int
send_fds(int fd, const void *buf, size_t len, const int *fds, int nfds)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(2 * sizeof(int))];
	} control;
	struct iovec iov = { (void *)buf, len };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = nfds ? &control : NULL,
		.msg_controllen = nfds ? CMSG_SPACE(nfds * sizeof(int)) : 0,
	};

	if (nfds) {
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	return sendmsg(fd, &msg, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

static void
helper_on_term(int sig)
{
	(void)sig;
}

/* What the helper leaves behind when its worker ends without
 * sandbox_unprepare() (a game process's _exit, a kill): the groups of
 * every slot it prepared that nobody holds now. */
static void
helper_sweep(const bool *prepared)
{
	char path[64];

	for (int i = 0; i < SLOTS; i++) {
		if (!prepared[i])
			continue;
		snprintf(path, sizeof path, RUN_DIR "/slot-%d.lock", i);
		int fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
			(void)cgroup_sweep(i);
		if (fd >= 0)
			close(fd);
	}
}

/* The helper: one prepared bot sandbox per request, until EOF or the
 * worker's death (SIGTERM), then it cleans up after it. */
_Noreturn static void
helper_main(int fd, pid_t owner)
{
	static bool prepared[SLOTS];
	struct sigaction sa = { .sa_handler = helper_on_term };
	int avoid;

	sigaction(SIGTERM, &sa, NULL);	/* no SA_RESTART: recv returns */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != owner)
		_exit(0);
	/* Nothing of the worker's but stderr (our log) and the socket. */
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
	    dup2(fd, 3) < 0)
		_exit(1);
	close_range(4, ~0U, 0);
	fd = 3;
	while (recv(fd, &avoid, sizeof avoid, 0) == sizeof avoid) {
		struct zygote z;
		struct handoff h = { .type = CHILD_ERROR, .init = -1 };

		if (zygote_start(&z, false, true, avoid) < 0)
			h.init = z.init;
		else {
			h = (struct handoff){ HELPER_READY, z.slot, z.init,
			    z.cpu };
			prepared[z.slot] = true;
			cgroup_forget(z.cg);
		}
		int fds[2] = { z.lock_fd, z.ctl };
		int rc = send_fds(fd, &h, sizeof h, fds,
		    h.type == HELPER_READY ? 2 : 0);
		if (h.type == HELPER_READY)
			zygote_close(&z);
		if (rc < 0)
			break;
	}
	close(fd);
	helper_sweep(prepared);
	_exit(0);
}

/* Receives what the helper sent: 1 with a zygote, 0 when it could not
 * make one (it logged why), -1 at EOF or on error. */
static int
helper_receive(struct zygote *z)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(2 * sizeof(int))];
	} control;
	struct handoff h;
	struct iovec iov = { &h, sizeof h };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = &control, .msg_controllen = sizeof control,
	};
	ssize_t n;

	do
		n = recvmsg(helper.fd, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof h)
		return -1;
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	if (h.type != HELPER_READY || !c || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(2 * sizeof(int))) {
		/* A failed one's init, killed, is our child: reap it. */
		if (h.init > 0)
			while (waitpid(h.init, NULL, 0) < 0 && errno == EINTR)
				;
		return 0;
	}
	int fds[2];
	memcpy(fds, CMSG_DATA(c), sizeof fds);
	*z = (struct zygote){ .slot = h.slot, .lock_fd = fds[0],
	    .init = h.init, .ctl = fds[1], .cpu = h.cpu };
	return 1;
}

/* Asks for one, in any free slot but avoid (the one just freed: whoever
 * freed it may look at it, and must find it empty). */
static int
helper_ask(int avoid)
{
	if (send(helper.fd, &avoid, sizeof avoid, MSG_NOSIGNAL) !=
	    sizeof avoid)
		return log_errno("cannot talk to the sandbox helper");
	helper.asked = true;
	return 0;
}

/* The sandbox the helper prepared, if any; asks for the next one. */
static bool
take_prepared(struct zygote *z)
{
	struct pollfd p = { .fd = helper.fd, .events = POLLIN };

	if (helper.owner != getpid() || !helper.asked)
		return false;
	helper.asked = false;
	int got = poll(&p, 1, 10000) == 1 ? helper_receive(z) : -1;
	if (got == 0)
		(void)helper_ask(-1);
	if (got != 1)
		return false;
	helper.taken = true;
	uid_t uids[2] = { SANDBOX_SETUP_UID_BASE + z->slot,
	    SANDBOX_BOT_UID_BASE + z->slot };
	if (!(z->cg = cgroup_open(z->slot, uids))) {
		zygote_discard(z);
		return false;
	}
	cgroup_set_init(z->cg, z->init);
	return true;
}

void
sandbox_unprepare(void)
{
	struct zygote z;
	int got;

	if (helper.owner != getpid() || helper.fd < 0)
		return;
	/* The helper ends after the sandbox it may be making: drop each. */
	shutdown(helper.fd, SHUT_WR);
	while ((got = helper_receive(&z)) >= 0)
		if (got == 1)
			zygote_discard(&z);
	while (waitpid(helper.pid, NULL, 0) < 0 && errno == EINTR)
		;
	close(helper.fd);
	helper.fd = -1;
	helper.owner = 0;
	helper.asked = false;
}

static void
unprepare_at_exit(void)
{
	sandbox_unprepare();
}

int
sandbox_prepare(void)
{
	int sp[2];

	if (helper.owner == getpid())
		return helper.asked ? 0 : helper_ask(-1);
	if (helper.fd >= 0)
		close(helper.fd);	/* our parent's, inherited by fork */
	helper.fd = -1;
	helper.asked = false;
	if (filter_prepare(false) < 0)
		return -1;
	(void)cgroup_kind();	/* probed once, before the fork */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0)
		return log_errno("cannot create the sandbox helper's socket");
	pid_t owner = getpid(), pid = fork();
	if (pid == 0) {
		close(sp[0]);
		helper_main(sp[1], owner);
	}
	close(sp[1]);
	if (pid < 0) {
		close(sp[0]);
		return log_errno("cannot fork the sandbox helper");
	}
	helper.owner = owner;
	helper.pid = pid;
	helper.fd = sp[0];
	if (!helper.at_exit && atexit(unprepare_at_exit) == 0)
		helper.at_exit = true;
	return helper_ask(-1);
}

struct sandbox *
sandbox_new(const struct sandbox_opts *opts)
{
	struct sandbox *sb = xcalloc(1, sizeof *sb);
	struct child_run *run = xcalloc(1, sizeof *run);
	struct zygote z;
	int box_fd = -1;

	sb->init = sb->pidfd = sb->ctl = sb->lock_fd = sb->cmd_fd = -1;
	sb->limit_kb = sb->limit_pids = -1;
	sb->again = opts->again && !opts->processes;
	run->type = CHILD_RUN;
	run->keep_box = opts->keep_box;
	run->again = sb->again;
	run->limits = opts->limits;
	fill_defaults(&run->limits);
	sb->memory_kb = run->limits.memory_kb;
	if (strlen(opts->command) >= sizeof run->command) {
		log_error("command too long (%zu bytes)", strlen(opts->command));
		goto fail;
	}
	strcpy(run->command, opts->command);
	if (filter_prepare(opts->processes) < 0)
		goto fail;
	run->limit_data = cgroup_kind() == CGROUP_NONE;
	if ((opts->processes || !take_prepared(&z)) &&
	    zygote_start(&z, opts->processes, false, -1) < 0)
		goto fail;
	sb->slot = z.slot;
	sb->lock_fd = z.lock_fd;
	sb->init = z.init;
	sb->ctl = z.ctl;
	sb->cg = z.cg;
	if ((sb->pidfd = (int)syscall(SYS_pidfd_open, sb->init, 0)) < 0) {
		log_errno("cannot open a pidfd of the sandbox");
		goto fail;
	}
	if ((box_fd = box_source(opts, sb->slot)) < 0 ||
	    start(sb, opts, run, box_fd) < 0)
		goto fail;
	close(box_fd);
	free(run);
	return sb;
fail:
	if (box_fd >= 0)
		close(box_fd);
	free(run);
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

/* Whether the command ended by our kill (not by its own exit or crash
 * just before it). */
static bool
killed_by_us(const struct sandbox *sb)
{
	return sb->killed && (!sb->have_status ||
	    (WIFSIGNALED(sb->status) && WTERMSIG(sb->status) == SIGKILL));
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
	} else if (!sb->have_status || killed_by_us(sb)) {
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

/* again: the command's status, which init sends when it has reaped it
 * (waiting at most timeout_ms); init's death (EOF) counts as an end. */
static void
take_status(struct sandbox *sb, int timeout_ms)
{
	struct pollfd p = { .fd = sb->ctl, .events = POLLIN };
	char buf[600];
	ssize_t n;

	if (sb->have_status || sb->reaped || poll(&p, 1, timeout_ms) != 1)
		return;
	n = receive(sb->ctl, buf, sizeof buf, NULL);
	if (n == sizeof(int)) {
		memcpy(&sb->status, buf, sizeof(int));
		sb->have_status = true;
	} else
		reap_init(sb);
}

/* Whether the run is over, as far as we have heard. */
static bool
run_over(struct sandbox *sb)
{
	return sb->ended || sb->reaped || (sb->again && sb->have_status);
}

int
sandbox_ended(struct sandbox *sb, enum verdict *verdict, char **detail)
{
	if (!sb->ended) {
		struct pollfd p = { .fd = sandbox_fd(sb), .events = POLLIN };
		if (!run_over(sb) && poll(&p, 1, 0) == 0)
			return 0;
		if (sb->again)
			take_status(sb, 1000);
		else
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
	int64_t deadline = clock_now_ms() + timeout_ms;
	struct pollfd p = { .fd = sandbox_fd(sb), .events = POLLIN };

	while (!run_over(sb)) {
		int64_t left = deadline - clock_now_ms();
		if (left <= 0) {
			sandbox_kill(sb);
			decide(sb);
			if (killed_by_us(sb) && sb->verdict != VERDICT_ML) {
				free(sb->detail);
				sb->verdict = VERDICT_TO;
				sb->detail = xasprintf("wall time limit of %lld "
				    "ms exceeded", (long long)timeout_ms);
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

/* Everything: init (and with it the namespace) and the cgroup's tasks. */
static void
kill_all(struct sandbox *sb)
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

/* again: the command only (it cannot have started processes, so that is
 * everything it ran); init stays for the next run. */
static void
kill_command(struct sandbox *sb)
{
	if (sb->have_status || sb->reaped)
		return;
	sb->killed = true;
	if (syscall(SYS_pidfd_send_signal, sb->cmd_fd, SIGKILL, NULL, 0) < 0 &&
	    errno != ESRCH)
		log_errno("cannot kill the sandboxed command");
	if (sb->frozen)
		(void)sandbox_thaw(sb);
	take_status(sb, 1000);
	if (!sb->have_status)
		kill_all(sb);	/* init did not answer: no second run */
}

void
sandbox_kill(struct sandbox *sb)
{
	if (sb->again)
		kill_command(sb);
	else
		kill_all(sb);
}

int
sandbox_again(struct sandbox *sb, const struct sandbox_opts *opts)
{
	struct child_run *run;
	int rc;

	if (!sb->again || opts->processes)
		return log_error("sandbox of slot %d cannot run again",
		    sb->slot);
	kill_command(sb);
	if (sb->reaped)
		return log_error("sandbox of slot %d has ended", sb->slot);
	if (strlen(opts->command) >= sizeof run->command)
		return log_error("command too long (%zu bytes)",
		    strlen(opts->command));
	run = xcalloc(1, sizeof *run);
	*run = (struct child_run){ .type = CHILD_RUN, .again = true,
	    .keep_box = opts->keep_box, .limits = opts->limits,
	    .limit_data = cgroup_kind() == CGROUP_NONE };
	fill_defaults(&run->limits);
	strcpy(run->command, opts->command);
	sb->memory_kb = run->limits.memory_kb;
	sb->have_status = sb->ended = sb->killed = false;
	free(sb->detail);
	sb->detail = NULL;
	rc = -1;
	if (cgroup_reset_peak(sb->cg) == 0 &&
	    (sb->cpu_base_ns = cgroup_cpu_ns(sb->cg)) >= 0)
		rc = start(sb, opts, run, opts->in);
	free(run);
	if (rc < 0)
		kill_all(sb);
	return rc;
}

void
sandbox_free(struct sandbox *sb)
{
	if (!sb)
		return;
	int slot = sb->lock_fd >= 0 ? sb->slot : -1;
	if (sb->init > 0)
		kill_all(sb);
	cgroup_free(sb->cg);
	if (sb->pidfd >= 0)
		close(sb->pidfd);
	if (sb->cmd_fd >= 0)
		close(sb->cmd_fd);
	if (sb->ctl >= 0)
		close(sb->ctl);
	if (sb->lock_fd >= 0)
		close(sb->lock_fd);
	free(sb->detail);
	free(sb);
	/* The next one is prepared while the caller does something else,
	 * not meanwhile: cgroup and mount changes serialise in the kernel. */
	if (helper.owner == getpid() && helper.taken && !helper.asked) {
		helper.taken = false;
		(void)helper_ask(slot);
	}
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
	u->cpu_ms = (c.cpu_ns - sb->cpu_base_ns) / 1000000;
	u->peak_kb = c.peak_kb;
	u->resident_kb = c.resident_kb;
	u->tasks = c.tasks;
	return 0;
}

int
sandbox_box(struct sandbox *sb)
{
	char path[64];
	int fd;

	/* init is our child, not reaped while the sandbox lives: its pid
	 * names it. Its root and /box are ours, read-only to the command. */
	snprintf(path, sizeof path, "/proc/%d/root/box", (int)sb->init);
	if (sb->reaped || (fd = open(path, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0)
		return log_errno("cannot open the /box of the sandbox of slot "
		    "%d", sb->slot);
	return fd;
}

pid_t
sandbox_pid(const struct sandbox *sb)
{
	return sb->cmd;
}

int
sandbox_fd(const struct sandbox *sb)
{
	return sb->again ? sb->ctl : sb->pidfd;
}

int
sandbox_slot(const struct sandbox *sb)
{
	return sb->slot;
}
