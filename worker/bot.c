/*
 * bot: a persistent bot process (see bot.h for the contract).
 *
 * Theory of operation. bot_new() forks; the child makes its own process
 * group, asks to be killed with its parent, wires stdin/stdout to pipes and
 * stderr to the log, closes every other descriptor, moves to the build
 * folder, sets its rlimits, stops itself and, once continued for its first
 * call, execs /bin/sh -c RUN. A call continues the group, feeds the
 * request and reads the answer through non-blocking pipes in one poll
 * loop, so neither a bot that does not read nor one that writes forever
 * can block us or make us buffer more than BOT_MAX_LINE bytes; then the
 * group is stopped again. While waiting we sample /proc every
 * BOT_SAMPLE_MS for the group's memory and CPU. A dead or faulty bot stays
 * dead: every later call returns the same fault.
 */
#include "worker/bot.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"

/* How long a bot that closed its output gets to exit, so we can report
 * its exit status rather than just "closed its output". */
#define BOT_EXIT_GRACE_MS 200

struct bot {
	pid_t pid;		/* leader, also the process group id */
	int in;			/* its stdin, our write end; -1 once closed */
	int out;		/* its stdout, our read end */
	bool reaped;		/* leader waited for */
	int status;		/* its wait status once reaped */
	enum verdict fault;	/* VERDICT_OK until a fault kills it */
	char *fault_detail;
	int64_t memory_kb;	/* RLIMIT_AS */
	int64_t resident_kb;	/* resident limit after each call */
	int64_t cpu_ms;		/* largest group CPU time seen */
	int64_t wall_ms;
	int64_t peak_kb;	/* largest VmHWM seen */
	int64_t peak_vm_kb;	/* largest VmPeak seen */
	long ticks;		/* clock ticks per second */
};

/* --- the child --- */

static void
child_fail(const char *what)
{
	dprintf(2, "arena: cannot %s: %s\n", what, strerror(errno));
	_exit(126);
}

static void
child_limit(int resource, rlim_t v)
{
	struct rlimit rl = { v, v };

	if (setrlimit(resource, &rl) == -1)
		child_fail("set a resource limit");
}

static _Noreturn void
child_exec(pid_t parent, int in, int out, int err, const char *dir,
    const char *run, int64_t memory_kb)
{
	sigset_t none;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(126);
	if (dup2(in, 0) == -1 || dup2(out, 1) == -1 || dup2(err, 2) == -1)
		_exit(126);
	close_range(3, ~0U, 0);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (chdir(dir) == -1)
		child_fail("enter the build folder");
	child_limit(RLIMIT_CORE, 0);
	child_limit(RLIMIT_FSIZE, BOT_MAX_FILE);
	child_limit(RLIMIT_NOFILE, BOT_MAX_FILES);
	child_limit(RLIMIT_AS, (rlim_t)memory_kb * 1024);
	kill(getpid(), SIGSTOP);
	execl("/bin/sh", "sh", "-c", run, (char *)NULL);
	child_fail("run /bin/sh");
	_exit(127);
}

/* --- the parent --- */

static int
set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl == -1 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

