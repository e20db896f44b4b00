/*
 * wire: messages of common/proto.h over ZeroMQ. The coordinator binds a
 * ROUTER and sees each worker as a peer identity; a worker connects a
 * DEALER. Decoding is strict: anything that is not exactly a message of
 * PROTO_VERSION is dropped with a log line, so no bytes from the network
 * can crash the receiver.
 */
#ifndef ARENA_WIRE_H
#define ARENA_WIRE_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/proto.h"

struct wire;

/* A ZeroMQ routing id (at most 255 bytes), as the ROUTER side sees it. */
struct wire_peer {
	unsigned char id[256];
	size_t len;		/* bytes used in id */
};

/* A ROUTER bound to endpoint (e.g. "tcp://0.0.0.0:7700"). NULL after logging
 * why. Free with wire_free(). */
struct wire *wire_bind(const char *endpoint);
/* A DEALER connected to endpoint. NULL after logging why. */
struct wire *wire_connect(const char *endpoint);
void wire_free(struct wire *w);

/* Sends m; to names the peer on a ROUTER and must be NULL on a DEALER.
 * Never blocks: a peer that is gone or full is an error (-1, logged). */
int wire_send(struct wire *w, const struct wire_peer *to,
    const struct msg *m);
/* Takes one waiting message without blocking. Returns 1 and fills *m (and
 * *from on a ROUTER; from may be NULL on a DEALER), 0 when nothing waits,
 * -1 when a message was dropped as malformed (logged) or on error. The
 * caller owns m's fields; free with msg_release(). */
int wire_recv(struct wire *w, struct wire_peer *from, struct msg *m);

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

/* A printable form of a peer id, for logs: hex, at most 16 bytes shown. */
void wire_peer_format(const struct wire_peer *p, char *out, size_t outlen);

#endif
