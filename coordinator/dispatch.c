/*
 * dispatch: the coordinator's loop (see dispatch.h).
 *
 * Theory of operation. One zmq_poll loop, single-threaded, with three
 * timers: heartbeats (to every worker, and the check for silent ones),
 * lease expiry (DISPATCH_EXPIRE_MS) and progress. Each worker is known by
 * its ZeroMQ identity with a credit of free slots: READY sets it, a GAME
 * sent takes one, an ACK sent for a RESULT gives one back (the worker
 * keeps a result until its ACK). PostgreSQL holds everything
 * that matters, so forgetting a worker loses nothing: its leases expire
 * and the games are played again, and its late results are still
 * recorded once. Signals only set a flag.
 */
#include "coordinator/dispatch.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/wire.h"
#include "coordinator/tournament.h"
#include "games/game.h"

static volatile sig_atomic_t dispatch_stop;

struct peer {
	struct wire_peer id;
	char *name;		/* from READY */
	uint32_t credit;	/* free slots */
	uint32_t running;	/* games sent, no result yet */
	int64_t last_seen;	/* monotonic ms */
	int failures;		/* XX results in a row */
	int64_t pause_until;	/* monotonic ms; no games before */
	int64_t claim_backoff;	/* ms, doubling while its claims fail */
};

/* A result received in this poll pass, recorded with the others at its
 * end (one statement for all). The sender is kept by identity: the peer
 * may be dropped meanwhile. */
struct pending {
	struct wire_peer id;
	char *name;
	struct msg m;
};

/* Repetitive warnings: the first LOG_BURST in each LOG_WINDOW_MS, then
 * how many were hushed. */
#define LOG_BURST 10
#define LOG_WINDOW_MS 10000

struct ratelog {
	int64_t window_at;	/* monotonic ms, the window's start */
	int logged, hushed;
	const char *what;	/* "duplicate or stale results" */
};

struct coordinator {
	const struct dispatch_opts *opts;
	struct wire *w;
	struct peer *peers;
	size_t npeers;
	bool finished;
	bool failed;		/* a tick failed: stop */
	bool drained;		/* the last claim found nothing queued */
	int64_t heartbeat_at, expire_at;	/* monotonic ms */
	int64_t start_ms;
	int64_t done, total;	/* games, from the database */
	int64_t done_at_start;
	int last_decile;	/* progress logged, non-terminal */
	bool tty;
	int64_t progress_at;	/* monotonic ms: next progress line */
	struct pending *batch;	/* results of this poll pass */
	size_t nbatch;
	struct ratelog stale_log;
};

static void
on_signal(int sig)
{
	(void)sig;
	dispatch_stop = 1;
}

int64_t
dispatch_lease_ms(const struct spec *spec, uint32_t nseats)
{
	return 2 * spec->limits.game_ms * nseats + 60000;
}

/* --- progress --- */

static void
format_eta(int64_t s, char *out, size_t len)
{
	if (s >= 3600)
		snprintf(out, len, "%lldh%02lldm", (long long)s / 3600,
		    (long long)s % 3600 / 60);
	else if (s >= 60)
		snprintf(out, len, "%lldm%02llds", (long long)s / 60,
		    (long long)s % 60);
	else
		snprintf(out, len, "%llds", (long long)s);
}

/* Counts in the database, so at most every PROGRESS_MS unless forced. */
#define PROGRESS_MS 500

static void
progress(struct coordinator *c, bool force)
{
	int64_t now = clock_now_ms(), elapsed = now - c->start_ms, played;
	int64_t running = 0;
	int pct;
	char eta[32] = "?";

	if (!c->opts->progress || (!force && now < c->progress_at))
		return;
	c->progress_at = now + PROGRESS_MS;
	if (db_progress(c->opts->db, c->opts->tournament_id, &c->done,
	    &c->total) == -1 || c->total == 0)
		return;
	for (size_t i = 0; i < c->npeers; i++)
		running += c->peers[i].running;
	played = c->done - c->done_at_start;
	if (played > 0)
		format_eta((c->total - c->done) * elapsed / played / 1000, eta,
		    sizeof eta);
	pct = (int)(c->done * 100 / c->total);
	if (c->tty) {
		fprintf(stderr, "\rgames %lld/%lld (%d%%), %lld running, "
		    "ETA %s\033[K", (long long)c->done, (long long)c->total,
		    pct, (long long)running, eta);
		fflush(stderr);
	} else if (pct / 10 > c->last_decile || c->done == c->total) {
		c->last_decile = pct / 10 + (c->done == c->total);
		log_info("games %lld/%lld (%d%%), %lld running, ETA %s",
		    (long long)c->done, (long long)c->total, pct,
		    (long long)running, eta);
	}
}

