/*
 * dispatch: the coordinator's loop (see dispatch.h).
 *
 * Theory of operation. One zmq_poll loop, single-threaded, with three
 * timers: heartbeats (to every worker, and the check for silent ones),
 * lease expiry (DISPATCH_EXPIRE_MS) and progress. Each worker is known by
 * its ZeroMQ identity with a credit of free slots: READY sets it, a GAME
 * sent takes one, a RESULT gives one back. PostgreSQL holds everything
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

static void
progress(struct coordinator *c)
{
	int64_t elapsed = clock_now_ms() - c->start_ms, played, running = 0;
	int pct;
	char eta[32] = "?";

	if (!c->opts->progress ||
	    db_progress(c->opts->db, c->opts->tournament_id, &c->done,
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

/* Leases games to p while it has free slots and games are queued. */
static void
feed(struct coordinator *c, struct peer *p)
{
	const struct game *g = games_find(c->opts->spec->game);
	int64_t lease = dispatch_lease_ms(c->opts->spec,
	    g ? (uint32_t)g->max_seats : PROTO_MAX_SEATS);
	struct msg m = { .type = MSG_GAME };
	int64_t id;
	int32_t attempt;
	int got = 1;

	while (p->credit > 0 && (got = db_game_claim(c->opts->db,
	    c->opts->tournament_id, p->name, lease, &m.u.game)) == 1) {
		c->drained = false;
		id = m.u.game.game_id;
		attempt = m.u.game.attempt;
		if (peer_send(c, p, &m) == -1) {
			db_game_requeue(c->opts->db, id, attempt,
			    "worker unreachable");
			msg_release(&m);
			return;
		}
		log_debug("game %lld attempt %d to '%s'", (long long)id,
		    attempt, p->name);
		msg_release(&m);
		p->credit--;
		p->running++;
	}
	/* The queue just ran dry: the stage may be done (its last results
	 * came in while every slot was busy). */
	if (got == 0 && !c->drained) {
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

static void
on_result(struct coordinator *c, struct peer *p, const struct wire_peer *id,
    const struct msg_result *r)
{
	/* A worker reconnecting after a coordinator restart may deliver
	 * before its READY: its CURVE key still names it. */
	const char *name = p ? p->name : id->user[0] ? id->user : "?";
	bool recorded = false;

	/* Every result frees a slot, even one started before a coordinator
	 * restart (its READY counted only idle slots). */
	if (p) {
		p->credit++;
		p->running -= p->running > 0;
	}
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
		db_game_requeue(c->opts->db, r->game_id, r->attempt,
		    r->detail ? r->detail : "worker failure");
		return;
	}
	if (db_result_record(c->opts->db, r, name, &recorded) == -1)
		return;
	if (!recorded)
		log_info("game %lld attempt %d: duplicate or stale result "
		    "from '%s' ignored", (long long)r->game_id, r->attempt,
		    name);
	/* A stage cannot be done while one of its games is queued: only
	 * once the queue ran dry is each result worth the check (the timer
	 * checks anyway). */
	if (c->drained)
		advance(c);
	progress(c);
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
		on_result(c, p, id, &m->u.result);
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
	struct coordinator c = { .opts = opts };
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
	if (c.failed)
		log_error("stopping; the tournament can resume");
	else if (dispatch_stop)
		log_info("stopping on a signal; the tournament can resume");
	else
		say_bye(&c);
	for (size_t i = 0; i < c.npeers; i++)
		free(c.peers[i].name);
	free(c.peers);
	wire_free(c.w);
	return c.failed ? -1 : 0;
}
