/*
 * child: pid 1 of a sandbox and the command it starts.
 *
 * pid 1 (root of the new user namespace, no power outside it) builds the
 * root and forks the command's process, which drops to the command's uid
 * and loads its seccomp filter; then both wait for the command: the
 * sandbox can be prepared before anyone needs it. Given the run, pid 1
 * sizes /tmp, fills /box and passes the run on; the command's process
 * takes its descriptors and rlimits and execs, and pid 1 only reaps: the
 * command is never pid 1, so signals reach it as they would anywhere.
 * When the command ends, pid 1 sends its wait status to the parent and
 * exits, and the kernel kills the rest of the namespace: each run has
 * namespaces, /tmp and /box of its own. The exception is a run marked
 * `again` (a per-turn bot's calls, which may not start processes, so
 * the command's end is the end of everything it ran): pid 1 then stays,
 * forks the next command's process, and serves the next run of the same
 * bot in the same namespaces and /box, with a fresh /tmp and IPC
 * namespace (nothing but its folder carries over).
 *
 * A command without shell syntax (a bot's "./bot --fast") is exec'd
 * directly, as the shell would after "exec"; anything else, and any
 * failure of the direct exec, goes through /bin/sh -c, whose behaviour
 * (and messages) stay the reference.
 *
 * Errors are sent to the parent as text ("E" + reason) on the control
 * socket; nothing here logs, allocates or returns.
 */

#include "sandbox/child.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/filter.h"
#include "sandbox/rootfs.h"

#define MAX_ARGS 64

_Noreturn static void
die(int ctl, const char *what)
{
	char msg[512];
	int n = errno ? snprintf(msg, sizeof msg, "%c%s: %s", CHILD_ERROR,
	    what, strerror(errno)) : snprintf(msg, sizeof msg, "%c%s",
	    CHILD_ERROR, what);

	(void)send(ctl, msg, n < (int)sizeof msg ? (size_t)n : sizeof msg - 1,
	    MSG_NOSIGNAL);
	_exit(127);
}

static int
become(uid_t id)
{
	if (setresgid(id, id, id) < 0 || setgroups(0, NULL) < 0 ||
	    setresuid(id, id, id) < 0)
		return -1;
	return 0;
}

static int
limit(int resource, rlim_t value)
{
	struct rlimit r = { value, value };

	return setrlimit(resource, &r);
}

static int
set_limits(const struct child_run *a)
{
	const struct sandbox_limits *l = &a->limits;

	if (limit(RLIMIT_CORE, 0) < 0 ||
	    limit(RLIMIT_FSIZE, (rlim_t)l->file_kb * 1024) < 0 ||
	    limit(RLIMIT_NOFILE, (rlim_t)l->nofile) < 0 ||
	    limit(RLIMIT_NPROC, (rlim_t)l->pids) < 0 ||
	    limit(RLIMIT_MEMLOCK, 0) < 0 ||
	    limit(RLIMIT_STACK, (rlim_t)256 << 20) < 0)
		return -1;
	if (a->limit_data && l->memory_kb > 0 &&
	    limit(RLIMIT_DATA, (rlim_t)l->memory_kb * 1024) < 0)
		return -1;
	return 0;
}

/* The worker's signal dispositions (SIGPIPE ignored...) and mask must not
 * leak into the command through exec. */
static void
reset_signals(void)
{
	sigset_t none;

	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Moves in, out and err to 0, 1, 2 even when they overlap them. */
static int
std_fds(const int std[3])
{
	int fds[3];

	for (int i = 0; i < 3; i++)
		if ((fds[i] = fcntl(std[i], F_DUPFD_CLOEXEC, 10)) < 0)
			return -1;
	for (int i = 0; i < 3; i++)
		if (dup2(fds[i], i) < 0)
			return -1;
	return 0;
}

/* Splits a command of plain words (no quoting, expansion, redirection,
 * comment or operator) on blanks into argv; false for anything else. */
static bool
plain_words(char *cmd, char *argv[MAX_ARGS])
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@%^";
	int n = 0;

	for (char *p = cmd; *p; p++)
		if (*p != ' ' && *p != '\t' && !strchr(plain, *p))
			return false;
	for (char *w = strtok(cmd, " \t"); w; w = strtok(NULL, " \t")) {
		if (n == MAX_ARGS - 1)
			return false;
		argv[n++] = w;
	}
	argv[n] = NULL;
	return n > 0;
}