struct bot *
bot_new(const char *dir, const char *run, const struct spec_limits *limits,
    const char *log_path)
{
	struct bot *b = xcalloc(1, sizeof *b);
	int pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, err = -1, st;
	pid_t parent = getpid();

	b->in = b->out = -1;
	b->memory_kb = limits->memory_mb * 1024;
	b->resident_kb = limits->resident_mb * 1024;
	b->ticks = sysconf(_SC_CLK_TCK);
	/* A bot that closes its stdin must give us EPIPE, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	err = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (err == -1) {
		log_errno("cannot open '%s'", log_path);
		goto fail;
	}
	if (pipe2(pin, O_CLOEXEC) == -1 || pipe2(pout, O_CLOEXEC) == -1) {
		log_errno("cannot create pipes");
		goto fail;
	}
	if ((b->pid = fork()) == -1) {
		log_errno("cannot fork");
		goto fail;
	}
	if (b->pid == 0)
		child_exec(parent, pin[0], pout[1], err, dir, run,
		    b->memory_kb);
	setpgid(b->pid, b->pid);
	b->in = pin[1];
	b->out = pout[0];
	pin[1] = pout[0] = -1;
	set_nonblock(b->in);
	set_nonblock(b->out);
	/* Wait until it has stopped itself, so it starts on its own time. */
	if (waitpid(b->pid, &st, WUNTRACED) == b->pid && !WIFSTOPPED(st)) {
		b->reaped = true;
		b->status = st;
	}
fail:
	for (int i = 0; i < 2; i++) {
		if (pin[i] != -1)
			close(pin[i]);
		if (pout[i] != -1)
			close(pout[i]);
	}
	if (err != -1)
		close(err);
	if (b->pid <= 0) {
		bot_free(b);
		return NULL;
	}
	return b;
}

pid_t
bot_pgid(const struct bot *b)
{
	return b->pid;
}

/* Reads the numbers after key in a /proc status text, in kB. */
static int64_t
status_kb(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : 0;
}

/* Adds one process's figures to the sums when it is in group pgid. */
static void
scan_one(struct bot *b, const char *pid, int64_t *rss_kb, int64_t *cpu)
{
	char path[64], buf[4096], *p;
	unsigned long long ut, st, cut, cst;
	int pgrp, fd;
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%s/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0 || (buf[n] = '\0', p = strrchr(buf, ')')) == NULL)
		return;
	/* After "pid (comm)": state ppid pgrp ... utime stime cutime cstime
	 * are fields 14-17 of the whole line. */
	if (sscanf(p + 2, "%*c %*d %d %*d %*d %*d %*u %*u %*u %*u %*u %llu "
	    "%llu %llu %llu", &pgrp, &ut, &st, &cut, &cst) != 5 ||
	    pgrp != b->pid)
		return;
	*cpu += (int64_t)(ut + st + cut + cst);
	snprintf(path, sizeof path, "/proc/%s/status", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	*rss_kb += status_kb(buf, "VmRSS:");
	if (status_kb(buf, "VmHWM:") > b->peak_kb)
		b->peak_kb = status_kb(buf, "VmHWM:");
	if (status_kb(buf, "VmPeak:") > b->peak_vm_kb)
		b->peak_vm_kb = status_kb(buf, "VmPeak:");
}

/* Samples every live process of the group; returns the summed VmRSS. */
static int64_t
scan_group(struct bot *b)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int64_t rss = 0, ticks = 0;

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (isdigit((unsigned char)de->d_name[0]))
			scan_one(b, de->d_name, &rss, &ticks);
	closedir(d);
	if (ticks * 1000 / b->ticks > b->cpu_ms)
		b->cpu_ms = ticks * 1000 / b->ticks;
	return rss;
}

static void
set_fault(struct bot *b, enum verdict v, char *detail)
{
	b->fault = v;
	free(b->fault_detail);
	b->fault_detail = detail;
}

/* The fault for a leader that has exited, from its wait status. */
static void
exit_fault(struct bot *b)
{
	int st = b->status;
	char *how;

	if (WIFSIGNALED(st))
		how = xasprintf("killed by signal %d (SIG%s)", WTERMSIG(st),
		    sigabbrev_np(WTERMSIG(st)) ? sigabbrev_np(WTERMSIG(st)) :
		    "?");
	else if (WEXITSTATUS(st) > 128 && WEXITSTATUS(st) < 128 + 32)
		/* sh -c reports a child killed by signal N as 128 + N. */
		how = xasprintf("exited with code %d (signal %d, SIG%s)",
		    WEXITSTATUS(st), WEXITSTATUS(st) - 128,
		    sigabbrev_np(WEXITSTATUS(st) - 128) ?
		    sigabbrev_np(WEXITSTATUS(st) - 128) : "?");
	else
		how = xasprintf("exited with code %d", WEXITSTATUS(st));
	if (b->peak_vm_kb * 10 >= b->memory_kb * 9) {
		set_fault(b, VERDICT_ML, xasprintf("%s after its address "
		    "space reached %lld MB of %lld MB", how,
		    (long long)b->peak_vm_kb / 1024,
		    (long long)b->memory_kb / 1024));
		free(how);
	} else
		set_fault(b, VERDICT_RE, how);
}

