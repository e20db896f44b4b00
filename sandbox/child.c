/*
 * child: pid 1 of a sandbox and the command it starts.
 *
 * pid 1 (root of the new user namespace, no power outside it) builds the
 * root, forks the command and then only reaps: the command is never pid 1,
 * so signals reach it as they would anywhere. When the command ends, pid 1
 * sends its wait status to the parent and exits, and the kernel kills the
 * rest of the namespace.
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
set_limits(const struct child_args *a)
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
std_fds(const struct child_args *a)
{
	int fds[3] = { a->in, a->out, a->err };

	for (int i = 0; i < 3; i++)
		if ((fds[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 10)) < 0)
			return -1;
	for (int i = 0; i < 3; i++)
		if (dup2(fds[i], i) < 0)
			return -1;
	return 0;
}

_Noreturn static void
command(const struct child_args *a)
{
	char go = 0;
	char *shell = a->processes ? (char *)a->command : NULL;
	char line[8192];

	if (!a->processes) {
		snprintf(line, sizeof line, "exec %s", a->command);
		shell = line;
	}
	char *argv[] = { "sh", "-c", shell, NULL };
	char *envp[] = {
		"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/box", "TMPDIR=/tmp",
		"LANG=C.UTF-8", "USER=bot", NULL,
	};

	reset_signals();
	if (setsid() < 0)
		die(a->ctl, "cannot start a session");
	if (std_fds(a) < 0)
		die(a->ctl, "cannot set up stdin, stdout, stderr");
	if (chdir("/box") < 0)
		die(a->ctl, "cannot enter /box");
	if (become(CHILD_INSIDE_UID) < 0)
		die(a->ctl, "cannot drop to the command's uid");
	umask(022);
	if (set_limits(a) < 0)
		die(a->ctl, "cannot set rlimits");
	/* Also when a cpuset pins it: the filter keeps it from widening. */
	if (a->cpu >= 0) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(a->cpu, &one);
		if (sched_setaffinity(0, sizeof one, &one) < 0)
			die(a->ctl, "cannot pin the command to its CPU");
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		die(a->ctl, "cannot set no_new_privs");
	if (filter_load(a->processes) < 0)
		die(a->ctl, "cannot load the seccomp filter");
	if (send(a->ctl, (char[]){ CHILD_READY }, 1, MSG_NOSIGNAL) != 1)
		_exit(127);
	if (read(a->ctl, &go, 1) != 1 || go != CHILD_GO)
		_exit(127);
	close_range(3, ~0U, 0);
	execve("/bin/sh", argv, envp);
	_exit(127);
}

/* Reaps every process of the namespace until the command ends. */
_Noreturn static void
reap(int ctl, pid_t cmd)
{
	int status;

	for (;;) {
		pid_t pid = waitpid(-1, &status, 0);
		if (pid == cmd) {
			(void)send(ctl, &status, sizeof status, MSG_NOSIGNAL);
			_exit(0);
		}
		if (pid < 0 && errno != EINTR)
			_exit(127);
	}
}

_Noreturn void
child_init(const struct child_args *a)
{
	char msg = 0, err[512];

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* EOF here means the parent died before PDEATHSIG was armed. */
	if (read(a->ctl, &msg, 1) != 1 || msg != CHILD_MAPPED)
		_exit(127);
	if (become(0) < 0)
		die(a->ctl, "cannot become root of the user namespace");
	if (sethostname("arena", 5) < 0)
		die(a->ctl, "cannot set the host name");
	if ((a->keep_box ? rootfs_build(a->dir, a->box_fd, a->limits.tmp_kb,
	    err, sizeof err) : rootfs_build_copy(a->box_fd, a->limits.tmp_kb,
	    a->limits.box_kb, err, sizeof err)) < 0) {
		errno = 0;
		die(a->ctl, err);
	}
	pid_t pid = fork();
	if (pid < 0)
		die(a->ctl, "cannot fork the command");
	if (pid == 0)
		command(a);
	/* Holding no copy of the command's pipes, so their EOF is its own. */
	close_range(0, (unsigned)a->ctl - 1, 0);
	close_range((unsigned)a->ctl + 1, ~0U, 0);
	reap(a->ctl, pid);
}
