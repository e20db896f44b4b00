/*
 * wire: the only msgpack and libzmq user. Every message is one frame, a
 * msgpack array [PROTO_VERSION, type, fields...]; nested records (limits,
 * seats, seat results) are arrays too, and optional strings are nil. An
 * artifact's bytes are the one msgpack bin.
 *
 * Decoding runs in two passes. First a small walker checks the raw bytes
 * against what our messages can contain: no maps, floats or
 * extensions, arrays of at most WIRE_MAX_ARRAY items, nesting at most
 * WIRE_MAX_DEPTH, every length inside the buffer. Only then does msgpack-c
 * build objects, so a hostile frame cannot make it allocate memory in
 * proportion to a length it merely claims. The second pass checks each
 * field's type, count and range while copying it out.
 */
#include "common/wire.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>
#include <zmq.h>

#include "common/artifact.h"
#include "common/clock.h"
#include "common/log.h"

#define WIRE_MAX_ARRAY 16
#define WIRE_MAX_DEPTH 4
/* Lets BYE and last results leave before a socket closes, but never hangs
 * an exit on a peer that is gone. */
#define WIRE_LINGER_MS 1000

/* The ZAP endpoint is fixed by RFC 27; each context has its own. */
#define WIRE_ZAP_ENDPOINT "inproc://zeromq.zap.01"
#define WIRE_ZAP_DOMAIN "arena"
/* Refused keys are logged once each; past this many, rate-limited. */
#define WIRE_MAX_REFUSED 256

struct wire {
	void *ctx;
	void *sock;
	bool router;		/* ROUTER (coordinator) or DEALER (worker) */
	void *zap;		/* CURVE server: its ZAP handler (REP) */
	struct wire_allow *allow;	/* CURVE server: who gets in */
	unsigned char refused[WIRE_MAX_REFUSED][32];
	size_t nrefused;
	int64_t window_at;	/* rate limit of drop lines: window start */
	int logged;		/* lines in this window */
	long hushed;		/* drops not logged in this window */
};

static int decode(const void *buf, size_t len, struct msg *m);
/* Why decode refused the last frame. It only records it: wire_decode logs
 * it, wire_recv logs it with the sender at a bounded rate. */
static char bad_reason[160];

/* --- logging a hostile peer at a bounded rate --- */

/* Ends a window that is over, with one line for what it did not log. */
static void
hush_flush(struct wire *w)
{
	int64_t now = clock_now_ms();

	if (now - w->window_at < WIRE_LOG_WINDOW_MS)
		return;
	if (w->hushed > 0)
		log_warn("%ld more bad messages or handshakes not logged in "
		    "the last %d s", w->hushed, WIRE_LOG_WINDOW_MS / 1000);
	w->window_at = now;
	w->logged = 0;
	w->hushed = 0;
}

