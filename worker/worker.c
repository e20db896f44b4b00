/*
 * worker: the worker's one event loop.
 *
 * Theory of operation. Each slot is idle, fetching (its game waits for bot
 * artifacts this worker does not have yet), running (a child process
 * playing one game, whose encoded RESULT comes back over a pipe) or done
 * (a result to send, kept until the coordinator ACKs it). The loop polls
 * the socket and the running slots' pipes, with a timeout at the next
 * heartbeat. A child that dies without a whole result gives a result of XX
 * on every seat, so the coordinator requeues the game.
 *
 * Artifacts: a game names each seat's bot by the sha256 of its packed
 * folder. The loop asks the coordinator (FETCH) for those missing from
 * <data>/artifacts, checks what arrives against its name, stores it
 * (temporary file, then rename, so a file there is always whole) and
 * starts the games it completes; other slots play on meanwhile. The game's
 * child unpacks and builds it (worker/build.c). An artifact that never
 * comes, or comes wrong, fails the game as XX: our failure, retried.
 *
 * Results are never dropped before the coordinator has them: a done slot
 * keeps its result, sent or not, until an ACK names its (game, attempt),
 * which the coordinator sends once the result is recorded (or refused for
 * good). A result sent into a link that then went down is sent again
 * after the reconnect, and one unACKed for RESEND_MS is sent again too
 * (the database may have failed); the coordinator's exactly-once rule
 * makes a copy harmless. (Should both copies be ACKed, the coordinator
 * stalled that long, it counts one free slot too many here: the extra
 * game is handed back as XX and played again.)
 *
 * Credit: READY carries the number of idle slots only, and every ACKed
 * result frees one more slot on the coordinator's side, as on ours. So
 * after a reconnect we send READY first and then the results kept while we
 * were away, and the coordinator's count of our free slots is right again.
 */
#include "worker/worker.h"

#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/artifact.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/wire.h"
#include "sandbox/sandbox.h"
#include "worker/game_run.h"

#define RECONNECT_MIN_MS 1000
#define RECONNECT_MAX_MS 32000
/* A game waits this long for its artifacts; FETCH is sent again on each
 * reconnect. */
#define FETCH_TIMEOUT_MS 120000
/* A result sent but not ACKed this long is sent again. */
#define RESEND_MS 30000

static volatile sig_atomic_t worker_stop;

enum slot_state { SLOT_IDLE, SLOT_FETCHING, SLOT_RUNNING, SLOT_DONE };

struct slot {
	enum slot_state state;
	pid_t pid;		/* the game's child process */
	int fd;			/* its result pipe, our read end */
	char *buf;		/* result bytes so far */
	size_t len, cap;
	struct msg game;	/* what it plays (ids, seats) */
	int64_t fetch_until;	/* SLOT_FETCHING: monotonic ms */
	struct msg result;	/* SLOT_DONE: to send, then to keep until
				 * ACKed */
	int64_t sent_at;	/* monotonic ms; 0: not sent on this link */
};

struct worker {
	const struct worker_opts *opts;
	char *name;
	struct wire *w;		/* NULL while waiting to reconnect */
	struct slot *slots;
	unsigned nslots;
	int liveness;		/* heartbeats left before reconnecting */
	int64_t interval;	/* reconnect backoff, ms */
	int64_t heartbeat_at;	/* monotonic ms */
	int64_t reconnect_at;	/* monotonic ms, while w is NULL */
	bool bye;
	bool heard;		/* the coordinator spoke on this connection */
};

static void
on_signal(int sig)
{
	(void)sig;
	worker_stop = 1;
}

/* --- the game's child --- */

static _Noreturn void
child_play(struct worker *wk, const struct msg_game *g, int fd, pid_t parent)
{
	struct msg m = { .type = MSG_RESULT };
	char *buf;
	size_t len, off = 0;
	ssize_t n;

	/* A game outliving its worker could never report: it dies with it,
	 * and its bots with it (theirs is the same rule). */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 || getppid() != parent)
		_exit(1);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	game_run(NULL, g, wk->opts->data_dir, &m.u.result);
	if (wire_encode(&m, &buf, &len) == -1)
		_exit(1);
	while (off < len) {
		if ((n = write(fd, buf + off, len - off)) == -1 &&
		    errno != EINTR)
			_exit(1);
		off += n > 0 ? (size_t)n : 0;
	}
	_exit(0);
}

