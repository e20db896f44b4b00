/*
 * worker: connects to a coordinator, says READY with its free slots, and
 * plays each GAME it is sent in a child process of its own, sending back
 * the RESULT. Heartbeats both ways; a coordinator silent for
 * PROTO_LIVENESS heartbeats is reconnected to with a fresh socket after a
 * backoff of 1 s doubling up to 32 s (the zguide's Paranoid Pirate).
 * A coordinator that refuses our key looks the same: silent.
 */
#ifndef ARENA_WORKER_H
#define ARENA_WORKER_H

struct wire_keys;

struct worker_opts {
	const char *connect;	/* coordinator endpoint, "tcp://host:7700" */
	unsigned slots;		/* games at once; 0 means 1 */
	const char *data_dir;	/* build cache and bot logs */
	const char *name;	/* shown by the coordinator; NULL: host:pid */
	/* With keys, a CURVE client that only talks to the coordinator
	 * whose public key (Z85) is server_key; NULL: a plain link. */
	const struct wire_keys *keys;
	const char *server_key;
};

/* Serves games until BYE (returns 0), SIGINT or SIGTERM (0), or a failure
 * to set up (-1). Running games are killed on the way out. */
int worker_run(const struct worker_opts *opts);

#endif