/* --- workers --- */

static struct peer *
peer_find(struct coordinator *c, const struct wire_peer *id)
{
	for (size_t i = 0; i < c->npeers; i++)
		if (c->peers[i].id.len == id->len &&
		    memcmp(c->peers[i].id.id, id->id, id->len) == 0)
			return &c->peers[i];
	return NULL;
}

static void
peer_drop(struct coordinator *c, struct peer *p, const char *why)
{
	log_warn("worker '%s' %s; %u games left to their leases", p->name,
	    why, p->running);
	free(p->name);
	*p = c->peers[--c->npeers];
}

/* Sends m to p; a worker we cannot reach is forgotten. Returns -1 then:
 * p is no longer valid. */
static int
peer_send(struct coordinator *c, struct peer *p, const struct msg *m)
{
	if (wire_send(c->w, &p->id, m) == 0)
		return 0;
	peer_drop(c, p, "unreachable");
	return -1;
}

/* Expands the next stage if the current one is done. */
static void
advance(struct coordinator *c)
{
	if (tournament_advance(c->opts->db, c->opts->spec,
	    c->opts->tournament_id, &c->finished) == -1)
		log_warn("cannot advance the tournament; will retry");
}

/* Leasing games to p failed: none for it for a while, doubling up to
 * 8 s, so a database that is down is not asked (and its loss not logged)
 * at every message. Per worker: what fails may be this worker's alone. */
static void
claim_failed(struct peer *p)
{
	p->claim_backoff = p->claim_backoff ? p->claim_backoff * 2 : 250;
	if (p->claim_backoff > 8000)
		p->claim_backoff = 8000;
	p->pause_until = clock_now_ms() + p->claim_backoff;
}

/* Sends the claimed games[from .. n) to p; on a send failure (p is gone)
 * the rest go back to the queue. Releases them all. */
static int
feed_send(struct coordinator *c, struct peer *p, struct msg *games, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (peer_send(c, p, &games[i]) == -1)
			break;
		log_debug("game %lld attempt %d to '%s'",
		    (long long)games[i].u.game.game_id,
		    games[i].u.game.attempt, p->name);
		p->credit--;
		p->running++;
	}
	for (int k = i; k < n; k++)
		db_game_requeue(c->opts->db, games[k].u.game.game_id,
		    games[k].u.game.attempt, "worker unreachable");
	for (int k = 0; k < n; k++)
		msg_release(&games[k]);
	return i < n ? -1 : 0;
}

/* Leases games to p while it has free slots and games are queued: as many
 * as it has free slots (up to CLAIM_MAX) with each statement. */
#define CLAIM_MAX 64

static void
feed(struct coordinator *c, struct peer *p)
{
	const struct game *g = games_find(c->opts->spec->game);
	int64_t lease = dispatch_lease_ms(c->opts->spec,
	    g ? (uint32_t)g->max_seats : PROTO_MAX_SEATS);
	struct msg games[CLAIM_MAX];
	int n = 1, want;

	while (p->credit > 0 && n > 0) {
		want = p->credit < CLAIM_MAX ? (int)p->credit : CLAIM_MAX;
		if (db_games_claim(c->opts->db, c->opts->tournament_id,
		    p->name, lease, games, want, &n) == -1) {
			claim_failed(p);
			return;
		}
		p->claim_backoff = 0;
		if (n > 0)
			c->drained = false;
		if (feed_send(c, p, games, n) == -1)
			return;
	}
	/* The queue just ran dry: the stage may be done (its last results
	 * came in while every slot was busy). */
	if (n == 0 && !c->drained) {
		c->drained = true;
		advance(c);
	}
}

static void
feed_all(struct coordinator *c)
{
	int64_t now = clock_now_ms();

	/* feed() may drop a peer, moving the last one into its place. */
	for (size_t i = c->npeers; i-- > 0;)
		if (i < c->npeers && c->peers[i].pause_until <= now)
			feed(c, &c->peers[i]);
}

static void
on_ready(struct coordinator *c, const struct wire_peer *id,
    struct msg_ready *r)
{
	struct peer *p = peer_find(c, id);

