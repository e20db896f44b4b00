/*
 * proto: the one wire contract between coordinator and workers. Every
 * message is one ZeroMQ frame holding a msgpack array
 * [PROTO_VERSION, type, fields...]; common/wire*.c send, encode and decode
 * all of them and nothing else touches msgpack or libzmq.
 *
 * Bump PROTO_VERSION when any of this changes.
 *
 *	worker                          coordinator (ROUTER)
 *	READY{name, slots}      ---->
 *	                        <----   GAME{...}        one per free slot
 *	FETCH{sha256}           ---->                    a bot artifact it
 *	                        <----   ARTIFACT{sha256, bytes}   lacks
 *	RESULT{...}             ---->                    kept until ACKed,
 *	                        <----   ACK{ids}         which frees the slot
 *	HEARTBEAT               <--->   HEARTBEAT        both ways, every
 *	                                                 PROTO_HEARTBEAT_MS
 *	                        <----   BYE              tournament over
 */
#ifndef ARENA_PROTO_H
#define ARENA_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/spec.h"
#include "common/verdict.h"

#define PROTO_VERSION 3	/* 3: ACK; results kept until acknowledged */
#define PROTO_MAX_SEATS 8
/* Heartbeats are cheap and a dead peer should be noticed within seconds
 * on a LAN; a peer silent for PROTO_LIVENESS intervals is gone. */
#define PROTO_HEARTBEAT_MS 1000
#define PROTO_LIVENESS 5
/* Larger messages are dropped unread: datasets and replays fit easily. */
#define PROTO_MAX_MESSAGE (16 * 1024 * 1024)
/* An entry's packed folder (common/artifact.h) travels in one ARTIFACT
 * message: what is left of PROTO_MAX_MESSAGE after its envelope. Larger
 * entries are refused when a tournament is opened. */
#define PROTO_MAX_ARTIFACT (PROTO_MAX_MESSAGE - 4096)
/* A sha256 in hex: 64 characters. */
#define PROTO_SHA256_HEX 64

enum msg_type {
	MSG_HEARTBEAT = 1,	/* both ways, no fields */

	MSG_READY = 100,	/* worker -> coordinator */
	MSG_RESULT = 101,
	MSG_FETCH = 102,	/* an artifact, by sha256 */

	MSG_GAME = 200,		/* coordinator -> worker */
	MSG_BYE = 201,
	MSG_ARTIFACT = 202,	/* answers FETCH */
	MSG_ACK = 203,		/* results dealt with */
};

/* At most this many results in one ACK. */
#define PROTO_MAX_ACK 4096

struct msg_ready {
	char *worker;		/* worker name, e.g. host:pid */
	uint32_t slots;		/* games it can run at once */
};

struct msg_seat {
	char *entry;		/* entry name */
	char *artifact;		/* sha256 (hex) of its packed folder, fetched
				 * with FETCH; NULL: folder is a local path */
	char *folder;		/* the entry's folder on the coordinator, for
				 * messages; with no artifact, read in place */
	char *build;		/* build command, or NULL */
	char *run;		/* command that starts the bot */
};

struct msg_game {
	int64_t game_id;	/* games.id in PostgreSQL */
	int32_t attempt;	/* 1 for the first try, +1 for each retry */
	char *game;		/* referee name, e.g. "dreamcity" */
	char *dataset_name;	/* file name, for logs and errors */
	char *dataset;		/* the dataset file's whole text */
	uint64_t seed;
	struct spec_limits limits;
	uint32_t nseats;
	struct msg_seat seats[PROTO_MAX_SEATS];	/* seat 0 plays A */
};

struct msg_seat_result {
	int64_t score;		/* the game's score for this seat */
	enum verdict verdict;	/* worst thing the bot did; WA: illegal moves */
	int32_t illegal;	/* number of illegal or malformed answers */
	int64_t cpu_ms;		/* CPU time over the game */
	int64_t wall_ms;	/* wall time spent in its calls */
	int64_t peak_kb;	/* peak memory */
};

struct msg_result {
	int64_t game_id;
	int32_t attempt;
	uint32_t nseats;
	struct msg_seat_result seats[PROTO_MAX_SEATS];
	char *end_reason;	/* the game's word, or the offender's verdict
				 * code ("TO") when a fault ended it */
	char *detail;		/* human detail: "seat B killed by signal 11";
				 * with any seat XX, why we failed */
	char *referee;		/* referee name and version */
	char *replay;		/* one "seat answer" line per call */
};

struct msg_fetch {
	char *sha256;		/* PROTO_SHA256_HEX lowercase hex digits */
};

/* bytes are what the coordinator holds under sha256 (at most
 * PROTO_MAX_ARTIFACT); the worker checks that they hash to it. NULL bytes
 * (len 0): the coordinator has no such artifact. */
struct msg_artifact {
	char *sha256;
	char *bytes;
	size_t len;
};

/* The results (game, attempt) the coordinator has dealt with: recorded,
 * or refused for good (a duplicate, a stale attempt, malformed). A worker
 * keeps each result, sending it again after a reconnect, until it is
 * ACKed; the slot is free from then on. Travels as one bin of 12 bytes
 * (big-endian id, attempt) per result. */
struct msg_ack {
	uint32_t n;		/* at most PROTO_MAX_ACK */
	int64_t *game_ids;
	int32_t *attempts;
};

struct msg {
	enum msg_type type;
	union {
		struct msg_ready ready;
		struct msg_game game;
		struct msg_result result;
		struct msg_fetch fetch;
		struct msg_artifact artifact;
		struct msg_ack ack;
	} u;
};

/* Frees what the message's fields own (not the struct); accepts any type. */
void msg_release(struct msg *m);

#endif
