/*
 * bot: the worker's side of a persistent bot's pipes. The sandbox holds
 * the process; this module speaks to it one call at a time.
 *
 * A call: thaw, then one poll loop writes the request (non-blocking: a
 * bot that does not read cannot block us) and reads until a newline, the
 * deadline, the end of its output or the end of the sandbox itself; then
 * freeze and look at what it keeps resident. On the CPU clock the loop
 * wakes every BOT_CPU_POLL_MS to read the sandbox's CPU time, with a wall
 * backstop for bots that sleep.
 */
#include "worker/bot.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"
#include "sandbox/sandbox.h"
#include "worker/turnbot.h"

struct bot {
	struct turnbot *turns;	/* a per-turn bot: all the rest unused */
	struct sandbox *sb;
	int in;			/* its stdin, our write end; -1 once closed */
	int out;		/* its stdout, our read end */
	struct spec_limits limits;
	enum verdict fault;	/* VERDICT_OK until a fault kills it */
	char *fault_detail;
	int64_t wall_ms;	/* spent inside calls */
	struct sandbox_usage last;	/* as of its last call */
	bool lone;		/* no new tasks after the first call */
	int tasks;		/* tasks after its first call; 0 before */
	int calls;		/* calls answered so far */
	int64_t last_ms;	/* wall time of the last call */
	bool listening;		/* thawed after the last call: last is final */
};

struct call {
	const char *req;	/* request bytes still to write */
	size_t reqlen;
	char *line;		/* answer so far, BOT_MAX_LINE + 1 bytes */
	size_t len;
	bool done;		/* a whole line read */
	bool eof;		/* its output closed */
};

static void
set_fault(struct bot *b, enum verdict v, char *detail)
{
	b->fault = v;
	free(b->fault_detail);
	b->fault_detail = detail;
}

static int
nonblocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl == -1 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

struct bot *
bot_new(const char *dir, const char *run, const struct spec_limits *limits,
    const char *log_path)
{
	struct bot *b = xcalloc(1, sizeof *b);
	int pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, err;
	struct sandbox_opts o = { .dir = dir, .command = run,
	    .limits = { .memory_kb = limits->memory_mb * 1024 },
	    .frozen = !limits->ponder };

	b->in = b->out = -1;
	b->limits = *limits;
	/* A bot that closes its stdin must give us EPIPE, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	err = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (err == -1) {
		log_errno("cannot open '%s'", log_path);
		goto fail;
	}
	if (pipe2(pin, O_CLOEXEC) == -1 || pipe2(pout, O_CLOEXEC) == -1) {
		log_errno("cannot create pipes");
		goto fail;
	}
	o.in = pin[0];
	o.out = pout[1];
	o.err = err;
	if ((b->sb = sandbox_new(&o)) == NULL)
		goto fail;
	b->in = pin[1];
	b->out = pout[0];
	pin[1] = pout[0] = -1;
	if (nonblocking(b->in) == -1 || nonblocking(b->out) == -1) {
		log_errno("cannot make the bot's pipes non-blocking");
		goto fail;
	}
	close(pin[0]);
	close(pout[1]);
	close(err);
	return b;
fail:
	for (int i = 0; i < 2; i++) {
		if (pin[i] != -1)
			close(pin[i]);
		if (pout[i] != -1)
			close(pout[i]);
	}
	if (err != -1)
		close(err);
	bot_free(b);
	return NULL;
}

struct bot *
bot_new_per_turn(const char *built, const char *run, enum game_bots mode,
    const struct spec_limits *limits, const char *log_path)
{
	struct bot *b = xcalloc(1, sizeof *b);

	b->in = b->out = -1;
	b->limits = *limits;
	b->turns = turnbot_new(built, run, mode, limits, log_path);
	if (b->turns == NULL) {
		free(b);
		return NULL;
	}
	return b;
}

/* Its output closed: the fault is how its sandbox ended, which may take a
 * moment after the pipe (the memory cgroup's kill, say) to be known. */
static void
end_fault(struct bot *b)
{
	struct pollfd p = { .fd = sandbox_fd(b->sb), .events = POLLIN };
	enum verdict v;
	char *detail;

	poll(&p, 1, BOT_END_GRACE_MS);
	if (sandbox_ended(b->sb, &v, &detail) != 1) {
		set_fault(b, VERDICT_RE, xstrdup("closed its output"));
		return;
	}
	set_fault(b, v == VERDICT_OK ? VERDICT_RE : v, v == VERDICT_OK ?
	    xstrdup("exited before the game ended") : detail);
	if (v == VERDICT_OK)
		free(detail);
}

/* Output with no call open: none is allowed (a second answer, or one
 * before the question); a flood is OL. */
static void
drain_stale(struct bot *b)
{
	char buf[4096];
	ssize_t n;
	size_t total = 0;

	while (total <= BOT_MAX_LINE && (n = read(b->out, buf, sizeof buf)) > 0)
		total += (size_t)n;
	if (total > BOT_MAX_LINE)
		set_fault(b, VERDICT_OL, xasprintf("wrote over %d bytes outside "
		    "its calls", BOT_MAX_LINE));
	else if (total > 0)
		set_fault(b, VERDICT_WA, xstrdup(b->calls == 0 ? "wrote before "
		    "it was asked" : "answered twice"));
}

static void
call_read(struct bot *b, struct call *c)
{
	ssize_t n;
	char *nl;

	n = read(b->out, c->line + c->len, BOT_MAX_LINE + 1 - c->len);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		c->eof = true;
		return;
	}
	nl = memchr(c->line + c->len, '\n', (size_t)n);
	c->len += (size_t)n;
	if (nl) {
		if (nl + 1 < c->line + c->len)
			set_fault(b, VERDICT_WA, xstrdup("answered twice"));
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
		/* It closed its stdin; its answer (or its end) decides. */
		close(b->in);
		b->in = -1;
		c->reqlen = 0;
	}
}

