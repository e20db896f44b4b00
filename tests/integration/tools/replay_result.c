/*
 * replay_result: a listed worker gone bad, for tests/integration. It
 * connects to a coordinator over CURVE with a listed worker's key and,
 * never saying READY (so it is given no game to hold), does one of
 *
 *	result GAME ATTEMPT N	sends N copies of a made-up RESULT for that
 *				game attempt (seat A wins 999 to 0, every
 *				seat OK): a coordinator records it at most
 *				once, and only while the game is running at
 *				that attempt;
 *	junk			sends what no decoder may accept: random
 *				frames, a RESULT truncated at every length
 *				and with single bytes changed, well-formed
 *				messages the coordinator never takes (GAME,
 *				BYE, another protocol version), RESULTs for
 *				games that do not exist, multi-part, empty
 *				and oversized frames;
 *
 * then lets the frames go out and exits 0. The junk is sent over raw
 * ZeroMQ, since wire.c rightly refuses to send most of it; the made-up
 * RESULTs go through wire.c, exactly as a worker would send them.
 *
 * usage: replay_result ENDPOINT KEY SERVER_PUB result GAME ATTEMPT N
 *        replay_result ENDPOINT KEY SERVER_PUB junk
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zmq.h>

#include "common/log.h"
#include "common/proto.h"
#include "common/wire.h"

/* Games no tournament has: the junk built from a RESULT names them, so a
 * changed byte cannot turn it into a result for a real game. */
#define JUNK_GAME_ID (INT64_C(1) << 40)
#define JUNK_ATTEMPT (1 << 20)

static void
made_up_result(struct msg *m, int64_t game_id, int32_t attempt,
    uint32_t nseats)
{
	struct msg_result *r = &m->u.result;

	memset(m, 0, sizeof *m);
	m->type = MSG_RESULT;
	r->game_id = game_id;
	r->attempt = attempt;
	r->nseats = nseats;
	for (uint32_t i = 0; i < nseats; i++) {
		r->seats[i].score = i == 0 ? 999 : 0;
		r->seats[i].verdict = VERDICT_OK;
	}
	r->end_reason = "replayed";
	r->detail = "sent by tests/integration/tools/replay_result";
	r->referee = "replay_result";
	r->replay = "";
}

/* Waits long enough for a CURVE handshake and the frames queued behind
 * it to reach the coordinator before the socket goes. */
static void
let_out(void)
{
	sleep(2);
}

static int
send_results(const char *endpoint, const struct wire_keys *keys,
    const char *server_key, int64_t game_id, int32_t attempt, long copies)
{
	struct wire *w = wire_connect_curve(endpoint, keys, server_key);
	struct msg m;
	int rc = 0;

	if (w == NULL)
		return -1;
	made_up_result(&m, game_id, attempt, 2);
	for (long i = 0; i < copies; i++) {
		if (wire_send(w, NULL, &m) == -1)
			rc = -1;
		usleep(200000);
	}
	let_out();
	wire_free(w);
	return rc;
}

/* --- junk, over raw ZeroMQ --- */

static void
send_frame(void *s, const void *buf, size_t len, int flags)
{
	/* Waits for room in the queue (ZMQ_SNDTIMEO bounds it), so all of
	 * it reaches the coordinator. */
	zmq_send(s, buf, len, flags);
}

static void
send_msg(void *s, const struct msg *m)
{
	char *buf;
	size_t len;

	if (wire_encode(m, &buf, &len) == 0) {
		send_frame(s, buf, len, 0);
		free(buf);
	}
}

static void
junk_random(void *s)
{
	unsigned char buf[512];

	for (int i = 0; i < 600; i++) {
		size_t n = (size_t)rand() % sizeof buf;

		for (size_t j = 0; j < n; j++)
			buf[j] = (unsigned char)rand();
		if (n > 0 && i % 3 == 0)	/* a msgpack array, as ours */
			buf[0] = (unsigned char)(0x90 + i % 16);
		if (i % 10 == 1)
			send_frame(s, buf, n, ZMQ_SNDMORE);
		send_frame(s, buf, i % 7 == 0 ? 0 : n, 0);
		if (i % 100 == 0)
			usleep(50000);
	}
}