/* The XX result for a game we could not play. */
static void
xx_result(const struct msg_game *g, struct msg *out, const char *why)
{
	struct msg_result *r = &out->u.result;

	memset(out, 0, sizeof *out);
	out->type = MSG_RESULT;
	r->game_id = g->game_id;
	r->attempt = g->attempt;
	r->nseats = g->nseats;
	for (uint32_t i = 0; i < g->nseats; i++)
		r->seats[i].verdict = VERDICT_XX;
	r->end_reason = xstrdup("XX");
	r->detail = xstrdup(why);
	r->referee = xasprintf("%s ?", g->game);
	log_warn("game %lld: %s", (long long)g->game_id, why);
}

/* --- slots --- */

/* Forks the child that plays the slot's game. */
static void
slot_start(struct worker *wk, struct slot *s)
{
	pid_t parent = getpid();
	int p[2];

	p[0] = p[1] = -1;
	if (pipe2(p, O_CLOEXEC) == -1 || (s->pid = fork()) == -1) {
		if (p[0] != -1) {
			close(p[0]);
			close(p[1]);
		}
		xx_result(&s->game.u.game, &s->result,
		    "worker cannot start a game process");
		s->state = SLOT_DONE;
		return;
	}
	if (s->pid == 0) {
		close(p[0]);
		child_play(wk, &s->game.u.game, p[1], parent);
	}
	close(p[1]);
	s->fd = p[0];
	s->len = 0;
	s->state = SLOT_RUNNING;
	log_debug("game %lld attempt %d started (%s, %s)",
	    (long long)s->game.u.game.game_id, s->game.u.game.attempt,
	    s->game.u.game.game, s->game.u.game.dataset_name);
}

/* The child closed its pipe: reap it and turn its bytes into a result. */
static void
slot_collect(struct slot *s)
{
	const struct msg_game *g = &s->game.u.game;
	char why[128];
	int st = 0;

	close(s->fd);
	s->fd = -1;
	while (waitpid(s->pid, &st, 0) == -1 && errno == EINTR)
		;
	if (WIFSIGNALED(st))
		snprintf(why, sizeof why, "game process killed by signal %d",
		    WTERMSIG(st));
	else if (WEXITSTATUS(st) != 0)
		snprintf(why, sizeof why, "game process exited with code %d",
		    WEXITSTATUS(st));
	else if (wire_decode(s->buf, s->len, &s->result) == -1)
		snprintf(why, sizeof why, "game process sent a bad result");
	else if (s->result.type != MSG_RESULT ||
	    s->result.u.result.game_id != g->game_id ||
	    s->result.u.result.attempt != g->attempt) {
		msg_release(&s->result);
		snprintf(why, sizeof why, "game process sent another result");
	} else
		why[0] = '\0';
	if (why[0])
		xx_result(g, &s->result, why);
	s->state = SLOT_DONE;
}

static void
slot_read(struct slot *s)
{
	ssize_t n;

	if (s->cap - s->len < 65536) {
		s->cap = s->cap ? s->cap * 2 : 65536;
		s->buf = xrealloc(s->buf, s->cap);
	}
	n = read(s->fd, s->buf + s->len, s->cap - s->len);
	if (n > 0 && s->len + (size_t)n <= PROTO_MAX_MESSAGE)
		s->len += (size_t)n;
	else if (n > 0) {	/* the child would never stop: kill it */
		kill(s->pid, SIGKILL);
		s->len = 0;
	} else if (n == 0 || errno != EINTR)
		slot_collect(s);
}

/* Sends a done slot's result, unless it went out on this link lately;
 * the slot stays done until the result is ACKed. */
static void
slot_send(struct worker *wk, struct slot *s)
{
	int64_t now = clock_now_ms();

	if (wk->w == NULL || (s->sent_at && now - s->sent_at < RESEND_MS) ||
	    wire_send(wk->w, NULL, &s->result) == -1)
		return;
	log_debug("game %lld attempt %d: result sent%s (%s)",
	    (long long)s->result.u.result.game_id,
	    s->result.u.result.attempt, s->sent_at ? " again" : "",
	    s->result.u.result.end_reason ? s->result.u.result.end_reason :
	    "-");
	s->sent_at = now;
}

/* After a reconnect: a result kept while we were away goes now, even if
 * it went into the old link, which may have lost it. */
static void
slot_resend(struct worker *wk, struct slot *s)
{
	log_info("game %lld attempt %d: result kept while the coordinator "
	    "was away, sent %s", (long long)s->result.u.result.game_id,
	    s->result.u.result.attempt, s->sent_at ? "again" : "now");
	s->sent_at = 0;
	slot_send(wk, s);
}

