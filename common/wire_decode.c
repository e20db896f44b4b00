/*
 * wire_decode: bytes to messages, refusing anything else. Decoding runs
 * in two passes. First a small walker checks the raw bytes against what
 * our messages can contain: no maps, floats or extensions, arrays of at
 * most WIRE_MAX_ARRAY items, nesting at most WIRE_MAX_DEPTH, every length
 * inside the buffer. Only then does msgpack-c build objects, so a hostile
 * frame cannot make it allocate memory in proportion to a length it
 * merely claims. The second pass checks each field's type, count and
 * range while copying it out.
 */
#include "common/wire.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "common/artifact.h"
#include "common/log.h"

#define WIRE_MAX_ARRAY 16
#define WIRE_MAX_DEPTH 4

/* Why decode refused the last frame. It only records it: wire_decode logs
 * it, wire_recv logs it with the sender at a bounded rate. */
static char bad_reason[160];

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

/* Each (game, attempt) as decode_result checks them. */
static int
decode_ack(const msgpack_object *f, struct msg_ack *a)
{
	const unsigned char *p;

	if (f->type != MSGPACK_OBJECT_BIN)
		return malformed("ACK ids are not a binary");
	if (f->via.bin.size % 12 || f->via.bin.size / 12 > PROTO_MAX_ACK)
		return malformed("ACK ids of %" PRIu32 " bytes",
		    f->via.bin.size);
	p = (const unsigned char *)f->via.bin.ptr;
	a->n = f->via.bin.size / 12;
	a->game_ids = xcalloc(a->n + 1, sizeof *a->game_ids);
	a->attempts = xcalloc(a->n + 1, sizeof *a->attempts);
	for (uint32_t i = 0; i < a->n; i++, p += 12) {
		uint64_t id = be(p, 8), att = be(p + 8, 4);

		if (id < 1 || id > INT64_MAX || att < 1 || att > INT32_MAX)
			return malformed("ACK %u out of range", i);
		a->game_ids[i] = (int64_t)id;
		a->attempts[i] = (int32_t)att;
	}
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
	case MSG_ACK:
		return 1;
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
	case MSG_ACK:
		return decode_ack(&a[2], &m->u.ack);
	default:
		return 0;
	}
}

int
wire_decode_quiet(const void *buf, size_t len, struct msg *m,
    const char **why)
{
	msgpack_unpacked up;
	size_t off = 0;
	int rc = -1;

	*why = bad_reason;
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
	const char *why;

	if (wire_decode_quiet(buf, len, m, &why) == -1)
		return log_error("malformed message: %s", why);
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
	case MSG_ACK:
		free(m->u.ack.game_ids);
		free(m->u.ack.attempts);
		break;
	default:
		break;
	}
	memset(&m->u, 0, sizeof m->u);
}