/* execve of argv[0], searched in PATH as the shell would; returns only
 * when that failed (the caller lets the shell try, and report). */
static void
exec_direct(char *argv[], char *envp[])
{
	static const char *const path[] = {
		"/usr/local/bin/", "/usr/bin/", "/bin/",
	};
	char file[512];

	if (strchr(argv[0], '/')) {
		execve(argv[0], argv, envp);
		return;
	}
	for (size_t i = 0; i < sizeof path / sizeof *path; i++) {
		snprintf(file, sizeof file, "%s%s", path[i], argv[0]);
		execve(file, argv, envp);
	}
}

/* The shell: "exec CMD" (one simple command) without processes. */
_Noreturn static void
exec_command(const struct child_run *a, bool processes, char *envp[])
{
	static char line[CHILD_COMMAND_MAX + 8], words[CHILD_COMMAND_MAX];
	char *argv[MAX_ARGS];

	snprintf(line, sizeof line, processes ? "%s" : "exec %s", a->command);
	snprintf(words, sizeof words, "%s", a->command);
	if (!processes && plain_words(words, argv))
		exec_direct(argv, envp);
	char *sh[] = { "sh", "-c", line, NULL };
	execve("/bin/sh", sh, envp);
	_exit(127);
}

/* Receives one message of size bytes with nfds descriptors (SCM_RIGHTS)
 * into fds; exits quietly on EOF or anything else (nobody is waiting). */
static void
receive_fds(int fd, void *buf, size_t size, int *fds, int nfds)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(4 * sizeof(int))];
	} control;
	struct iovec iov = { buf, size };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = &control, .msg_controllen = sizeof control,
	};
	ssize_t n;

	do
		n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	if (n != (ssize_t)size || !c || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(nfds * sizeof(int)))
		_exit(0);
	memcpy(fds, CMSG_DATA(c), nfds * sizeof(int));
}

static int
send_fds(int fd, const void *buf, size_t size, const int *fds, int nfds)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(4 * sizeof(int))];
	} control;
	struct iovec iov = { (void *)buf, size };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = &control,
		.msg_controllen = CMSG_SPACE(nfds * sizeof(int)),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
	memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	return sendmsg(fd, &msg, MSG_NOSIGNAL) == (ssize_t)size ? 0 : -1;
}

/* The command's process, forked while the sandbox is prepared: all that
 * does not depend on the run is done before the run comes (uid, CPU,
 * seccomp filter), so starting it costs only its descriptors, its
 * folder and its rlimits (lowered, which needs no privilege). */
_Noreturn static void
command(const struct child_setup *setup, int ctl, int inner)
{
	static struct child_run run;
	char go = 0;
	int std[3];
	/* PWD as the shell exports it, whichever way the command starts. */
	char *envp[] = {
		"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/box", "TMPDIR=/tmp",
		"LANG=C.UTF-8", "USER=bot", "PWD=/box", NULL,
	};

	reset_signals();
	if (setsid() < 0)
		die(ctl, "cannot start a session");
	if (become(CHILD_INSIDE_UID) < 0)
		die(ctl, "cannot drop to the command's uid");
	umask(022);
	/* Also when a cpuset pins it: the filter keeps it from widening. */
	if (setup->cpu >= 0) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(setup->cpu, &one);
		if (sched_setaffinity(0, sizeof one, &one) < 0)
			die(ctl, "cannot pin the command to its CPU");
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		die(ctl, "cannot set no_new_privs");
	if (filter_load(setup->processes) < 0)
		die(ctl, "cannot load the seccomp filter");
	receive_fds(inner, &run, sizeof run, std, 3);
	close(inner);
	if (std_fds(std) < 0)
		die(ctl, "cannot set up stdin, stdout, stderr");
	if (chdir("/box") < 0)
		die(ctl, "cannot enter /box");
	if (set_limits(&run) < 0)
		die(ctl, "cannot set rlimits");
	if (send(ctl, (char[]){ CHILD_READY }, 1, MSG_NOSIGNAL) != 1)
		_exit(127);
	if (read(ctl, &go, 1) != 1 || go != CHILD_GO)
		_exit(127);
	close_range(3, ~0U, 0);
	exec_command(&run, setup->processes, envp);
}