	if (p == NULL) {
		c->peers = xrealloc(c->peers, (c->npeers + 1) *
		    sizeof *c->peers);
		p = &c->peers[c->npeers++];
		memset(p, 0, sizeof *p);
		p->id = *id;
	}
	free(p->name);
	p->name = r->worker;	/* takes it */
	r->worker = NULL;
	p->credit = r->slots;
	p->last_seen = clock_now_ms();
	/* On CURVE the key's name is the identity; the name is its word. */
	log_info("worker '%s'%s%s%s ready with %u free slots", p->name,
	    id->user[0] ? " (key '" : "", id->user, id->user[0] ? "')" : "",
	    p->credit);
}

static bool
has_fault_xx(const struct msg_result *r)
{
	for (uint32_t i = 0; i < r->nseats; i++)
		if (r->seats[i].verdict == VERDICT_XX)
			return true;
	return false;
}

/* Ends rl's window once it is over, saying how many lines it hushed. */
static void
ratelog_tick(struct ratelog *rl)
{
	int64_t now = clock_now_ms();

	if (now - rl->window_at < LOG_WINDOW_MS)
		return;
	if (rl->hushed)
		log_warn("%d more %s in the last %d s, not logged", rl->hushed,
		    rl->what, LOG_WINDOW_MS / 1000);
	rl->window_at = now;
	rl->logged = rl->hushed = 0;
}

/* Whether rl lets one more line out now. */
static bool
ratelog_ok(struct ratelog *rl)
{
	ratelog_tick(rl);
	if (rl->logged < LOG_BURST) {
		rl->logged++;
		return true;
	}
	rl->hushed++;
	return false;
}

/* A result arrived: the worker's slot is freed once we ACK it; an XX one
 * backs the worker off. Recorded at the end of the poll pass. */
static void
on_result(struct coordinator *c, struct peer *p, const struct wire_peer *id,
    struct msg *m)
{
	const struct msg_result *r = &m->u.result;
	/* A worker reconnecting after a coordinator restart may deliver
	 * before its READY: its CURVE key still names it. */
	const char *name = p ? p->name : id->user[0] ? id->user : "?";
	struct pending *b;

	if (p)
		p->failures = has_fault_xx(r) ? p->failures + 1 : 0;
	if (has_fault_xx(r)) {
		/* A worker that cannot play (a full disk, a missing tool)
		 * must not spin through the queue: back off, doubling. */
		if (p)
			p->pause_until = clock_now_ms() + (p->failures > 6 ? 64000 :
			    1000LL << (p->failures - 1));
		log_warn("game %lld attempt %d failed on '%s': %s",
		    (long long)r->game_id, r->attempt, name,
		    r->detail ? r->detail : "no detail");
	}
	c->batch = xrealloc(c->batch, (c->nbatch + 1) * sizeof *c->batch);
	b = &c->batch[c->nbatch++];
	b->id = *id;
	b->name = xstrdup(name);
	b->m = *m;	/* takes it */
	memset(m, 0, sizeof *m);
}

/* The outcome of one pending result, logged; whether to ACK it. */
static bool
outcome(struct coordinator *c, const struct pending *b,
    const struct db_record *d)
{
	const struct msg_result *r = &b->m.u.result;

	switch (d->outcome) {
	case DB_RECORDED:
		return true;
	case DB_INVALID:
		if (d->state[0] && ratelog_ok(&c->stale_log))
			log_warn("game %lld attempt %d: result from '%s' "
			    "refused (%s)", (long long)r->game_id, r->attempt,
			    b->name, d->state);
		return true;
	case DB_DUPLICATE:
	case DB_STALE:
		if (ratelog_ok(&c->stale_log))
			log_info("game %lld attempt %d: duplicate or stale "
			    "result from '%s' ignored (%s)",
			    (long long)r->game_id, r->attempt, b->name,
			    d->state);
		return true;
	case DB_REQUEUED:
		return true;
	case DB_FAILED:
		break;
	}
	return false;
}

/* ACKs, to the worker of batch[i], every result of its in the batch that
 * ack[] says is dealt with; each frees one of its slots. */