/* Stops the group and waits (briefly) until the leader has stopped, so
 * what we measure next is its state at the end of the call. */
static void
freeze(struct bot *b)
{
	int64_t until = clock_now_ms() + 100;
	pid_t r;
	int st;

	kill(-b->pid, SIGSTOP);
	while (!b->reaped && clock_now_ms() < until) {
		r = waitpid(b->pid, &st, WUNTRACED | WNOHANG);
		if (r == b->pid && WIFSTOPPED(st))
			return;
		if (r == b->pid) {
			b->reaped = true;
			b->status = st;
			return;
		}
		usleep(1000);
	}
}

static bool
try_reap(struct bot *b)
{
	if (!b->reaped && waitpid(b->pid, &b->status, WNOHANG) == b->pid)
		b->reaped = true;
	return b->reaped;
}

/* Its output closed: give the leader a moment to exit, then say why. */
static void
eof_fault(struct bot *b)
{
	int64_t until = clock_now_ms() + BOT_EXIT_GRACE_MS;

	while (!try_reap(b) && clock_now_ms() < until)
		usleep(5000);
	if (b->reaped)
		exit_fault(b);
	else
		set_fault(b, VERDICT_RE, xstrdup("closed its output"));
}

/* Throws away output left from earlier calls; a bot that keeps writing
 * between calls is flooding. */
static void
drain_stale(struct bot *b)
{
	char buf[4096];
	ssize_t n;
	size_t total = 0;

	while ((n = read(b->out, buf, sizeof buf)) > 0)
		total += (size_t)n;
	if (total > BOT_MAX_LINE)
		set_fault(b, VERDICT_OL, xasprintf("wrote %zu bytes outside "
		    "its calls", total));
	else if (total > 0)
		log_debug("bot %d: dropped %zu bytes of stale output",
		    (int)b->pid, total);
}

struct call {
	const char *req;	/* request bytes still to write */
	size_t reqlen;
	char *line;		/* answer so far, BOT_MAX_LINE + 1 bytes */
	size_t len;
	bool done;		/* a whole line read */
};

/* One step of reading; sets b->fault on EOF or an overlong line. */
static void
call_read(struct bot *b, struct call *c)
{
	ssize_t n;
	char *nl;

	n = read(b->out, c->line + c->len, BOT_MAX_LINE + 1 - c->len);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		eof_fault(b);
		return;
	}
	nl = memchr(c->line + c->len, '\n', (size_t)n);
	c->len += (size_t)n;
	if (nl) {
		*nl = '\0';
		c->len = (size_t)(nl - c->line);
		c->done = true;
	} else if (c->len > BOT_MAX_LINE)
		set_fault(b, VERDICT_OL, xasprintf("answer longer than %d "
		    "bytes", BOT_MAX_LINE));
}

static void
call_write(struct bot *b, struct call *c)
{
	ssize_t n = write(b->in, c->req, c->reqlen);

	if (n > 0) {
		c->req += n;
		c->reqlen -= (size_t)n;
	} else if (n == -1 && errno != EAGAIN && errno != EINTR) {
		/* It closed its stdin; its answer (or EOF) still decides. */
		close(b->in);
		b->in = -1;
		c->reqlen = 0;
	}
}