static void
drop_log(struct wire *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
drop_log(struct wire *w, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	hush_flush(w);
	if (w->logged >= WIRE_LOG_BURST) {
		w->hushed++;
		return;
	}
	w->logged++;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	log_warn("%s", line);
}

/* --- sockets --- */

static int
set_curve(void *sock, int option, const char *key)
{
	return zmq_setsockopt(sock, option, key, strlen(key) + 1);
}

/* The ZAP handler must be bound before the server socket can see a
 * handshake: a CURVE server without one lets every client in. */
static int
zap_open(struct wire *w, const struct wire_keys *keys,
    const struct wire_allow *allow)
{
	int linger = 0, one = 1;

	if ((w->zap = zmq_socket(w->ctx, ZMQ_REP)) == NULL ||
	    zmq_setsockopt(w->zap, ZMQ_LINGER, &linger, sizeof linger) ||
	    zmq_bind(w->zap, WIRE_ZAP_ENDPOINT))
		return log_error("cannot start the key check: %s",
		    zmq_strerror(zmq_errno()));
	w->allow = wire_allow_copy(allow);
	if (zmq_setsockopt(w->sock, ZMQ_CURVE_SERVER, &one, sizeof one) ||
	    set_curve(w->sock, ZMQ_CURVE_SECRETKEY, keys->secret_key) ||
	    zmq_setsockopt(w->sock, ZMQ_ZAP_DOMAIN, WIRE_ZAP_DOMAIN,
	    strlen(WIRE_ZAP_DOMAIN)))
		return log_error("cannot make a CURVE server: %s",
		    zmq_strerror(zmq_errno()));
	return 0;
}

static int
curve_client(struct wire *w, const struct wire_keys *keys,
    const char *server_key)
{
	/* zmq's own reconnects back off too, so a refused worker does not
	 * knock ten times a second. */
	int ivl = 1000, ivl_max = 32000;

	if (set_curve(w->sock, ZMQ_CURVE_SERVERKEY, server_key) ||
	    set_curve(w->sock, ZMQ_CURVE_PUBLICKEY, keys->public_key) ||
	    set_curve(w->sock, ZMQ_CURVE_SECRETKEY, keys->secret_key) ||
	    zmq_setsockopt(w->sock, ZMQ_RECONNECT_IVL, &ivl, sizeof ivl) ||
	    zmq_setsockopt(w->sock, ZMQ_RECONNECT_IVL_MAX, &ivl_max,
	    sizeof ivl_max))
		return log_error("cannot make a CURVE client: %s",
		    zmq_strerror(zmq_errno()));
	return 0;
}

/* keys and allow: a CURVE server (ROUTER); keys and server_key: a CURVE
 * client (DEALER); neither: a plain socket. */
static struct wire *
wire_open(int type, const char *endpoint, const struct wire_keys *keys,
    const struct wire_allow *allow, const char *server_key)
{
	struct wire *w = xcalloc(1, sizeof *w);
	int64_t max = PROTO_MAX_MESSAGE;
	int linger = WIRE_LINGER_MS, one = 1;

	w->router = type == ZMQ_ROUTER;
	w->window_at = clock_now_ms();
	if ((w->ctx = zmq_ctx_new()) == NULL) {
		log_errno("cannot create a ZeroMQ context");
		goto fail;
	}
	if ((w->sock = zmq_socket(w->ctx, type)) == NULL) {
		log_errno("cannot create a ZeroMQ socket");
		goto fail;
	}
	if (zmq_setsockopt(w->sock, ZMQ_MAXMSGSIZE, &max, sizeof max) == -1 ||
	    zmq_setsockopt(w->sock, ZMQ_LINGER, &linger, sizeof linger) == -1 ||
	    (w->router && zmq_setsockopt(w->sock, ZMQ_ROUTER_MANDATORY, &one,
	    sizeof one) == -1)) {
		log_errno("cannot set socket options");
		goto fail;
	}
	if (keys && (w->router ? zap_open(w, keys, allow) :
	    curve_client(w, keys, server_key)) == -1)
		goto fail;
	if (w->router ? zmq_bind(w->sock, endpoint) :
	    zmq_connect(w->sock, endpoint)) {
		log_error("cannot %s '%s': %s", w->router ? "bind" : "connect",
		    endpoint, zmq_strerror(zmq_errno()));
		goto fail;
	}
	return w;
fail:
	wire_free(w);
	return NULL;
}

struct wire *
wire_bind(const char *endpoint)
{
	return wire_open(ZMQ_ROUTER, endpoint, NULL, NULL, NULL);
}

struct wire *
wire_bind_curve(const char *endpoint, const struct wire_keys *keys,
    const struct wire_allow *allow)
{
	assert(keys->secret_key[0] != '\0' && allow != NULL);
	return wire_open(ZMQ_ROUTER, endpoint, keys, allow, NULL);
}

struct wire *
wire_connect(const char *endpoint)
{
	return wire_open(ZMQ_DEALER, endpoint, NULL, NULL, NULL);
}

struct wire *
wire_connect_curve(const char *endpoint, const struct wire_keys *keys,
    const char *server_key)
{
	assert(keys->secret_key[0] != '\0' && server_key != NULL);
	return wire_open(ZMQ_DEALER, endpoint, keys, NULL, server_key);
}

void
wire_free(struct wire *w)
{
	if (w == NULL)
		return;
	if (w->hushed > 0)
		log_warn("%ld more bad messages or handshakes not logged",
		    w->hushed);
	if (w->sock)
		zmq_close(w->sock);
	if (w->zap)
		zmq_close(w->zap);
	if (w->ctx)
		zmq_ctx_term(w->ctx);
	wire_allow_free(w->allow);
	free(w);
}

void
wire_peer_format(const struct wire_peer *p, char *out, size_t outlen)
{
	size_t n = p->len < 16 ? p->len : 16, off = 0;
	int k;

	if (outlen == 0)
		return;
	out[0] = '\0';
	if (p->user[0] && (k = snprintf(out, outlen, "%s/", p->user)) > 0)
		off = (size_t)k < outlen ? (size_t)k : outlen - 1;
	for (size_t i = 0; i < n && off + 3 <= outlen; i++)
		off += snprintf(out + off, outlen - off, "%02x", p->id[i]);
}

static bool
more_frames(void *sock)
{
	int more = 0;
	size_t sz = sizeof more;

	return zmq_getsockopt(sock, ZMQ_RCVMORE, &more, &sz) == 0 && more;
}

/* --- the ZAP handler (RFC 27) --- */

#define ZAP_FRAMES 7	/* version, request id, domain, address, routing
			 * id, mechanism, client key */

/* Logs a refused key once (a refused worker retries forever). */
static void
zap_refused(struct wire *w, const unsigned char key[32], const char *address)
{
	char z85[WIRE_KEY_TEXT];

	for (size_t i = 0; i < w->nrefused; i++)
		if (memcmp(w->refused[i], key, 32) == 0)
			return;
	zmq_z85_encode(z85, key, 32);
	/* The first few hundred strangers each get their line, whatever
	 * else floods the log; past that, the rate limit decides. */
	if (w->nrefused < WIRE_MAX_REFUSED) {
		memcpy(w->refused[w->nrefused++], key, 32);
		log_warn("refused a worker with key '%s' from %s: not in the "
		    "allow list", z85, address[0] ? address :
		    "an unknown address");
	} else
		drop_log(w, "refused a worker with key '%s' from %s: not in "
		    "the allow list", z85, address[0] ? address :
		    "an unknown address");
}

/* Reads one request's frames (at most ZAP_FRAMES kept); -1 if none. */
static int
zap_read(void *zap, zmq_msg_t *f, int *n)
{
	*n = 0;
	do {
		zmq_msg_t extra;
		zmq_msg_t *m = *n < ZAP_FRAMES ? &f[*n] : &extra;

		zmq_msg_init(m);
		if (zmq_msg_recv(m, zap, ZMQ_DONTWAIT) == -1) {
			zmq_msg_close(m);
			return *n > 0 ? 0 : -1;
		}
		if (m == &extra)
			zmq_msg_close(m);
		else
			(*n)++;
	} while (more_frames(zap));
	return 0;
}

/* A REP socket must answer every request, even one it cannot read. */
static void
zap_reply(void *zap, zmq_msg_t *f, int n, const char *status,
    const char *text, const char *user)
{
	zmq_send(zap, "1.0", 3, ZMQ_SNDMORE);
	zmq_send(zap, n > 1 ? zmq_msg_data(&f[1]) : "",
	    n > 1 ? zmq_msg_size(&f[1]) : 0, ZMQ_SNDMORE);
	zmq_send(zap, status, strlen(status), ZMQ_SNDMORE);
	zmq_send(zap, text, strlen(text), ZMQ_SNDMORE);
	zmq_send(zap, user, strlen(user), ZMQ_SNDMORE);
	zmq_send(zap, "", 0, 0);
}

/* Answers one waiting handshake check; -1 when none waits. */
static int
zap_serve(struct wire *w)
{
	zmq_msg_t f[ZAP_FRAMES];
	char address[WIRE_NAME_MAX] = "";
	const char *name = NULL;
	int n;

	if (zap_read(w->zap, f, &n) == -1)
		return -1;
	if (n == ZAP_FRAMES && zmq_msg_size(&f[3]) < sizeof address)
		memcpy(address, zmq_msg_data(&f[3]), zmq_msg_size(&f[3]));
	if (n != ZAP_FRAMES || zmq_msg_size(&f[5]) != 5 ||
	    memcmp(zmq_msg_data(&f[5]), "CURVE", 5) != 0 ||
	    zmq_msg_size(&f[6]) != 32) {
		drop_log(w, "refused a handshake from %s: not CURVE",
		    address[0] ? address : "an unknown address");
		zap_reply(w->zap, f, n, "400", "CURVE only", "");
	} else if (wire_allow_find(w->allow, zmq_msg_data(&f[6]),
	    &name) == -1) {
		zap_refused(w, zmq_msg_data(&f[6]), address);
		zap_reply(w->zap, f, n, "400", "key not allowed", "");
	} else
		zap_reply(w->zap, f, n, "200", "OK", name);
	for (int i = 0; i < n; i++)
		zmq_msg_close(&f[i]);
	return 0;
}

/* --- messages --- */

int
wire_send(struct wire *w, const struct wire_peer *to, const struct msg *m)
{
	char *buf;
	size_t len;
	int rc = -1;

	assert((to != NULL) == w->router);
	if (wire_encode(m, &buf, &len) == -1)
		return -1;
	if (w->router && zmq_send(w->sock, to->id, to->len,
	    ZMQ_SNDMORE | ZMQ_DONTWAIT) == -1) {
		log_error("cannot send to a peer: %s",
		    zmq_strerror(zmq_errno()));
		goto out;
	}
	if (zmq_send(w->sock, buf, len, ZMQ_DONTWAIT) == -1) {
		log_error("cannot send a message: %s",
		    zmq_strerror(zmq_errno()));
		goto out;
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

/* Reads and throws away the rest of a multi-frame message. */
static void
drain(void *sock)
{
	zmq_msg_t f;

	while (more_frames(sock)) {
		zmq_msg_init(&f);
		zmq_msg_recv(&f, sock, ZMQ_DONTWAIT);
		zmq_msg_close(&f);
	}
}

/* Copies a message property (ZMQ_MSG_PROPERTY_*) into out, "" if none. */
static void
property(zmq_msg_t *f, const char *name, char *out, size_t outlen)
{
	const char *v = zmq_msg_gets(f, name);

	snprintf(out, outlen, "%s", v ? v : "");
}

static const char *
sender(const struct wire_peer *from, char *buf, size_t len)
{
	char hex[WIRE_NAME_MAX + 40];

	if (from == NULL)
		return "the coordinator";
	wire_peer_format(from, hex, sizeof hex);
	snprintf(buf, len, "peer %s%s%s", hex, from->address[0] ? " at " : "",
	    from->address);
	return buf;
}

int
wire_recv(struct wire *w, struct wire_peer *from, struct msg *m)
{
	char who[200];
	zmq_msg_t f;
	int rc = -1;

	zmq_msg_init(&f);
	if (zmq_msg_recv(&f, w->sock, ZMQ_DONTWAIT) == -1) {
		zmq_msg_close(&f);
		if (zmq_errno() == EAGAIN || zmq_errno() == EINTR)
			return 0;
		return log_error("cannot receive: %s",
		    zmq_strerror(zmq_errno()));
	}
	if (w->router) {
		memset(from, 0, sizeof *from);
		if (zmq_msg_size(&f) > sizeof from->id || !more_frames(w->sock)) {
			drop_log(w, "dropped a message without a peer "
			    "envelope");
			goto out;
		}
		from->len = zmq_msg_size(&f);
		memcpy(from->id, zmq_msg_data(&f), from->len);
		zmq_msg_close(&f);
		zmq_msg_init(&f);
		if (zmq_msg_recv(&f, w->sock, ZMQ_DONTWAIT) == -1) {
			log_error("cannot receive a message body: %s",
			    zmq_strerror(zmq_errno()));
			goto out;
		}
		property(&f, "User-Id", from->user, sizeof from->user);
		property(&f, "Peer-Address", from->address,
		    sizeof from->address);
	}
	if (more_frames(w->sock))
		drop_log(w, "dropped a message of more than one frame from %s",
		    sender(from, who, sizeof who));
	else if (decode(zmq_msg_data(&f), zmq_msg_size(&f), m) == -1)
		drop_log(w, "dropped a malformed message from %s: %s",
		    sender(from, who, sizeof who), bad_reason);
	else
		rc = 1;
out:
	drain(w->sock);
	zmq_msg_close(&f);
	return rc;
}

void
wire_dropped(struct wire *w, const struct wire_peer *from, const char *why)
{
	char who[200];

	drop_log(w, "dropped a message from %s: %s",
	    sender(from, who, sizeof who), why);
}

int
wire_poll(struct wire *w, struct pollfd *fds, size_t nfds, int64_t timeout_ms,
    bool *readable)
{
	zmq_pollitem_t *items = xcalloc(nfds + 2, sizeof *items);
	size_t zap = nfds + 1;	/* the ZAP handler's item, if any */
	int n;

	items[0].socket = w->sock;
	items[0].events = ZMQ_POLLIN;
	for (size_t i = 0; i < nfds; i++) {
		items[i + 1].fd = fds[i].fd;
		items[i + 1].events = fds[i].events;
	}
	items[zap].socket = w->zap;
	items[zap].events = ZMQ_POLLIN;
	n = zmq_poll(items, (int)nfds + 1 + (w->zap != NULL), (long)timeout_ms);
	if (n == -1 && zmq_errno() == EINTR)
		n = 0;
	else if (n == -1)
		log_error("cannot poll: %s", zmq_strerror(zmq_errno()));
	*readable = n > 0 && (items[0].revents & ZMQ_POLLIN);
	for (size_t i = 0; i < nfds; i++)
		fds[i].revents = n > 0 ? items[i + 1].revents : 0;
	/* Handshakes wait for these answers; a bounded number per turn. */
	if (w->zap && n > 0 && (items[zap].revents & ZMQ_POLLIN))
		for (int i = 0; i < 100 && zap_serve(w) == 0; i++)
			;
	hush_flush(w);
	free(items);
	return n;
}

/* --- encoding --- */

static void
pack_str(msgpack_packer *pk, const char *s)
{
	if (s == NULL) {
		msgpack_pack_nil(pk);
		return;
	}
	msgpack_pack_str(pk, strlen(s));
	msgpack_pack_str_body(pk, s, strlen(s));
}

static void
pack_game(msgpack_packer *pk, const struct msg_game *g)
{
	msgpack_pack_array(pk, 10);
	msgpack_pack_int64(pk, PROTO_VERSION);
	msgpack_pack_int64(pk, MSG_GAME);
	msgpack_pack_int64(pk, g->game_id);
	msgpack_pack_int64(pk, g->attempt);
	pack_str(pk, g->game);
	pack_str(pk, g->dataset_name);
	pack_str(pk, g->dataset);
	msgpack_pack_uint64(pk, g->seed);
	msgpack_pack_array(pk, 6);
	msgpack_pack_int64(pk, g->limits.call_ms);
	msgpack_pack_int64(pk, g->limits.game_ms);
	msgpack_pack_int64(pk, g->limits.memory_mb);
	msgpack_pack_int64(pk, g->limits.resident_mb);
	msgpack_pack_int64(pk, g->limits.clock);
	msgpack_pack_int64(pk, g->limits.ponder);
	msgpack_pack_array(pk, g->nseats);
	for (uint32_t i = 0; i < g->nseats; i++) {
		msgpack_pack_array(pk, 5);
		pack_str(pk, g->seats[i].entry);
		pack_str(pk, g->seats[i].artifact);
		pack_str(pk, g->seats[i].folder);
		pack_str(pk, g->seats[i].build);
		pack_str(pk, g->seats[i].run);
	}
}

static void
pack_result(msgpack_packer *pk, const struct msg_result *r)
{
	msgpack_pack_array(pk, 9);
	msgpack_pack_int64(pk, PROTO_VERSION);
	msgpack_pack_int64(pk, MSG_RESULT);
	msgpack_pack_int64(pk, r->game_id);
	msgpack_pack_int64(pk, r->attempt);
	msgpack_pack_array(pk, r->nseats);
	for (uint32_t i = 0; i < r->nseats; i++) {
		const struct msg_seat_result *s = &r->seats[i];

		msgpack_pack_array(pk, 6);
		msgpack_pack_int64(pk, s->score);
		pack_str(pk, verdict_code(s->verdict));
		msgpack_pack_int64(pk, s->illegal);
		msgpack_pack_int64(pk, s->cpu_ms);
		msgpack_pack_int64(pk, s->wall_ms);
		msgpack_pack_int64(pk, s->peak_kb);
	}
	pack_str(pk, r->end_reason);
	pack_str(pk, r->detail);
	pack_str(pk, r->referee);
	pack_str(pk, r->replay);
}

static void
pack_artifact(msgpack_packer *pk, const struct msg_artifact *a)
{
	msgpack_pack_array(pk, 4);
	msgpack_pack_int64(pk, PROTO_VERSION);
	msgpack_pack_int64(pk, MSG_ARTIFACT);
	pack_str(pk, a->sha256);
	if (a->bytes == NULL) {
		msgpack_pack_nil(pk);
		return;
	}
	msgpack_pack_bin(pk, a->len);
	msgpack_pack_bin_body(pk, a->bytes, a->len);
}

int
wire_encode(const struct msg *m, char **buf, size_t *len)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;

	if ((m->type == MSG_GAME && m->u.game.nseats > PROTO_MAX_SEATS) ||
	    (m->type == MSG_RESULT && m->u.result.nseats > PROTO_MAX_SEATS))
		return log_error("cannot encode a message with %u seats",
		    m->type == MSG_GAME ? m->u.game.nseats :
		    m->u.result.nseats);
	if (m->type == MSG_ARTIFACT && m->u.artifact.len > PROTO_MAX_ARTIFACT)
		return log_error("cannot send an artifact of %zu bytes, over "
		    "%d", m->u.artifact.len, PROTO_MAX_ARTIFACT);
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	switch (m->type) {
	case MSG_HEARTBEAT:
	case MSG_BYE:
		msgpack_pack_array(&pk, 2);
		msgpack_pack_int64(&pk, PROTO_VERSION);
		msgpack_pack_int64(&pk, m->type);
		break;
	case MSG_READY:
		msgpack_pack_array(&pk, 4);
		msgpack_pack_int64(&pk, PROTO_VERSION);
		msgpack_pack_int64(&pk, MSG_READY);
		pack_str(&pk, m->u.ready.worker);
		msgpack_pack_uint64(&pk, m->u.ready.slots);
		break;
	case MSG_GAME:
		pack_game(&pk, &m->u.game);
		break;
	case MSG_RESULT:
		pack_result(&pk, &m->u.result);
		break;
	case MSG_FETCH:
		msgpack_pack_array(&pk, 3);
		msgpack_pack_int64(&pk, PROTO_VERSION);
		msgpack_pack_int64(&pk, MSG_FETCH);
		pack_str(&pk, m->u.fetch.sha256);
		break;
	case MSG_ARTIFACT:
		pack_artifact(&pk, &m->u.artifact);
		break;
	default:
		msgpack_sbuffer_destroy(&sb);
		return log_error("cannot encode message type %d", m->type);
	}
	if (sb.data == NULL || sb.size > PROTO_MAX_MESSAGE) {
		msgpack_sbuffer_destroy(&sb);
		return log_error("cannot encode a message of over %d bytes",
		    PROTO_MAX_MESSAGE);
	}
	*len = sb.size;
	*buf = msgpack_sbuffer_release(&sb);
	return 0;
}

/* --- decoding, pass 1: the shape of the raw bytes --- */

static int
malformed(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(bad_reason, sizeof bad_reason, fmt, ap);
	va_end(ap);
	return -1;
}

static uint64_t
be(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Checks one object at *off and moves past it; -1 names what is wrong. */
static int
walk(const unsigned char *p, size_t len, size_t *off, int depth)
{
	size_t hdr, body = 0, items = 0;
	unsigned char b;

	if (*off >= len)
		return malformed("truncated");
	b = p[*off];
	if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3)
		hdr = 1;
	else if (b >= 0xcc && b <= 0xd3)	/* (u)int 8..64 */
		hdr = 1 + ((size_t)1 << (b & 3));
	else if (b >= 0xa0 && b <= 0xbf) {
		hdr = 1;
		body = b & 0x1f;
	} else if ((b >= 0xd9 && b <= 0xdb) || (b >= 0xc4 && b <= 0xc6)) {
		/* str 8, 16, 32; bin 8, 16, 32 */
		hdr = 1 + ((size_t)1 << (b >= 0xd9 ? b - 0xd9 : b - 0xc4));
		if (*off + hdr > len)
			return malformed("truncated");
		body = be(p + *off + 1, hdr - 1);
	} else if (b >= 0x90 && b <= 0x9f) {
		hdr = 1;
		items = b & 0x0f;
	} else if (b == 0xdc || b == 0xdd) {	/* array 16, 32 */
		hdr = b == 0xdc ? 3 : 5;
		if (*off + hdr > len)
			return malformed("truncated");
		items = be(p + *off + 1, hdr - 1);
	} else
		return malformed("unexpected msgpack "
		    "type 0x%02x", b);
	if (hdr > len - *off || body > len - *off - hdr)
		return malformed("truncated");
	*off += hdr + body;
	if (items > WIRE_MAX_ARRAY)
		return malformed("array of %zu items",
		    items);
	if (items > 0 && depth >= WIRE_MAX_DEPTH)
		return malformed("nested too deep");
	for (size_t i = 0; i < items; i++)
		if (walk(p, len, off, depth + 1) == -1)
			return -1;
	return 0;
}

/* --- decoding, pass 2: fields --- */

static int
want_array(const msgpack_object *o, uint32_t min, uint32_t max,
    const char *what)
{
	if (o->type != MSGPACK_OBJECT_ARRAY)
		return malformed("%s is not an array", what);
	if (o->via.array.size < min || o->via.array.size > max)
		return malformed("%s has %" PRIu32
		    " items", what, o->via.array.size);
	return 0;
}

static int
get_int(const msgpack_object *o, int64_t min, int64_t max, int64_t *out,
    const char *what)
{
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
		if (o->via.u64 > (uint64_t)INT64_MAX)
			goto range;
		*out = (int64_t)o->via.u64;
	} else if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		*out = o->via.i64;
	else
		return malformed("%s is not an integer",
		    what);
	if (*out >= min && *out <= max)
		return 0;
range:
	return malformed("%s out of range", what);
}

static int
get_u64(const msgpack_object *o, uint64_t *out, const char *what)
{
	if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
		return malformed("%s is not an unsigned "
		    "integer", what);
	*out = o->via.u64;
	return 0;
}

/* A string field; NULL stays NULL only when optional. */
static int
get_str(const msgpack_object *o, bool optional, char **out, const char *what)
{
	if (o->type == MSGPACK_OBJECT_NIL && optional) {
		*out = NULL;
		return 0;
	}
	if (o->type != MSGPACK_OBJECT_STR)
		return malformed("%s is not a string", what);
	if (memchr(o->via.str.ptr, '\0', o->via.str.size))
		return malformed("%s holds a NUL byte",
		    what);
	*out = xmalloc(o->via.str.size + 1);
	memcpy(*out, o->via.str.ptr, o->via.str.size);
	(*out)[o->via.str.size] = '\0';
	return 0;
}

static int
get_i32(const msgpack_object *o, int32_t min, int32_t *out, const char *what)
{
	int64_t v = 0;

	if (get_int(o, min, INT32_MAX, &v, what) == -1)
		return -1;
	*out = (int32_t)v;
	return 0;
}

static int
decode_ready(const msgpack_object *f, struct msg_ready *r)
{
	int64_t slots = 0;

	if (get_str(&f[0], false, &r->worker, "worker") == -1 ||
	    get_int(&f[1], 0, UINT32_MAX, &slots, "slots") == -1)
		return -1;
	r->slots = (uint32_t)slots;
	return 0;
}

static int
decode_seat(const msgpack_object *o, struct msg_seat *s)
{
	const msgpack_object *f = o->via.array.ptr;

	if (want_array(o, 5, 5, "seat") == -1)
		return -1;
	f = o->via.array.ptr;
	if (get_str(&f[0], false, &s->entry, "entry") == -1 ||
	    get_str(&f[1], true, &s->artifact, "artifact") == -1 ||
	    get_str(&f[2], true, &s->folder, "folder") == -1 ||
	    get_str(&f[3], true, &s->build, "build") == -1 ||
	    get_str(&f[4], false, &s->run, "run") == -1)
		return -1;
	if (s->artifact && !artifact_hex_valid(s->artifact))
		return malformed("artifact is not a sha256");
	if (s->artifact == NULL && s->folder == NULL)
		return malformed("seat has neither artifact nor folder");
	return 0;
}

static int
decode_game(const msgpack_object *f, struct msg_game *g)
{
	const msgpack_object *l;
	int64_t clock = 0, ponder = 0;

	if (get_int(&f[0], 1, INT64_MAX, &g->game_id, "game id") == -1 ||
	    get_i32(&f[1], 1, &g->attempt, "attempt") == -1 ||
	    get_str(&f[2], false, &g->game, "game") == -1 ||
	    get_str(&f[3], false, &g->dataset_name, "dataset name") == -1 ||
	    get_str(&f[4], false, &g->dataset, "dataset") == -1 ||
	    get_u64(&f[5], &g->seed, "seed") == -1 ||
	    want_array(&f[6], 6, 6, "limits") == -1)
		return -1;
	l = f[6].via.array.ptr;
	if (get_int(&l[0], 1, INT64_MAX, &g->limits.call_ms, "call_ms") ||
	    get_int(&l[1], 1, INT64_MAX, &g->limits.game_ms, "game_ms") ||
	    get_int(&l[2], 1, INT64_MAX, &g->limits.memory_mb, "memory_mb") ||
	    get_int(&l[3], 1, INT64_MAX, &g->limits.resident_mb,
	    "resident_mb") ||
	    get_int(&l[4], SPEC_CLOCK_WALL, SPEC_CLOCK_CPU, &clock, "clock") ||
	    get_int(&l[5], 0, 1, &ponder, "ponder") ||
	    want_array(&f[7], 1, PROTO_MAX_SEATS, "seats") == -1)
		return -1;
	g->limits.clock = (enum spec_clock)clock;
	g->limits.ponder = ponder == 1;
	for (uint32_t i = 0; i < f[7].via.array.size; i++) {
		g->nseats = i + 1;	/* so msg_release frees what we got */
		if (decode_seat(&f[7].via.array.ptr[i], &g->seats[i]) == -1)
			return -1;
	}
	return 0;
}

static int
decode_seat_result(const msgpack_object *o, struct msg_seat_result *s)
{
	const msgpack_object *f;
	char *code = NULL;
	int rc;

	if (want_array(o, 6, 6, "seat result") == -1)
		return -1;
	f = o->via.array.ptr;
	if (get_int(&f[0], INT64_MIN, INT64_MAX, &s->score, "score") ||
	    get_str(&f[1], false, &code, "verdict") ||
	    get_i32(&f[2], 0, &s->illegal, "illegal") ||
	    get_int(&f[3], 0, INT64_MAX, &s->cpu_ms, "cpu_ms") ||
	    get_int(&f[4], 0, INT64_MAX, &s->wall_ms, "wall_ms") ||
	    get_int(&f[5], 0, INT64_MAX, &s->peak_kb, "peak_kb")) {
		free(code);
		return -1;
	}
	rc = verdict_parse(code, &s->verdict);
	if (rc == -1)
		malformed("unknown verdict '%s'", code);
	free(code);
	return rc;
}

static int
decode_result(const msgpack_object *f, struct msg_result *r)
{
	if (get_int(&f[0], 1, INT64_MAX, &r->game_id, "game id") == -1 ||
	    get_i32(&f[1], 1, &r->attempt, "attempt") == -1 ||
	    want_array(&f[2], 1, PROTO_MAX_SEATS, "seat results") == -1)
		return -1;
	r->nseats = f[2].via.array.size;
	for (uint32_t i = 0; i < r->nseats; i++)
		if (decode_seat_result(&f[2].via.array.ptr[i],
		    &r->seats[i]) == -1)
			return -1;
	if (get_str(&f[3], true, &r->end_reason, "end reason") == -1 ||
	    get_str(&f[4], true, &r->detail, "detail") == -1 ||
	    get_str(&f[5], true, &r->referee, "referee") == -1 ||
	    get_str(&f[6], true, &r->replay, "replay") == -1)
		return -1;
	return 0;
}

static int
get_sha256(const msgpack_object *o, char **out)
{
	if (get_str(o, false, out, "sha256") == -1)
		return -1;
	if (!artifact_hex_valid(*out))
		return malformed("sha256 is not 64 lowercase hex digits");
	return 0;
}

static int
decode_artifact(const msgpack_object *f, struct msg_artifact *a)
{
	if (get_sha256(&f[0], &a->sha256) == -1)
		return -1;
	if (f[1].type == MSGPACK_OBJECT_NIL)
		return 0;
	if (f[1].type != MSGPACK_OBJECT_BIN)
		return malformed("artifact bytes are not a binary");
	if (f[1].via.bin.size > PROTO_MAX_ARTIFACT)
		return malformed("artifact of %" PRIu32 " bytes",
		    f[1].via.bin.size);
	a->len = f[1].via.bin.size;
	a->bytes = xmalloc(a->len ? a->len : 1);
	memcpy(a->bytes, f[1].via.bin.ptr, a->len);
	return 0;
}

/* Number of fields after [version, type] for each type, or -1. */
static int
field_count(int64_t type)
{
	switch (type) {
	case MSG_HEARTBEAT:
	case MSG_BYE:
		return 0;
	case MSG_READY:
		return 2;
	case MSG_GAME:
		return 8;
	case MSG_RESULT:
		return 7;
	case MSG_FETCH:
		return 1;
	case MSG_ARTIFACT:
		return 2;
	default:
		return -1;
	}
}

static int
decode_fields(const msgpack_object *top, struct msg *m)
{
	const msgpack_object *a;
	int64_t version = 0, type = 0;
	int n;

	if (want_array(top, 2, WIRE_MAX_ARRAY, "message") == -1)
		return -1;
	a = top->via.array.ptr;
	if (get_int(&a[0], INT64_MIN, INT64_MAX, &version, "version") == -1 ||
	    get_int(&a[1], INT64_MIN, INT64_MAX, &type, "type") == -1)
		return -1;
	if (version != PROTO_VERSION)
		return malformed("protocol version %" PRId64
		    ", expected %d", version, PROTO_VERSION);
	if ((n = field_count(type)) == -1)
		return malformed("unknown type %" PRId64,
		    type);
	if (top->via.array.size != (uint32_t)n + 2)
		return malformed("type %" PRId64 " with %"
		    PRIu32 " fields, expected %d", type,
		    top->via.array.size - 2, n);
	m->type = (enum msg_type)type;
	switch (m->type) {
	case MSG_READY:
		return decode_ready(a + 2, &m->u.ready);
	case MSG_GAME:
		return decode_game(a + 2, &m->u.game);
	case MSG_RESULT:
		return decode_result(a + 2, &m->u.result);
	case MSG_FETCH:
		return get_sha256(&a[2], &m->u.fetch.sha256);
	case MSG_ARTIFACT:
		return decode_artifact(a + 2, &m->u.artifact);
	default:
		return 0;
	}
}

/* wire_decode without the log line: the reason is in bad_reason. */
static int
decode(const void *buf, size_t len, struct msg *m)
{
	msgpack_unpacked up;
	size_t off = 0;
	int rc = -1;

	memset(m, 0, sizeof *m);
	m->type = MSG_HEARTBEAT;	/* owns nothing until decoded */
	if (len > PROTO_MAX_MESSAGE)
		return malformed("%zu bytes", len);
	if (walk(buf, len, &off, 0) == -1)
		return -1;
	if (off != len)
		return malformed("%zu bytes after the end",
		    len - off);
	msgpack_unpacked_init(&up);
	off = 0;
	if (msgpack_unpack_next(&up, buf, len, &off) != MSGPACK_UNPACK_SUCCESS)
		malformed("not msgpack");
	else
		rc = decode_fields(&up.data, m);
	msgpack_unpacked_destroy(&up);
	if (rc == -1) {
		msg_release(m);
		m->type = MSG_HEARTBEAT;
	}
	return rc;
}

int
wire_decode(const void *buf, size_t len, struct msg *m)
{
	if (decode(buf, len, m) == -1)
		return log_error("malformed message: %s", bad_reason);
	return 0;
}

void
msg_release(struct msg *m)
{
	switch (m->type) {
	case MSG_READY:
		free(m->u.ready.worker);
		break;
	case MSG_GAME:
		free(m->u.game.game);
		free(m->u.game.dataset_name);
		free(m->u.game.dataset);
		for (uint32_t i = 0; i < m->u.game.nseats &&
		    i < PROTO_MAX_SEATS; i++) {
			free(m->u.game.seats[i].entry);
			free(m->u.game.seats[i].artifact);
			free(m->u.game.seats[i].folder);
			free(m->u.game.seats[i].build);
			free(m->u.game.seats[i].run);
		}
		break;
	case MSG_RESULT:
		free(m->u.result.end_reason);
		free(m->u.result.detail);
		free(m->u.result.referee);
		free(m->u.result.replay);
		break;
	case MSG_FETCH:
		free(m->u.fetch.sha256);
		break;
	case MSG_ARTIFACT:
		free(m->u.artifact.sha256);
		free(m->u.artifact.bytes);
		break;
	default:
		break;
	}
	memset(&m->u, 0, sizeof m->u);
}
