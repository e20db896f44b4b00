/*
 * wire_encode: messages to bytes. Every message is one frame, a msgpack
 * array [PROTO_VERSION, type, fields...]; nested records (limits, seats,
 * seat results) are arrays too, and optional strings are nil. An
 * artifact's bytes and an ACK's ids are the msgpack bins.
 */
#include "common/wire.h"

#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "common/log.h"

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

static void
put_be(char *p, uint64_t v, int n)
{
	for (int i = n; i-- > 0; v >>= 8)
		p[i] = (char)(v & 0xff);
}

static void
pack_ack(msgpack_packer *pk, const struct msg_ack *a)
{
	char *bin = xmalloc(a->n * 12 + 1);

	for (uint32_t i = 0; i < a->n; i++) {
		put_be(bin + i * 12, (uint64_t)a->game_ids[i], 8);
		put_be(bin + i * 12 + 8, (uint32_t)a->attempts[i], 4);
	}
	msgpack_pack_array(pk, 3);
	msgpack_pack_int64(pk, PROTO_VERSION);
	msgpack_pack_int64(pk, MSG_ACK);
	msgpack_pack_bin(pk, a->n * 12);
	msgpack_pack_bin_body(pk, bin, a->n * 12);
	free(bin);
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
	if (m->type == MSG_ACK && m->u.ack.n > PROTO_MAX_ACK)
		return log_error("cannot send an ACK of %u results, over %d",
		    m->u.ack.n, PROTO_MAX_ACK);
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
	case MSG_ACK:
		pack_ack(&pk, &m->u.ack);
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