/* Reaps every process of the namespace until the command ends, and sends
 * its status. */
static void
reap(int ctl, pid_t cmd)
{
	int status;

	for (;;) {
		pid_t pid = waitpid(-1, &status, 0);
		if (pid == cmd) {
			if (send(ctl, &status, sizeof status, MSG_NOSIGNAL) !=
			    sizeof status)
				_exit(0);
			return;
		}
		if (pid < 0 && errno != EINTR)
			_exit(127);
	}
}

/* Forks the command's process, ready up to the run; *inner: our end of
 * the socket the run goes through. Says CHILD_PREPARED. */
static pid_t
fork_command(const struct child_setup *setup, int ctl, int *inner)
{
	int sp[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0)
		die(ctl, "cannot create a socket");
	pid_t pid = fork();
	if (pid < 0)
		die(ctl, "cannot fork the command");
	if (pid == 0) {
		close(sp[0]);
		command(setup, ctl, sp[1]);
	}
	close(sp[1]);
	*inner = sp[0];
	if (send(ctl, (char[]){ CHILD_PREPARED }, 1, MSG_NOSIGNAL) != 1)
		_exit(127);
	return pid;
}

/* Takes the run: its /tmp and /box, then hands it to the command's
 * process. The first run mounts its folder; a later one (again) keeps it
 * and its folder's fd is not used, and its /tmp, made new when the last
 * run ended (tmp_kb), is only made again if it wants another size. */
static void
start_run(int ctl, struct child_run *run, int inner, int64_t tmp_kb)
{
	char err[512];
	int fds[4];

	receive_fds(ctl, run, sizeof *run, fds, 4);
	run->command[sizeof run->command - 1] = '\0';
	if (run->type != CHILD_RUN)
		_exit(127);
	if (tmp_kb < 0 ? rootfs_finish(fds[3], run->keep_box,
	    run->limits.tmp_kb, run->limits.box_kb, err, sizeof err) < 0 :
	    run->limits.tmp_kb != tmp_kb &&
	    rootfs_renew_tmp(run->limits.tmp_kb, err, sizeof err) < 0) {
		errno = 0;
		die(ctl, err);
	}
	if (tmp_kb >= 0)
		close(fds[3]);
	if (send_fds(inner, run, sizeof *run, fds, 3) < 0)
		die(ctl, "cannot start the command");
	/* Holding no copy of the command's pipes, so their EOF is its own. */
	for (int i = 0; i < 3; i++)
		close(fds[i]);
	close(inner);
}

/* Between two runs (again): nothing of the last but its folder stays.
 * System V and POSIX IPC objects outlive their processes: a new IPC
 * namespace leaves them behind, gone; /tmp is a new tmpfs. Done before
 * the next run is asked for, off its critical path. */
static void
renew(int ctl, int64_t tmp_kb)
{
	char err[512];

	if (unshare(CLONE_NEWIPC) < 0)
		die(ctl, "cannot make a new IPC namespace");
	if (rootfs_renew_tmp(tmp_kb, err, sizeof err) < 0) {
		errno = 0;
		die(ctl, err);
	}
}

_Noreturn void
child_init(int ctl)
{
	static struct child_run run;
	struct child_setup setup;
	char err[512];
	int inner;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* Nothing of whoever cloned us but the control socket. */
	close_range(0, (unsigned)ctl - 1, 0);
	close_range((unsigned)ctl + 1, ~0U, 0);
	/* EOF here means the parent died before PDEATHSIG was armed. */
	if (read(ctl, &setup, sizeof setup) != sizeof setup ||
	    setup.type != CHILD_MAPPED)
		_exit(127);
	if (become(0) < 0)
		die(ctl, "cannot become root of the user namespace");
	if (sethostname("arena", 5) < 0)
		die(ctl, "cannot set the host name");
	if (rootfs_prepare(err, sizeof err) < 0) {
		errno = 0;
		die(ctl, err);
	}
	for (int64_t tmp_kb = -1;; tmp_kb = run.limits.tmp_kb) {
		pid_t pid = fork_command(&setup, ctl, &inner);
		start_run(ctl, &run, inner, tmp_kb);
		reap(ctl, pid);
		/* Without processes the command's end is everything's. */
		if (!run.again || setup.processes)
			_exit(0);
		renew(ctl, run.limits.tmp_kb);
	}
}
