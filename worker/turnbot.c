/*
 * turnbot: per-turn bots. A seat's calls are commands run one after the
 * other in one sandbox (sandbox/sandbox.h) made with `again`: its private
 * /box, a size-limited tmpfs filled from the built folder, lasts from call
 * to call (the bot's only memory) and goes with the sandbox at the end of
 * the game; each call is a new process with a fresh /tmp and IPC
 * namespace, which makes it about as cheap as a plain fork and exec. The
 * command may not start processes, so killing it when the call ends
 * leaves nothing of it running.
 *
 * The sandbox is made by a first run of "true" before the first call, so
 * that even that call finds its input.txt in /box. We reach /box through
 * a descriptor of it (sandbox_box()) and never follow what the bot may
 * have planted there.
 */
#include "worker/turnbot.h"

#include <sys/fsuid.h>
#include <sys/stat.h>

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
#include "common/tree.h"
#include "sandbox/sandbox.h"
#include "worker/bot.h"

struct turnbot {
	char *built;		/* the build's folder, copied to its /box */
	char *run;
	enum game_bots mode;
	struct spec_limits limits;
	int log;		/* its stderr */
	int null;		/* /dev/null: its stdin (and stdout in FILES) */
	struct sandbox *sb;	/* made before the first call, kept */
	int box;		/* its /box, once sb is made; else -1 */
	struct bot_usage usage;	/* over the game's calls */
	int64_t last_ms;
};

/* One call in progress. */
struct turn {
	struct sandbox *sb;	/* borrowed: the turnbot's */
	int out;		/* ARG: its stdout, our read end; else -1 */
	char line[BOT_MAX_LINE + 1];	/* the answer so far */
	size_t len;
	bool answered;		/* a whole first line read (ARG) */
	size_t extra;		/* stdout bytes read after it */
	bool late;		/* killed at the deadline */
	enum verdict fault;	/* found by us (OL, a trap), else OK */
	char *detail;
};

struct turnbot *
turnbot_new(const char *built, const char *run, enum game_bots mode,
    const struct spec_limits *limits, const char *log_path)
{
	struct turnbot *tb = xcalloc(1, sizeof *tb);

	tb->built = xstrdup(built);
	tb->run = xstrdup(run);
	tb->mode = mode;
	tb->limits = *limits;
	tb->box = -1;
	signal(SIGPIPE, SIG_IGN);
	tb->log = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
	    0644);
	tb->null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (tb->log == -1 || tb->null == -1) {
		log_errno("cannot open '%s' or /dev/null", log_path);
		turnbot_free(tb);
		return NULL;
	}
	return tb;
}

static void
drop_sandbox(struct turnbot *tb)
{
	sandbox_free(tb->sb);
	tb->sb = NULL;
	if (tb->box != -1)
		close(tb->box);
	tb->box = -1;
}

/* The seat's sandbox, its /box filled from the build by a run of "true".
 * 0, or -1 after logging. */
static int
open_sandbox(struct turnbot *tb, const struct sandbox_opts *o)
{
	struct sandbox_opts first = *o;
	enum verdict v = VERDICT_XX;
	char *detail = NULL;

	first.command = "true";
	first.out = tb->null;
	if ((tb->sb = sandbox_new(&first)) == NULL)
		return -1;
	if (sandbox_wait(tb->sb, TURNBOT_SETUP_MS, &v, &detail) == 0 &&
	    v == VERDICT_OK && (tb->box = sandbox_box(tb->sb)) != -1) {
		free(detail);
		return 0;
	}
	if (v != VERDICT_OK)
		log_error("cannot set up a per-turn bot's sandbox: %s",
		    detail ? detail : "?");
	free(detail);
	drop_sandbox(tb);
	return -1;
}

/* FILES: a fresh input.txt with the view, the bot's own, and no
 * output.txt, whatever the bot had made of them. 0, or -1 after
 * logging. */