/* Every prefix of a valid RESULT, and the whole with one byte changed. */
static void
junk_mutated(void *s)
{
	struct msg m;
	char *buf;
	size_t len;

	made_up_result(&m, JUNK_GAME_ID, JUNK_ATTEMPT, 2);
	if (wire_encode(&m, &buf, &len) == -1)
		return;
	for (size_t n = 0; n < len; n++)
		send_frame(s, buf, n, 0);
	for (int i = 0; i < 400; i++) {
		size_t at = (size_t)rand() % len;
		char was = buf[at];

		buf[at] = (char)rand();
		send_frame(s, buf, len, 0);
		buf[at] = was;
	}
	free(buf);
}

/* Well-formed messages the coordinator must refuse or find no game for. */
static void
junk_wellformed(void *s)
{
	struct msg m;
	char *buf;
	size_t len;

	memset(&m, 0, sizeof m);
	m.type = MSG_BYE;
	send_msg(s, &m);
	m.type = MSG_GAME;
	m.u.game.game_id = 1;
	m.u.game.attempt = 1;
	m.u.game.game = "dreamcity";
	m.u.game.dataset_name = "x.dc";
	m.u.game.dataset = "";
	m.u.game.limits = (struct spec_limits){ .call_ms = 1, .game_ms = 1,
	    .memory_mb = 1, .resident_mb = 1 };
	m.u.game.nseats = 1;
	m.u.game.seats[0] = (struct msg_seat){ .entry = "x", .run = "x" };
	send_msg(s, &m);
	/* No such games; and one seat, and every seat a table may have. */
	made_up_result(&m, JUNK_GAME_ID, 1, 1);
	send_msg(s, &m);
	made_up_result(&m, JUNK_GAME_ID + 1, 1, PROTO_MAX_SEATS);
	send_msg(s, &m);
	made_up_result(&m, INT64_MAX, INT32_MAX, 2);
	send_msg(s, &m);
	/* Another protocol version: the second byte is PROTO_VERSION. */
	made_up_result(&m, JUNK_GAME_ID, JUNK_ATTEMPT, 2);
	if (wire_encode(&m, &buf, &len) == 0) {
		buf[1] = (char)(PROTO_VERSION + 1);
		send_frame(s, buf, len, 0);
		free(buf);
	}
}

static int
send_junk(const char *endpoint, const struct wire_keys *keys,
    const char *server_key)
{
	static char big[PROTO_MAX_MESSAGE + 1024];
	void *ctx = zmq_ctx_new(), *s;
	int linger = 1000, timeout = 2000;

	if (ctx == NULL || (s = zmq_socket(ctx, ZMQ_DEALER)) == NULL)
		return log_error("cannot make a ZeroMQ socket");
	zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
	zmq_setsockopt(s, ZMQ_SNDTIMEO, &timeout, sizeof timeout);
	if (zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, server_key, 41) ||
	    zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, keys->public_key, 41) ||
	    zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, keys->secret_key, 41) ||
	    zmq_connect(s, endpoint)) {
		zmq_close(s);
		zmq_ctx_term(ctx);
		return log_error("cannot connect to '%s': %s", endpoint,
		    zmq_strerror(zmq_errno()));
	}
	srand(42);
	sleep(1);		/* the handshake, so frames are not dropped */
	junk_random(s);
	junk_mutated(s);
	junk_wellformed(s);
	let_out();
	/* Last, as the coordinator cuts a peer that sends one this big. */
	send_frame(s, big, sizeof big, 0);
	let_out();
	zmq_close(s);
	zmq_ctx_term(ctx);
	return 0;
}

static int
usage(void)
{
	fprintf(stderr, "usage: replay_result ENDPOINT KEY SERVER_PUB "
	    "result GAME ATTEMPT N\n"
	    "       replay_result ENDPOINT KEY SERVER_PUB junk\n");
	return 2;
}

int
main(int argc, char **argv)
{
	struct wire_keys keys, server;
	int rc;

	log_init("replay_result", false);
	if (argc < 5)
		return usage();
	if (wire_keys_read(argv[2], true, &keys) == -1 ||
	    wire_keys_read(argv[3], false, &server) == -1)
		return 1;
	if (strcmp(argv[4], "result") == 0 && argc == 8)
		rc = send_results(argv[1], &keys, server.public_key,
		    strtoll(argv[5], NULL, 10), (int32_t)atol(argv[6]),
		    atol(argv[7]));
	else if (strcmp(argv[4], "junk") == 0 && argc == 5)
		rc = send_junk(argv[1], &keys, server.public_key);
	else
		return usage();
	return rc == 0 ? 0 : 1;
}