/* The time the call has used so far on the limits' clock. */
static int64_t
call_used(struct bot *b, int64_t start_wall, int64_t start_cpu)
{
	struct sandbox_usage u;

	if (b->limits.clock == SPEC_CLOCK_WALL ||
	    sandbox_usage(b->sb, &u) == -1)
		return clock_now_ms() - start_wall;
	return u.cpu_ms - start_cpu;
}

/* Polls until an answer, a fault, or the budget is spent. */
static void
call_loop(struct bot *b, struct call *c, int64_t budget, bool game_time)
{
	int64_t start = clock_now_ms(), cpu0 = b->last.cpu_ms, used, wait;
	bool cpu = b->limits.clock == SPEC_CLOCK_CPU;

	while (!c->done && !c->eof && b->fault == VERDICT_OK) {
		struct pollfd p[3] = {
			{ .fd = b->out, .events = POLLIN },
			{ .fd = c->reqlen ? b->in : -1, .events = POLLOUT },
			{ .fd = sandbox_fd(b->sb), .events = POLLIN },
		};

		used = call_used(b, start, cpu0);
		if (used >= budget || (cpu && clock_now_ms() - start >=
		    BOT_WALL_FACTOR * budget)) {
			set_fault(b, VERDICT_TO, game_time ?
			    xasprintf("game time exceeded (%s clock)", cpu ?
			    "CPU" : "wall") : xasprintf("no answer within "
			    "%lld ms (%s clock)", (long long)budget, cpu ?
			    "CPU" : "wall"));
			return;
		}
		wait = budget - used;
		if (cpu && wait > BOT_CPU_POLL_MS)
			wait = BOT_CPU_POLL_MS;
		poll(p, 3, (int)wait);
		if (p[1].revents)
			call_write(b, c);
		if (p[0].revents)
			call_read(b, c);
		else if (p[2].revents)
			c->eof = true;	/* its sandbox ended, output drained */
	}
}

/* After a call: frozen again, usage read, resident memory checked. */
static int
call_end(struct bot *b)
{
	if (!b->limits.ponder && sandbox_freeze(b->sb) == -1)
		return -1;
	if (sandbox_usage(b->sb, &b->last) == -1)
		return -1;
	if (b->fault == VERDICT_OK &&
	    b->last.resident_kb > b->limits.resident_mb * 1024)
		set_fault(b, VERDICT_ML, xasprintf("%lld MB resident after its "
		    "call, over the limit of %lld MB",
		    (long long)b->last.resident_kb / 1024,
		    (long long)b->limits.resident_mb));
	if (b->fault == VERDICT_OK && b->lone && b->tasks > 0 &&
	    b->last.tasks > b->tasks)
		set_fault(b, VERDICT_SV, xasprintf("%d threads or processes "
		    "left running after its call, %d more than after its "
		    "first", b->last.tasks, b->last.tasks - b->tasks));
	if (b->tasks == 0)
		b->tasks = b->last.tasks;
	return 0;
}