static void
ack_peer(struct coordinator *c, size_t i, const bool *ack, bool *done)
{
	struct msg m = { .type = MSG_ACK };
	struct msg_ack *a = &m.u.ack;
	struct peer *p = peer_find(c, &c->batch[i].id);

	a->game_ids = xcalloc(c->nbatch, sizeof *a->game_ids);
	a->attempts = xcalloc(c->nbatch, sizeof *a->attempts);
	for (size_t k = i; k < c->nbatch; k++) {
		if (done[k] || c->batch[k].id.len != c->batch[i].id.len ||
		    memcmp(c->batch[k].id.id, c->batch[i].id.id,
		    c->batch[i].id.len))
			continue;
		done[k] = true;
		if (!ack[k])
			continue;
		a->game_ids[a->n] = c->batch[k].m.u.result.game_id;
		a->attempts[a->n++] = c->batch[k].m.u.result.attempt;
	}
	if (a->n && p) {
		p->credit += a->n;
		p->running -= p->running > a->n ? a->n : p->running;
	}
	if (a->n)
		wire_send(c->w, &c->batch[i].id, &m);
	msg_release(&m);
}

/* Records the results of this poll pass, in one statement (XX ones each
 * requeue their game), and ACKs them. */
static void
flush(struct coordinator *c)
{
	struct db_record *recs;
	bool *ack, *done, any = false;

	if (c->nbatch == 0)
		return;
	recs = xcalloc(c->nbatch, sizeof *recs);
	ack = xcalloc(c->nbatch, sizeof *ack);
	done = xcalloc(c->nbatch, sizeof *done);
	for (size_t i = 0; i < c->nbatch; i++) {
		recs[i].r = &c->batch[i].m.u.result;
		recs[i].worker = c->batch[i].name;
	}
	/* Those it could not record get no ACK: their workers send them
	 * again. */
	db_results_record(c->opts->db, recs, c->nbatch);
	for (size_t i = 0; i < c->nbatch; i++) {
		ack[i] = outcome(c, &c->batch[i], &recs[i]);
		any |= recs[i].outcome == DB_RECORDED;
	}
	for (size_t i = 0; i < c->nbatch; i++)
		if (!done[i])
			ack_peer(c, i, ack, done);
	for (size_t i = 0; i < c->nbatch; i++) {
		free(c->batch[i].name);
		msg_release(&c->batch[i].m);
	}
	c->nbatch = 0;
	free(recs);
	free(ack);
	free(done);
	/* A stage cannot be done while one of its games is queued: only
	 * once the queue ran dry are results worth the check (the timer
	 * checks anyway). */
	if (any && c->drained)
		advance(c);
	progress(c, false);
}

/* A worker lacks a bot: send it from the database, or say there is none
 * (the worker then fails that game as XX). Only known workers are served,
 * and only artifacts the database holds, so FETCH reads nothing else. */
static void
on_fetch(struct coordinator *c, struct peer *p, const struct wire_peer *id,
    struct msg_fetch *f)
{
	struct msg m = { .type = MSG_ARTIFACT };
	int rc;

	if (p == NULL) {
		wire_dropped(c->w, id, "FETCH from a worker that is not READY");
		return;
	}
	rc = db_artifact_get(c->opts->db, f->sha256, &m.u.artifact.bytes,
	    &m.u.artifact.len);
	if (rc == -1)
		return;		/* the worker asks again on its timeout */
	if (rc == 0)
		log_warn("worker '%s' asked for artifact %s, which is not "
		    "stored", p->name, f->sha256);
	m.u.artifact.sha256 = f->sha256;
	if (wire_send(c->w, id, &m) == 0)
		log_debug("artifact %s sent to '%s' (%zu bytes)", f->sha256,
		    p->name, m.u.artifact.len);
	free(m.u.artifact.bytes);
}

/* The message-type table: one handler per type; the rest are dropped. */
static void
on_message(struct coordinator *c, const struct wire_peer *id, struct msg *m)
{
	struct peer *p = peer_find(c, id);

	if (p)
		p->last_seen = clock_now_ms();
	switch (m->type) {
	case MSG_READY:
		on_ready(c, id, &m->u.ready);
		break;
	case MSG_RESULT:
		on_result(c, p, id, m);
		break;
	case MSG_FETCH:
		on_fetch(c, p, id, &m->u.fetch);
		break;
	case MSG_HEARTBEAT:
		/* An unknown worker gets no heartbeats back, so it
		 * reconnects and says READY. */
		break;
	default:
		wire_dropped(c->w, id, "not a message for the coordinator");
		break;
	}
	msg_release(m);
}

/* --- timers --- */

