/*
 * dispatch: the coordinator's one event loop. Workers say READY with their
 * free slots; while a worker has a free slot and the database has a queued
 * game, games are leased to it (as many as it has free slots, in one
 * statement) and sent. The results of each poll pass are recorded in one
 * statement (a duplicate or stale one changes nothing) and ACKed, which
 * frees their slots; then the tournament advances to its next stage when
 * one is done. Workers silent for
 * PROTO_LIVENESS heartbeats are forgotten; their games come back to the
 * queue when their leases run out.
 */
#ifndef ARENA_DISPATCH_H
#define ARENA_DISPATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "common/spec.h"
#include "coordinator/db.h"

/* How often expired leases are put back in the queue. */
#define DISPATCH_EXPIRE_MS 3000

struct wire_keys;
struct wire_allow;

struct dispatch_opts {
	const char *bind;		/* ROUTER endpoint, e.g. tcp port 7700 */
	/* With keys, a CURVE server that lets in only allow's workers
	 * (both borrowed); NULL: a plain link. */
	const struct wire_keys *keys;
	const struct wire_allow *allow;
	struct db *db;
	int64_t tournament_id;
	const struct spec *spec;
	bool exit_when_done;	/* BYE to every worker and return once the
				 * last stage is done */
	bool progress;		/* a progress line (terminal) or log lines */
	/* Called every PROTO_HEARTBEAT_MS when set (e.g. to watch local
	 * workers); -1 stops the loop and dispatch_run() returns -1. */
	int (*tick)(void *arg);
	void *tick_arg;
};

/* Serves workers until the tournament is finished (with exit_when_done)
 * or SIGINT/SIGTERM; returns 0 then. -1 when it cannot start (bind) or
 * tick failed. A bad message or a database error is logged and survived. */
int dispatch_run(const struct dispatch_opts *opts);

/* The lease for one game of spec: generous, from the limits (the game time
 * of every seat twice over, plus a minute for builds and start-up). */
int64_t dispatch_lease_ms(const struct spec *spec, uint32_t nseats);

#endif
