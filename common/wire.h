/*
 * wire: messages of common/proto.h over ZeroMQ. The coordinator binds a
 * ROUTER and sees each worker as a peer identity; a worker connects a
 * DEALER. Decoding is strict: anything that is not exactly a message of
 * PROTO_VERSION is dropped with a log line (at most WIRE_LOG_BURST lines
 * per WIRE_LOG_WINDOW_MS, the rest counted), so no bytes from the network
 * can crash or flood the receiver.
 *
 * Across machines the link is ZeroMQ CURVE (RFC 26): the coordinator is a
 * CURVE server whose ZAP handler (RFC 27, served inside wire_poll, no
 * thread) lets in only the public keys of its allow list; a worker is a
 * CURVE client that only completes a handshake with the server key it was
 * given. A peer that fails either check never gets a message through.
 *
 * Key files are text, one "WORD KEY" per line, KEY a Z85 key of 40
 * characters, '#' lines are comments. NAME.key (mode 0600) holds the lines
 * "public" and "secret"; NAME.pub only "public".
 */
#ifndef ARENA_WIRE_H
#define ARENA_WIRE_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/proto.h"

struct wire;

struct wire_allow;

#define WIRE_LOG_BURST 10
#define WIRE_LOG_WINDOW_MS 10000
/* A Z85 CURVE key: 40 characters and a NUL. */
#define WIRE_KEY_TEXT 41
#define WIRE_NAME_MAX 64

/* A ZeroMQ routing id (at most 255 bytes), as the ROUTER side sees it. */
struct wire_peer {
	unsigned char id[256];
	size_t len;		/* bytes used in id */
	char user[WIRE_NAME_MAX];	/* CURVE: the allow list's name for
					 * its key; "" on a plain link */
	char address[WIRE_NAME_MAX];	/* its IP address, or "" */
};

/* A CURVE key pair; secret_key is "" when only the public key is known. */
struct wire_keys {
	char public_key[WIRE_KEY_TEXT];
	char secret_key[WIRE_KEY_TEXT];
};

/* A ROUTER bound to endpoint (e.g. "tcp://0.0.0.0:7700"). NULL after logging
 * why. Free with wire_free(). */
struct wire *wire_bind(const char *endpoint);
/* As wire_bind, a CURVE server with keys that lets in only the keys in
 * allow (copied; the caller still owns it). Its handshakes are served by
 * wire_poll, so the owner must keep polling. */
struct wire *wire_bind_curve(const char *endpoint, const struct wire_keys *keys,
    const struct wire_allow *allow);
/* A DEALER connected to endpoint. NULL after logging why. */
struct wire *wire_connect(const char *endpoint);
/* As wire_connect, a CURVE client with keys that talks only to a server
 * whose public key is server_key (Z85). */
struct wire *wire_connect_curve(const char *endpoint,
    const struct wire_keys *keys, const char *server_key);
void wire_free(struct wire *w);

/* A fresh key pair; -1 when this libzmq has no CURVE. */
int wire_keys_generate(struct wire_keys *k);
/* Writes NAME.key (mode 0600, the pair) and NAME.pub (the public key);
 * refuses to overwrite either. */
int wire_keys_write(const char *name, const struct wire_keys *k);
/* Reads a .key or .pub file; with need_secret, a .key whose halves match.
 * Errors name the file and line. */
int wire_keys_read(const char *path, bool need_secret, struct wire_keys *k);

/* The workers a CURVE server lets in: every NAME.pub in folder path, or
 * the one file path, each known by NAME. NULL after logging why (also
 * when there is no key). Free with wire_allow_free(). */
struct wire_allow *wire_allow_load(const char *path);
/* Adds one more public key (Z85) known as name; -1 if it is no key. */
int wire_allow_add(struct wire_allow *a, const char *name,
    const char *public_key);
size_t wire_allow_count(const struct wire_allow *a);
/* 0 and *name (borrowed from a) when key, 32 bytes, is in a; else -1. */
int wire_allow_find(const struct wire_allow *a, const void *key,
    const char **name);
/* Caller owns the result; free with wire_allow_free(). */
struct wire_allow *wire_allow_copy(const struct wire_allow *a);
void wire_allow_free(struct wire_allow *a);

/* Sends m; to names the peer on a ROUTER and must be NULL on a DEALER.
 * Never blocks: a peer that is gone or full is an error (-1, logged). */
int wire_send(struct wire *w, const struct wire_peer *to,
    const struct msg *m);
/* Takes one waiting message without blocking. Returns 1 and fills *m (and
 * *from on a ROUTER; from may be NULL on a DEALER), 0 when nothing waits,
 * -1 when a message was dropped as malformed (logged) or on error. The
 * caller owns m's fields; free with msg_release(). */
int wire_recv(struct wire *w, struct wire_peer *from, struct msg *m);

/* Logs that a message from from (NULL: the coordinator) was dropped and
 * why, on the bounded rate of wire_recv's own drops. */
void wire_dropped(struct wire *w, const struct wire_peer *from,
    const char *why);

/* Waits up to timeout_ms (-1: forever) for a message on w or for the
 * events asked in fds; fills fds[i].revents and *readable. Returns the
 * number of ready items, 0 on timeout or a signal, -1 on error. */
int wire_poll(struct wire *w, struct pollfd *fds, size_t nfds,
    int64_t timeout_ms, bool *readable);

/* The bytes of one frame for m. Caller owns *buf; free(). */
int wire_encode(const struct msg *m, char **buf, size_t *len);
/* Parses one frame; 0 and *m, or -1 after logging what was wrong. The
 * caller owns m's fields; free with msg_release(). */
int wire_decode(const void *buf, size_t len, struct msg *m);
/* As wire_decode without the log line (wire_recv logs drops at a bounded
 * rate): on -1, *why says what was wrong, until the next decode. */
int wire_decode_quiet(const void *buf, size_t len, struct msg *m,
    const char **why);

/* A printable form of a peer id, for logs: hex, at most 16 bytes shown,
 * after the key's name ("w1/00a1b2...") on a CURVE link. */
void wire_peer_format(const struct wire_peer *p, char *out, size_t outlen);

#endif