static void
on_heartbeat(struct coordinator *c)
{
	struct msg hb = { .type = MSG_HEARTBEAT };
	int64_t now = clock_now_ms();

	for (size_t i = c->npeers; i-- > 0;) {
		struct peer *p = &c->peers[i];

		if (now - p->last_seen > PROTO_LIVENESS * PROTO_HEARTBEAT_MS) {
			peer_drop(c, p, "silent");
			continue;
		}
		/* For `arena status`. */
		db_worker_seen(c->opts->db, c->opts->tournament_id, p->name,
		    p->id.address[0] ? p->id.address : NULL,
		    (int)(p->credit + p->running));
		peer_send(c, p, &hb);
	}
	c->heartbeat_at = now + PROTO_HEARTBEAT_MS;
	ratelog_tick(&c->stale_log);
}

static void
on_expire(struct coordinator *c)
{
	int n = 0;

	if (db_leases_expire(c->opts->db, c->opts->tournament_id, &n) == 0 &&
	    n > 0)
		log_warn("%d expired leases: games back in the queue", n);
	/* Also retries an advance that failed after a result. */
	if (!c->finished)
		advance(c);
	/* Failed games (DB_MAX_ATTEMPTS without a result) block it: `run`
	 * stops with the error; a long-lived coordinator waits for reruns. */
	if (!c->finished && c->opts->exit_when_done &&
	    tournament_blocked(c->opts->db, c->opts->tournament_id) == 1)
		c->failed = true;
	c->expire_at = clock_now_ms() + DISPATCH_EXPIRE_MS;
}

static void
say_bye(struct coordinator *c)
{
	struct msg bye = { .type = MSG_BYE };

	progress(c, true);
	if (c->tty && c->opts->progress)
		fputc('\n', stderr);
	log_info("tournament finished; %zu workers told so", c->npeers);
	for (size_t i = c->npeers; i-- > 0;)
		peer_send(c, &c->peers[i], &bye);
}

static void
turn(struct coordinator *c)
{
	int64_t next = c->heartbeat_at < c->expire_at ? c->heartbeat_at :
	    c->expire_at;
	struct wire_peer id;
	bool readable;
	struct msg m;
	int rc, budget = 1000;

	wire_poll(c->w, NULL, 0, next > clock_now_ms() ? next - clock_now_ms() : 0,
	    &readable);
	/* Bounded, so timers run even under a flood of messages. */
	while (readable && budget-- > 0 &&
	    (rc = wire_recv(c->w, &id, &m)) != 0)
		if (rc == 1)
			on_message(c, &id, &m);
	flush(c);
	if (clock_now_ms() >= c->heartbeat_at) {
		on_heartbeat(c);
		if (c->opts->tick && c->opts->tick(c->opts->tick_arg) < 0)
			c->failed = true;
	}
	if (clock_now_ms() >= c->expire_at)
		on_expire(c);
	if (!c->finished)
		feed_all(c);
}

int
dispatch_run(const struct dispatch_opts *opts)
{
	struct coordinator c = { .opts = opts,
	    .stale_log.what = "duplicate, stale or refused results" };
	struct sigaction sa = { .sa_handler = on_signal };

	c.w = opts->keys ? wire_bind_curve(opts->bind, opts->keys,
	    opts->allow) : wire_bind(opts->bind);
	if (c.w == NULL)
		return -1;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	c.tty = isatty(STDERR_FILENO);
	c.start_ms = clock_now_ms();
	c.heartbeat_at = c.start_ms + PROTO_HEARTBEAT_MS;
	c.expire_at = c.start_ms;
	if (tournament_advance(opts->db, opts->spec, opts->tournament_id,
	    &c.finished) == -1)
		log_warn("cannot advance the tournament; will retry");
	db_progress(opts->db, opts->tournament_id, &c.done_at_start,
	    &c.total);
	c.last_decile = c.total ? (int)(c.done_at_start * 10 / c.total) : 0;
	log_info("serving '%s' on '%s'%s: %lld of %lld games played",
	    opts->spec->name, opts->bind, opts->keys ? " (CURVE)" : "",
	    (long long)c.done_at_start, (long long)c.total);
	while (!dispatch_stop && !c.failed &&
	    !(c.finished && opts->exit_when_done))
		turn(&c);
	c.stale_log.window_at = 0;
	ratelog_tick(&c.stale_log);
	if (c.failed)
		log_error("stopping; the tournament can resume");
	else if (dispatch_stop)
		log_info("stopping on a signal; the tournament can resume");
	else
		say_bye(&c);
	for (size_t i = 0; i < c.npeers; i++)
		free(c.peers[i].name);
	free(c.peers);
	free(c.batch);
	wire_free(c.w);
	return c.failed ? -1 : 0;
}