static int
write_input(struct turnbot *tb, const char *view)
{
	uid_t uid = SANDBOX_BOT_UID_BASE + sandbox_slot(tb->sb);
	size_t len = strlen(view);
	int fd, rc = -1;

	if (tree_remove_at(tb->box, "input.txt") == -1 ||
	    tree_remove_at(tb->box, "output.txt") == -1)
		return -1;
	/* Its /box belongs to the sandbox's user namespace, where only the
	 * bot's uid is a file owner we may create as: we act as the bot. */
	gid_t old_gid = (gid_t)setfsgid(uid);
	uid_t old_uid = (uid_t)setfsuid(uid);
	fd = openat(tb->box, "input.txt", O_WRONLY | O_CREAT | O_EXCL |
	    O_NOFOLLOW | O_CLOEXEC, 0644);
	int err = errno;
	setfsuid(old_uid);
	setfsgid(old_gid);
	if (fd == -1) {
		errno = err;
		return log_errno("cannot create a bot's input.txt");
	}
	if (write(fd, view, len) == (ssize_t)len)
		rc = 0;
	else
		log_errno("cannot write a bot's input.txt");
	close(fd);
	return rc;
}

/* ARG: "RUN 'VIEW'", the view without its newline, quoted for sh. */
static char *
arg_command(const char *run, const char *view)
{
	size_t n = strlen(view);
	char *cmd = xmalloc(strlen(run) + 4 * n + 4), *p;

	p = cmd + sprintf(cmd, "%s '", run);
	if (n > 0 && view[n - 1] == '\n')
		n--;
	for (size_t i = 0; i < n; i++) {
		if (view[i] == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else
			*p++ = view[i];
	}
	strcpy(p, "'");
	return cmd;
}

/* Runs the call's command in the seat's sandbox (FILES: after its
 * input). A sandbox that cannot run it is replaced once: the bot's
 * folder then starts afresh from the build. 0, or -1 after logging. */
static int
run_command(struct turnbot *tb, const struct sandbox_opts *o,
    const char *view)
{
	for (int tries = 0; tries < 2; tries++) {
		if (tb->sb == NULL && open_sandbox(tb, o) == -1)
			return -1;
		if ((tb->mode != GAME_BOTS_PER_TURN_FILES ||
		    write_input(tb, view) == 0) && sandbox_again(tb->sb, o) == 0)
			return 0;
		drop_sandbox(tb);
	}
	return -1;
}

/* Starts the call's command. 0, or -1 after logging. */
static int
spawn(struct turnbot *tb, const char *view, struct turn *t)
{
	struct sandbox_opts o = { .dir = tb->built, .in = tb->null,
	    .out = tb->null, .err = tb->log, .again = true,
	    .limits = { .memory_kb = tb->limits.memory_mb * 1024 } };
	int p[2], rc;
	char *cmd;

	if (tb->mode == GAME_BOTS_PER_TURN_FILES) {
		o.command = tb->run;
		rc = run_command(tb, &o, view);
		t->sb = tb->sb;
		return rc;
	}
	if (pipe2(p, O_CLOEXEC) == -1)
		return log_errno("cannot create a pipe");
	/* Only our end is non-blocking: its stdout is a plain pipe. */
	if (fcntl(p[0], F_SETFL, O_NONBLOCK) == -1) {
		close(p[0]);
		close(p[1]);
		return log_errno("cannot make a pipe non-blocking");
	}
	o.out = p[1];
	o.command = cmd = arg_command(tb->run, view);
	rc = run_command(tb, &o, view);
	t->sb = tb->sb;
	t->out = p[0];
	free(cmd);
	close(p[1]);
	return rc;
}

/* Reads what its stdout has: the first line, then counts the rest. */
static void
turn_read(struct turn *t)
{
	char buf[4096], *dst = t->answered ? buf : t->line + t->len;
	size_t room = t->answered ? sizeof buf : BOT_MAX_LINE + 1 - t->len;
	ssize_t n;
	char *nl;

	while ((n = read(t->out, dst, room)) > 0) {
		if (t->answered) {
			t->extra += (size_t)n;
			continue;
		}
		nl = memchr(dst, '\n', (size_t)n);
		if (nl) {
			t->extra = (size_t)(dst + n - nl - 1);
			t->len = (size_t)(nl - t->line);
			t->answered = true;
		} else
			t->len += (size_t)n;
		if (t->answered || t->len > BOT_MAX_LINE)
			break;
		dst = t->line + t->len;
		room = BOT_MAX_LINE + 1 - t->len;
	}
	if (!t->answered && t->len > BOT_MAX_LINE)
		t->fault = VERDICT_OL;
	else if (t->extra > TURNBOT_MAX_OUTPUT)
		t->fault = VERDICT_OL;
	if (t->fault == VERDICT_OL && t->detail == NULL)
		t->detail = xasprintf("wrote over %d bytes", t->answered ?
		    TURNBOT_MAX_OUTPUT : BOT_MAX_LINE);
}

/* The time the call has used on the limits' clock. */
static int64_t
turn_used(struct turnbot *tb, struct turn *t, int64_t start)
{
	struct sandbox_usage u;

	if (tb->limits.clock == SPEC_CLOCK_WALL ||
	    sandbox_usage(t->sb, &u) == -1)
		return clock_now_ms() - start;
	return u.cpu_ms;
}

/* Polls until the command ends, we find a fault, or the budget is spent
 * (then it is killed). */
static void
turn_loop(struct turnbot *tb, struct turn *t, int64_t budget)
{
	int64_t start = clock_now_ms(), used, wait;
	bool cpu = tb->limits.clock == SPEC_CLOCK_CPU;

	for (;;) {
		struct pollfd p[2] = {
			{ .fd = sandbox_fd(t->sb), .events = POLLIN },
			{ .fd = t->out, .events = POLLIN },
		};

		used = turn_used(tb, t, start);
		if (used >= budget || (cpu && clock_now_ms() - start >=
		    BOT_WALL_FACTOR * budget)) {
			t->late = true;
			break;
		}
		wait = budget - used;
		if (cpu && wait > BOT_CPU_POLL_MS)
			wait = BOT_CPU_POLL_MS;
		poll(p, t->out == -1 ? 1 : 2, (int)wait);
		if (p[1].revents)
			turn_read(t);
		if (t->fault != VERDICT_OK || p[0].revents)
			break;
	}
	sandbox_kill(t->sb);
	tb->last_ms = clock_now_ms() - start;
	if (t->out != -1 && t->fault == VERDICT_OK)
		turn_read(t);	/* what it wrote before it ended */
}

/* FILES: the first line of output.txt, read without following a symlink
 * or blocking on a FIFO. Sets t's fault when it is a trap or too long. */
static void
read_output(struct turnbot *tb, struct turn *t)
{
	int fd = openat(tb->box, "output.txt", O_RDONLY | O_NOFOLLOW |
	    O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	ssize_t n;
	char *nl;

	if (fd == -1) {
		if (errno == ELOOP) {
			t->fault = VERDICT_SV;
			t->detail = xstrdup("output.txt is a symlink");
		}
		return;		/* none: no answer */
	}
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		t->fault = VERDICT_SV;
		t->detail = xstrdup("output.txt is not a regular file");
		close(fd);
		return;
	}
	n = read(fd, t->line, BOT_MAX_LINE + 1);
	close(fd);
	t->len = n > 0 ? (size_t)n : 0;
	nl = memchr(t->line, '\n', t->len);
	if (nl)
		t->len = (size_t)(nl - t->line);
	else if (t->len > BOT_MAX_LINE) {
		t->fault = VERDICT_OL;
		t->detail = xasprintf("output.txt's first line is longer than "
		    "%d bytes", BOT_MAX_LINE);
	}
	t->answered = t->len > 0 || nl != NULL;
}

static const char *
clock_name(const struct turnbot *tb)
{
	return tb->limits.clock == SPEC_CLOCK_CPU ? "CPU" : "wall";
}

/* Why a call that ran out of time has no answer. */
static char *
late_detail(struct turnbot *tb, int64_t budget, bool game_time)
{
	if (game_time)
		return xasprintf("game time exceeded (%s clock)",
		    clock_name(tb));
	return xasprintf("no answer within %lld ms (%s clock)",
	    (long long)budget, clock_name(tb));
}

/* The call's verdict: ours (OL, a trap), the sandbox's (RE, ML, SV), the
 * deadline's (TO, unless it had answered). A bot that ends in time
 * without answering is OK: silence is the per-turn games' own "no
 * answer" (Slime's pass, Space Wars' N), which their rules allow. */
static enum verdict
judge(struct turnbot *tb, struct turn *t, int64_t budget, bool game_time,
    char **detail)
{
	enum verdict v;
	char *d = NULL;

	if (t->fault != VERDICT_OK) {
		*detail = t->detail;
		t->detail = NULL;
		return t->fault;
	}
	if (sandbox_ended(t->sb, &v, &d) != 1)
		v = VERDICT_RE;
	if (t->late || v == VERDICT_OK) {
		free(d);
		if (t->answered || !t->late)
			return VERDICT_OK;
		*detail = late_detail(tb, budget, game_time);
		return VERDICT_TO;
	}
	*detail = d ? d : xstrdup("ended abnormally");
	return v;
}

/* Adds the call's usage to the game's. */
static void
account(struct turnbot *tb, struct turn *t)
{
	struct sandbox_usage u;

	tb->usage.wall_ms += tb->last_ms;
	if (sandbox_usage(t->sb, &u) == -1)
		return;
	tb->usage.cpu_ms += u.cpu_ms;
	if (u.peak_kb > tb->usage.peak_kb)
		tb->usage.peak_kb = u.peak_kb;
}

int
turnbot_call(struct turnbot *tb, const char *view, int64_t call_ms,
    int64_t remaining_ms, char **answer, enum verdict *verdict,
    char **detail)
{
	struct turn *t = xcalloc(1, sizeof *t);
	int64_t budget = call_ms < remaining_ms ? call_ms : remaining_ms;

	*answer = *detail = NULL;
	*verdict = VERDICT_OK;
	t->out = -1;
	tb->last_ms = 0;
	if (budget <= 0) {
		*verdict = VERDICT_TO;
		*detail = xasprintf("game time exceeded (%s clock)",
		    clock_name(tb));
	} else if (spawn(tb, view, t) == -1) {
		if (t->out != -1)
			close(t->out);
		free(t);
		return -1;
	} else {
		turn_loop(tb, t, budget);
		if (tb->mode == GAME_BOTS_PER_TURN_FILES)
			read_output(tb, t);
		*verdict = judge(tb, t, budget, remaining_ms <= call_ms,
		    detail);
		account(tb, t);
	}
	t->line[*verdict == VERDICT_OK ? t->len : 0] = '\0';
	*answer = xstrdup(t->line);
	if (t->out != -1)
		close(t->out);
	free(t->detail);
	free(t);
	return 0;
}

int64_t
turnbot_last_ms(const struct turnbot *tb)
{
	return tb->last_ms;
}

void
turnbot_usage(const struct turnbot *tb, struct bot_usage *usage)
{
	*usage = tb->usage;
}

void
turnbot_free(struct turnbot *tb)
{
	if (tb == NULL)
		return;
	drop_sandbox(tb);
	if (tb->log != -1)
		close(tb->log);
	if (tb->null != -1)
		close(tb->null);
	free(tb->built);
	free(tb->run);
	free(tb);
}