/* The coordinator has these results: their slots are idle again. */
static void
on_ack(struct worker *wk, const struct msg_ack *a)
{
	for (uint32_t k = 0; k < a->n; k++)
		for (unsigned i = 0; i < wk->nslots; i++) {
			struct slot *s = &wk->slots[i];

			if (s->state != SLOT_DONE ||
			    s->result.u.result.game_id != a->game_ids[k] ||
			    s->result.u.result.attempt != a->attempts[k])
				continue;
			msg_release(&s->result);
			msg_release(&s->game);
			s->sent_at = 0;
			s->state = SLOT_IDLE;
			break;
		}
}

/* --- artifacts --- */

static char *
artifact_path(const struct worker *wk, const char *sha256)
{
	return xasprintf("%s/artifacts/%s.tar", wk->opts->data_dir, sha256);
}

static bool
artifact_have(const struct worker *wk, const char *sha256)
{
	char *path = artifact_path(wk, sha256);
	bool have = access(path, F_OK) == 0;

	free(path);
	return have;
}

/* Whether a fetching slot other than except waits for sha256. */
static bool
artifact_wanted(const struct worker *wk, const char *sha256,
    const struct slot *except)
{
	for (unsigned i = 0; i < wk->nslots; i++) {
		const struct slot *s = &wk->slots[i];

		if (s == except || s->state != SLOT_FETCHING)
			continue;
		for (uint32_t k = 0; k < s->game.u.game.nseats; k++)
			if (s->game.u.game.seats[k].artifact &&
			    !strcmp(s->game.u.game.seats[k].artifact, sha256))
				return true;
	}
	return false;
}

enum ask {
	ASK_NONE,	/* only count what is missing */
	ASK_NEW,	/* a new game: ask for what no other game awaits */
	ASK_AGAIN,	/* after a reconnect: ask for all of it */
};

/* The number of artifacts s lacks, asked for as ask says. */
static int
slot_fetch(struct worker *wk, struct slot *s, enum ask ask)
{
	const struct msg_game *g = &s->game.u.game;
	struct msg m = { .type = MSG_FETCH };
	int missing = 0;

	for (uint32_t i = 0; i < g->nseats; i++) {
		const char *sha = g->seats[i].artifact;
		bool dup = false;

		if (sha == NULL || artifact_have(wk, sha))
			continue;
		missing++;
		for (uint32_t k = 0; k < i; k++)
			dup = dup || (g->seats[k].artifact &&
			    !strcmp(g->seats[k].artifact, sha));
		if (dup || ask == ASK_NONE || wk->w == NULL ||
		    (ask == ASK_NEW && artifact_wanted(wk, sha, s)))
			continue;
		m.u.fetch.sha256 = (char *)sha;
		if (wire_send(wk->w, NULL, &m) == 0)
			log_info("game %lld waits for artifact %s (entry "
			    "'%s')", (long long)g->game_id, sha,
			    g->seats[i].entry);
	}
	return missing;
}

/* Starts every fetching game that has all it needs now. */
static void
fetching_start(struct worker *wk)
{
	for (unsigned i = 0; i < wk->nslots; i++)
		if (wk->slots[i].state == SLOT_FETCHING &&
		    slot_fetch(wk, &wk->slots[i], ASK_NONE) == 0)
			slot_start(wk, &wk->slots[i]);
}

/* Fails every fetching game that waits for sha256 (NULL: that waited too
 * long), as XX. */
static void
fetching_fail(struct worker *wk, const char *sha256, const char *why)
{
	int64_t now = clock_now_ms();

	for (unsigned i = 0; i < wk->nslots; i++) {
		struct slot *s = &wk->slots[i];
		const struct msg_game *g = &s->game.u.game;
		bool hit = false;

		if (s->state != SLOT_FETCHING)
			continue;
		for (uint32_t k = 0; k < g->nseats && sha256; k++)
			hit = hit || (g->seats[k].artifact &&
			    !strcmp(g->seats[k].artifact, sha256));
		if (sha256 ? !hit : now < s->fetch_until)
			continue;
		xx_result(g, &s->result, why);
		s->state = SLOT_DONE;
	}
}