void
bot_forbid_new_tasks(struct bot *b)
{
	b->lone = true;
}

int
bot_call(struct bot *b, const char *request, int64_t call_ms,
    int64_t remaining_ms, char **answer, enum verdict *verdict,
    char **detail)
{
	struct call c = { .req = request, .reqlen = strlen(request) };
	int64_t start;
	int rc = 0;

	if (b->turns)
		return turnbot_call(b->turns, request, call_ms, remaining_ms,
		    answer, verdict, detail);
	*answer = *detail = NULL;
	b->last_ms = 0;
	if (b->fault == VERDICT_OK)
		drain_stale(b);
	if (b->fault != VERDICT_OK)
		goto out;
	if (b->in == -1)
		c.reqlen = 0;
	c.line = xmalloc(BOT_MAX_LINE + 1);
	start = clock_now_ms();
	if (!b->limits.ponder && sandbox_thaw(b->sb) == -1) {
		free(c.line);
		return -1;
	}
	call_loop(b, &c, call_ms < remaining_ms ? call_ms : remaining_ms,
	    remaining_ms <= call_ms);
	b->last_ms = clock_now_ms() - start;
	b->wall_ms += b->last_ms;
	if (c.eof && !c.done && b->fault == VERDICT_OK)
		end_fault(b);
	rc = call_end(b);
	b->calls++;
	if (b->fault == VERDICT_OK)
		*answer = xstrdup(c.line);
	free(c.line);
out:
	*verdict = b->fault;
	if (b->fault != VERDICT_OK)
		*detail = xstrdup(b->fault_detail);
	return rc;
}

int64_t
bot_last_ms(const struct bot *b)
{
	return b->turns ? turnbot_last_ms(b->turns) : b->last_ms;
}

void
bot_listen(struct bot *b)
{
	if (b->turns || b->fault != VERDICT_OK || b->listening)
		return;
	(void)sandbox_usage(b->sb, &b->last);
	b->listening = true;
	/* The game's end is the end of its input. */
	if (b->in != -1)
		close(b->in);
	b->in = -1;
	if (!b->limits.ponder)
		(void)sandbox_thaw(b->sb);
}

int
bot_after_game(struct bot *b, int64_t deadline_ms, char **detail)
{
	struct pollfd p;
	int64_t left;
	char c;

	*detail = NULL;
	if (b->turns || b->fault != VERDICT_OK)
		return 0;
	p.fd = b->out;
	p.events = POLLIN;
	do {
		left = deadline_ms - clock_now_ms();
		if (poll(&p, 1, left > 0 ? (int)left : 0) == 1 &&
		    read(b->out, &c, 1) == 1) {
			*detail = xstrdup("wrote after the game ended");
			return 1;
		}
	} while (left > 0 && !(p.revents & (POLLHUP | POLLERR)));
	return 0;
}

void
bot_end(struct bot *b, struct bot_usage *usage)
{
	struct sandbox_usage u;

	if (b->turns) {
		if (usage)
			turnbot_usage(b->turns, usage);
		return;
	}
	if (!b->listening && sandbox_usage(b->sb, &u) == 0)
		b->last = u;
	sandbox_kill(b->sb);
	if (usage) {
		usage->cpu_ms = b->last.cpu_ms;
		usage->wall_ms = b->wall_ms;
		usage->peak_kb = b->last.peak_kb;
	}
	if (b->fault == VERDICT_OK)
		set_fault(b, VERDICT_RE, xstrdup("ended"));
}

void
bot_free(struct bot *b)
{
	if (b == NULL)
		return;
	turnbot_free(b->turns);
	sandbox_free(b->sb);
	if (b->in != -1)
		close(b->in);
	if (b->out != -1)
		close(b->out);
	free(b->fault_detail);
	free(b);
}

pid_t
bot_pid(const struct bot *b)
{
	return b->turns ? -1 : sandbox_pid(b->sb);
}