/* Runs the poll loop of one call until an answer, a fault or deadline. */
static void
call_loop(struct bot *b, struct call *c, int64_t deadline, bool game_time)
{
	int64_t left, last_scan = clock_now_ms();

	while (!c->done && b->fault == VERDICT_OK) {
		struct pollfd p[2] = {
			{ .fd = b->out, .events = POLLIN },
			{ .fd = c->reqlen ? b->in : -1, .events = POLLOUT },
		};

		if ((left = deadline - clock_now_ms()) <= 0) {
			set_fault(b, VERDICT_TO, game_time ?
			    xstrdup("game time exceeded") :
			    xasprintf("no answer within the call limit"));
			return;
		}
		poll(p, 2, (int)(left < BOT_SAMPLE_MS ? left : BOT_SAMPLE_MS));
		if (p[1].revents)
			call_write(b, c);
		if (p[0].revents)
			call_read(b, c);
		if (clock_now_ms() - last_scan >= BOT_SAMPLE_MS) {
			scan_group(b);
			last_scan = clock_now_ms();
		}
	}
}

int
bot_call(struct bot *b, const char *request, int64_t call_ms,
    int64_t remaining_ms, char **answer, enum verdict *verdict,
    char **detail)
{
	struct call c = { .req = request, .reqlen = strlen(request) };
	int64_t start, rss;

	*answer = *detail = NULL;
	if (b->fault == VERDICT_OK && try_reap(b))
		exit_fault(b);
	if (b->fault == VERDICT_OK)
		drain_stale(b);
	if (b->fault != VERDICT_OK)
		goto out;
	if (b->in == -1)
		c.reqlen = 0;
	c.line = xmalloc(BOT_MAX_LINE + 1);
	start = clock_now_ms();
	kill(-b->pid, SIGCONT);
	call_loop(b, &c, start + (call_ms < remaining_ms ? call_ms :
	    remaining_ms), remaining_ms <= call_ms);
	freeze(b);
	b->wall_ms += clock_now_ms() - start;
	rss = scan_group(b);
	if (b->fault == VERDICT_OK && rss > b->resident_kb)
		set_fault(b, VERDICT_ML, xasprintf("resident memory %lld MB "
		    "over the limit of %lld MB", (long long)rss / 1024,
		    (long long)b->resident_kb / 1024));
	if (b->fault == VERDICT_OK)
		*answer = xstrdup(c.line);
	free(c.line);
out:
	*verdict = b->fault;
	if (b->fault != VERDICT_OK)
		*detail = xstrdup(b->fault_detail);
	return 0;
}

/* We are a subreaper (bot_new), so the group's orphans come to us once
 * killed: reap them, or they stay zombies where init does not reap. */
static void
reap_group(struct bot *b)
{
	int64_t until = clock_now_ms() + 200;
	pid_t r;

	while ((r = waitpid(-b->pid, NULL, WNOHANG)) != -1 && clock_now_ms() < until)
		if (r == 0)
			usleep(2000);
}

void
bot_end(struct bot *b, struct bot_usage *usage)
{
	struct rusage ru;
	int64_t ms;

	if (b->pid > 0) {
		scan_group(b);
		kill(-b->pid, SIGKILL);
		if (!b->reaped && wait4(b->pid, &b->status, 0, &ru) == b->pid) {
			b->reaped = true;
			ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
			    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
			if (ms > b->cpu_ms)
				b->cpu_ms = ms;
		}
	}
	reap_group(b);
	if (usage) {
		usage->cpu_ms = b->cpu_ms;
		usage->wall_ms = b->wall_ms;
		usage->peak_kb = b->peak_kb;
	}
	if (b->fault == VERDICT_OK)
		set_fault(b, VERDICT_RE, xstrdup("ended"));
}

void
bot_free(struct bot *b)
{
	if (b == NULL)
		return;
	if (b->pid > 0)
		bot_end(b, NULL);
	if (b->in != -1)
		close(b->in);
	if (b->out != -1)
		close(b->out);
	free(b->fault_detail);
	free(b);
}