/* Writes whole bytes to path through a temporary file and a rename. */
static int
store_atomic(const char *path, const char *bytes, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	size_t off = 0;
	ssize_t n;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd == -1) {
		free(tmp);
		return log_errno("cannot create '%s'", path);
	}
	while (off < len && ((n = write(fd, bytes + off, len - off)) > 0 ||
	    errno == EINTR))
		off += n > 0 ? (size_t)n : 0;
	if (off < len || fsync(fd) == -1 || close(fd) == -1 ||
	    rename(tmp, path) == -1) {
		log_errno("cannot write '%s'", path);
		if (off < len)
			close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

static void
on_artifact(struct worker *wk, const struct msg_artifact *a)
{
	char hex[ARTIFACT_HEX], *path, *why;

	if (!artifact_wanted(wk, a->sha256, NULL)) {
		log_debug("artifact %s arrived unasked or twice; ignored",
		    a->sha256);
		return;
	}
	if (a->bytes == NULL) {
		why = xasprintf("coordinator has no artifact %s", a->sha256);
		fetching_fail(wk, a->sha256, why);
		free(why);
		return;
	}
	artifact_sha256(a->bytes, a->len, hex);
	if (strcmp(hex, a->sha256) != 0) {
		why = xasprintf("artifact %s arrived with sha256 %s; dropped",
		    a->sha256, hex);
		log_error("%s", why);
		fetching_fail(wk, a->sha256, why);
		free(why);
		return;
	}
	path = artifact_path(wk, a->sha256);
	if (store_atomic(path, a->bytes, a->len) == -1) {
		why = xasprintf("cannot store artifact %s", a->sha256);
		fetching_fail(wk, a->sha256, why);
		free(why);
	} else
		log_info("artifact %s stored (%zu bytes)", a->sha256, a->len);
	free(path);
	fetching_start(wk);
}

/* --- the connection --- */

static void
send_simple(struct worker *wk, enum msg_type type)
{
	struct msg m = { .type = type };

	if (wk->w)
		wire_send(wk->w, NULL, &m);
}

static void
connect_coordinator(struct worker *wk)
{
	struct msg m = { .type = MSG_READY };

	wk->w = wk->opts->keys ? wire_connect_curve(wk->opts->connect,
	    wk->opts->keys, wk->opts->server_key) :
	    wire_connect(wk->opts->connect);
	if (wk->w == NULL) {
		wk->reconnect_at = clock_now_ms() + wk->interval;
		return;
	}
	wk->heard = false;
	m.u.ready.worker = wk->name;
	for (unsigned i = 0; i < wk->nslots; i++)
		m.u.ready.slots += wk->slots[i].state == SLOT_IDLE;
	wire_send(wk->w, NULL, &m);
	for (unsigned i = 0; i < wk->nslots; i++)
		if (wk->slots[i].state == SLOT_DONE)
			slot_resend(wk, &wk->slots[i]);
		else if (wk->slots[i].state == SLOT_FETCHING)
			slot_fetch(wk, &wk->slots[i], ASK_AGAIN);
	wk->liveness = PROTO_LIVENESS;
	wk->heartbeat_at = clock_now_ms() + PROTO_HEARTBEAT_MS;
}

static void
on_game(struct worker *wk, struct msg *m)
{
	for (unsigned i = 0; i < wk->nslots; i++) {
		struct slot *s = &wk->slots[i];

		if (s->state != SLOT_IDLE)
			continue;
		s->game = *m;	/* takes ownership */
		memset(m, 0, sizeof *m);
		s->state = SLOT_FETCHING;
		s->fetch_until = clock_now_ms() + FETCH_TIMEOUT_MS;
		if (slot_fetch(wk, s, ASK_NEW) == 0)
			slot_start(wk, s);
		return;
	}
	/* More games than slots: hand it straight back to be requeued. */
	struct msg r;

	xx_result(&m->u.game, &r, "worker has no free slot");
	if (wire_send(wk->w, NULL, &r) == 0)
		log_warn("game %lld sent back", (long long)m->u.game.game_id);
	msg_release(&r);
}

static void
on_message(struct worker *wk, struct msg *m)
{
	wk->liveness = PROTO_LIVENESS;
	wk->interval = RECONNECT_MIN_MS;
	wk->heard = true;
	switch (m->type) {
	case MSG_GAME:
		on_game(wk, m);
		break;
	case MSG_ARTIFACT:
		on_artifact(wk, &m->u.artifact);
		break;
	case MSG_ACK:
		on_ack(wk, &m->u.ack);
		break;
	case MSG_BYE:
		log_info("coordinator says the tournament is over");
		wk->bye = true;
		break;
	case MSG_HEARTBEAT:
		break;
	default:
		log_warn("unexpected message type %d from the coordinator",
		    m->type);
		break;
	}
	msg_release(m);
}

/* Heartbeat time: send ours, count the coordinator's silence. */
static void
on_heartbeat(struct worker *wk)
{
	send_simple(wk, MSG_HEARTBEAT);
	wk->heartbeat_at = clock_now_ms() + PROTO_HEARTBEAT_MS;
	if (--wk->liveness > 0)
		return;
	/* A CURVE handshake that fails is silence too, on purpose: the
	 * coordinator tells a stranger nothing. */
	log_warn("coordinator silent, reconnecting in %lld s%s",
	    (long long)wk->interval / 1000, wk->heard ? "" : wk->opts->keys ?
	    " (never heard: is it up, is its key the one given with "
	    "--coordinator-key, and is ours in its --allow list?)" : "");
	wire_free(wk->w);
	wk->w = NULL;
	wk->reconnect_at = clock_now_ms() + wk->interval;
	if (wk->interval < RECONNECT_MAX_MS)
		wk->interval *= 2;
}

/* One turn of the loop: wait for the socket, a pipe or a timer. */
static void
turn(struct worker *wk)
{
	struct pollfd fds[wk->nslots + 1];
	size_t n = 0, at[wk->nslots + 1];
	int64_t wake = wk->w ? wk->heartbeat_at : wk->reconnect_at;
	int64_t timeout = wake - clock_now_ms();
	bool readable = false;
	struct msg m;
	int rc;

	for (unsigned i = 0; i < wk->nslots; i++)
		if (wk->slots[i].state == SLOT_RUNNING) {
			fds[n] = (struct pollfd){ wk->slots[i].fd, POLLIN, 0 };
			at[n++] = i;
		}
	timeout = timeout < 0 ? 0 : timeout;
	if (wk->w)
		wire_poll(wk->w, fds, n, timeout, &readable);
	else if (poll(fds, n, (int)timeout) <= 0)
		for (size_t i = 0; i < n; i++)
			fds[i].revents = 0;
	for (size_t i = 0; i < n; i++)
		if (fds[i].revents)
			slot_read(&wk->slots[at[i]]);
	while (readable && !wk->bye && (rc = wire_recv(wk->w, NULL, &m)) != 0)
		if (rc == 1)
			on_message(wk, &m);
	fetching_fail(wk, NULL, "bot artifacts did not arrive in time");
	for (unsigned i = 0; i < wk->nslots; i++)
		if (wk->slots[i].state == SLOT_DONE)
			slot_send(wk, &wk->slots[i]);
	if (wk->w && clock_now_ms() >= wk->heartbeat_at)
		on_heartbeat(wk);
	else if (!wk->w && clock_now_ms() >= wk->reconnect_at)
		connect_coordinator(wk);
}

static void
shutdown_slots(struct worker *wk)
{
	for (unsigned i = 0; i < wk->nslots; i++) {
		struct slot *s = &wk->slots[i];

		if (s->state == SLOT_RUNNING) {
			/* Its bots die with it (PR_SET_PDEATHSIG). */
			kill(s->pid, SIGKILL);
			waitpid(s->pid, NULL, 0);
			close(s->fd);
		}
		if (s->state == SLOT_DONE)
			msg_release(&s->result);
		msg_release(&s->game);
		free(s->buf);
	}
	free(wk->slots);
}

int
worker_run(const struct worker_opts *opts)
{
	struct worker wk = { .opts = opts, .interval = RECONNECT_MIN_MS };
	struct sigaction sa = { .sa_handler = on_signal };
	char host[256] = "worker";
	char *artifacts = xasprintf("%s/artifacts", opts->data_dir);

	if ((mkdir(opts->data_dir, 0755) == -1 && errno != EEXIST) ||
	    (mkdir(artifacts, 0755) == -1 && errno != EEXIST)) {
		log_errno("cannot create '%s'", artifacts);
		free(artifacts);
		return -1;
	}
	free(artifacts);
	wk.nslots = opts->slots ? opts->slots : 1;
	wk.slots = xcalloc(wk.nslots, sizeof *wk.slots);
	gethostname(host, sizeof host - 1);
	wk.name = opts->name ? xstrdup(opts->name) :
	    xasprintf("%s:%d", host, (int)getpid());
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	log_info("worker '%s' with %u slots, connecting to '%s'%s", wk.name,
	    wk.nslots, opts->connect, opts->keys ? " (CURVE)" : "");
	sandbox_sweep();
	connect_coordinator(&wk);
	if (wk.w == NULL) {
		shutdown_slots(&wk);
		free(wk.name);
		return -1;
	}
	while (!worker_stop && !wk.bye)
		turn(&wk);
	if (worker_stop)
		log_info("stopping on a signal");
	shutdown_slots(&wk);
	sandbox_sweep();
	wire_free(wk.w);
	free(wk.name);
	return 0;
}
