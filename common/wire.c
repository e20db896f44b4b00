/*
 * wire: the transport, the only libzmq user: sockets (plain or CURVE, with
 * the ZAP handler that lets in listed keys), one frame per message, and
 * hostile peers logged at a bounded rate. What a frame holds is
 * wire_encode.c's and wire_decode.c's business, the only msgpack users.
 */
#include "common/wire.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zmq.h>

#include "common/clock.h"
#include "common/log.h"

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
	const char *why;
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
	else if (wire_decode_quiet(zmq_msg_data(&f), zmq_msg_size(&f), m,
	    &why) == -1)
		drop_log(w, "dropped a malformed message from %s: %s",
		    sender(from, who, sizeof who), why);
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

