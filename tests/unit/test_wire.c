/* Unit tests for common/wire: every message round-trips through bytes and
 * through real sockets; malformed, truncated and random bytes are refused
 * without a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "common/log.h"
#include "common/wire.h"

#define SHA_A "0123456789abcdef0123456789abcdef" \
	"0123456789abcdef0123456789abcdef"

static void
fill_game(struct msg *m, uint32_t nseats)
{
	struct msg_game *g = &m->u.game;

	memset(m, 0, sizeof *m);
	m->type = MSG_GAME;
	g->game_id = 1234567890123LL;
	g->attempt = 3;
	g->game = xstrdup("dreamcity");
	g->dataset_name = xstrdup("map1.txt");
	g->dataset = xstrdup("3 3\n...\n.#.\n...\n");
	g->seed = UINT64_MAX - 5;
	g->limits = (struct spec_limits){ .call_ms = 1000, .game_ms = 30000,
	    .memory_mb = 512, .resident_mb = 256, .clock = SPEC_CLOCK_CPU,
	    .ponder = true };
	g->nseats = nseats;
	for (uint32_t i = 0; i < nseats; i++) {
		g->seats[i].entry = xstrdup("e");
		g->seats[i].folder = xstrdup("f");
		g->seats[i].artifact = i == 0 ? xstrdup(SHA_A) : NULL;
		g->seats[i].build = NULL;
		g->seats[i].run = xstrdup("r");
	}
	if (nseats > 1) {
		free(g->seats[1].build);
		g->seats[1].build = xstrdup("make");
	}
}

static void
fill_result(struct msg *m)
{
	struct msg_result *r = &m->u.result;

	memset(m, 0, sizeof *m);
	m->type = MSG_RESULT;
	r->game_id = 77;
	r->attempt = 1;
	r->nseats = 2;
	r->seats[0] = (struct msg_seat_result){ -15, VERDICT_TO, 0, 120,
	    1001, 4096 };
	r->seats[1] = (struct msg_seat_result){ 40, VERDICT_WA, 2, 33, 50,
	    2048 };
	r->end_reason = xstrdup("TO");
	r->detail = xstrdup("seat A (x): no answer");
	r->referee = xstrdup("dreamcity 1.0");
	r->replay = NULL;
}

static void
round_trip(const struct msg *m, struct msg *back)
{
	char *buf;
	size_t len;

	assert_int_equal(wire_encode(m, &buf, &len), 0);
	assert_int_equal(wire_decode(buf, len, back), 0);
	assert_int_equal(back->type, m->type);
	free(buf);
}

static void
test_round_trip_small(void **state)
{
	struct msg m = { .type = MSG_HEARTBEAT }, back;

	(void)state;
	round_trip(&m, &back);
	m.type = MSG_BYE;
	round_trip(&m, &back);
	m.type = MSG_READY;
	m.u.ready.worker = xstrdup("host:42");
	m.u.ready.slots = UINT32_MAX;
	round_trip(&m, &back);
	assert_string_equal(back.u.ready.worker, "host:42");
	assert_int_equal(back.u.ready.slots, UINT32_MAX);
	msg_release(&back);
	msg_release(&m);
}

static void
test_round_trip_game(void **state)
{
	struct msg m, back;
	struct msg_game *g = &back.u.game;

	(void)state;
	fill_game(&m, 2);
	round_trip(&m, &back);
	assert_true(g->game_id == 1234567890123LL);
	assert_int_equal(g->attempt, 3);
	assert_string_equal(g->game, "dreamcity");
	assert_string_equal(g->dataset_name, "map1.txt");
	assert_string_equal(g->dataset, m.u.game.dataset);
	assert_true(g->seed == UINT64_MAX - 5);
	assert_int_equal(g->limits.call_ms, 1000);
	assert_int_equal(g->limits.game_ms, 30000);
	assert_int_equal(g->limits.memory_mb, 512);
	assert_int_equal(g->limits.resident_mb, 256);
	assert_int_equal(g->limits.clock, SPEC_CLOCK_CPU);
	assert_true(g->limits.ponder);
	assert_int_equal(g->nseats, 2);
	assert_null(g->seats[0].build);
	assert_string_equal(g->seats[1].build, "make");
	assert_string_equal(g->seats[1].run, "r");
	assert_string_equal(g->seats[0].artifact, SHA_A);
	assert_null(g->seats[1].artifact);
	assert_string_equal(g->seats[1].folder, "f");
	msg_release(&back);
	msg_release(&m);
}

static void refuse(const void *bytes, size_t len);

static void
test_round_trip_artifacts(void **state)
{
	struct msg m = { .type = MSG_FETCH }, back;
	char *bytes = xmalloc(PROTO_MAX_ARTIFACT);
	char *buf;
	size_t len;

	(void)state;
	m.u.fetch.sha256 = xstrdup(SHA_A);
	round_trip(&m, &back);
	assert_string_equal(back.u.fetch.sha256, SHA_A);
	msg_release(&back);
	/* Not a sha256: refused both ways round. */
	m.u.fetch.sha256[0] = 'A';
	assert_int_equal(wire_encode(&m, &buf, &len), 0);
	assert_int_equal(wire_decode(buf, len, &back), -1);
	free(buf);
	msg_release(&m);

	/* The largest artifact, with every byte value and NULs. */
	for (size_t i = 0; i < PROTO_MAX_ARTIFACT; i++)
		bytes[i] = (char)(i * 7 + i / 251);
	m.type = MSG_ARTIFACT;
	m.u.artifact.sha256 = xstrdup(SHA_A);
	m.u.artifact.bytes = bytes;
	m.u.artifact.len = PROTO_MAX_ARTIFACT;
	round_trip(&m, &back);
	assert_string_equal(back.u.artifact.sha256, SHA_A);
	assert_int_equal(back.u.artifact.len, PROTO_MAX_ARTIFACT);
	assert_memory_equal(back.u.artifact.bytes, bytes, PROTO_MAX_ARTIFACT);
	msg_release(&back);
	/* One byte more cannot be sent. */
	m.u.artifact.len = PROTO_MAX_ARTIFACT + 1;
	m.u.artifact.bytes = xrealloc(m.u.artifact.bytes, m.u.artifact.len);
	assert_int_equal(wire_encode(&m, &buf, &len), -1);
	/* "None here": no bytes. */
	free(m.u.artifact.bytes);
	m.u.artifact.bytes = NULL;
	m.u.artifact.len = 0;
	round_trip(&m, &back);
	assert_null(back.u.artifact.bytes);
	msg_release(&back);
	/* Empty but present. */
	m.u.artifact.bytes = xstrdup("");
	round_trip(&m, &back);
	assert_non_null(back.u.artifact.bytes);
	assert_int_equal(back.u.artifact.len, 0);
	msg_release(&back);
	msg_release(&m);
}

static void
test_artifact_refusals(void **state)
{
	/* [2, 202, "ab", bin "x"]: a short hash. */
	static const unsigned char shorthash[] = { 0x94, PROTO_VERSION, 0xcc, 0xca,
	    0xa2, 'a', 'b', 0xc4, 0x01, 'x' };
	/* [2, 102, bin ...]: a hash as bytes, not text. */
	static const unsigned char binhash[] = { 0x93, PROTO_VERSION, 0x66, 0xc4, 0x01,
	    'x' };
	/* A bin whose claimed length runs past the end. */
	static const unsigned char trunc[] = { 0x94, PROTO_VERSION, 0xcc, 0xca, 0xc0,
	    0xc6, 0x7f, 0xff, 0xff, 0xff };
	/* A seat with neither artifact nor folder. */
	struct msg m;
	char *buf;
	size_t len;

	(void)state;
	refuse(shorthash, sizeof shorthash);
	refuse(binhash, sizeof binhash);
	refuse(trunc, sizeof trunc);
	fill_game(&m, 2);
	free(m.u.game.seats[1].folder);
	m.u.game.seats[1].folder = NULL;
	assert_int_equal(wire_encode(&m, &buf, &len), 0);
	refuse(buf, len);
	free(buf);
	msg_release(&m);
}

static void
test_round_trip_result(void **state)
{
	struct msg m, back;
	struct msg_result *r = &back.u.result;

	(void)state;
	fill_result(&m);
	round_trip(&m, &back);
	assert_int_equal(r->game_id, 77);
	assert_int_equal(r->nseats, 2);
	assert_int_equal(r->seats[0].score, -15);
	assert_int_equal(r->seats[0].verdict, VERDICT_TO);
	assert_int_equal(r->seats[1].verdict, VERDICT_WA);
	assert_int_equal(r->seats[1].illegal, 2);
	assert_int_equal(r->seats[0].wall_ms, 1001);
	assert_int_equal(r->seats[0].peak_kb, 4096);
	assert_string_equal(r->end_reason, "TO");
	assert_string_equal(r->referee, "dreamcity 1.0");
	assert_null(r->replay);
	msg_release(&back);
	msg_release(&m);
}

static void
refuse(const void *bytes, size_t len)
{
	struct msg m;

	assert_int_equal(wire_decode(bytes, len, &m), -1);
	msg_release(&m);	/* harmless after a refusal */
}

static void
test_round_trip_ack(void **state)
{
	struct msg m = { .type = MSG_ACK }, back;
	struct msg_ack *a = &m.u.ack;
	char *buf;
	size_t len;

	(void)state;
	a->game_ids = xcalloc(PROTO_MAX_ACK + 1, sizeof *a->game_ids);
	a->attempts = xcalloc(PROTO_MAX_ACK + 1, sizeof *a->attempts);
	for (uint32_t i = 0; i < PROTO_MAX_ACK + 1; i++) {
		a->game_ids[i] = i == 0 ? INT64_MAX : (int64_t)i * 1000003;
		a->attempts[i] = i == 0 ? INT32_MAX : (int32_t)(i % 7 + 1);
	}
	/* The largest ACK, extremes first. */
	a->n = PROTO_MAX_ACK;
	round_trip(&m, &back);
	assert_int_equal(back.u.ack.n, PROTO_MAX_ACK);
	assert_memory_equal(back.u.ack.game_ids, a->game_ids,
	    PROTO_MAX_ACK * sizeof *a->game_ids);
	assert_memory_equal(back.u.ack.attempts, a->attempts,
	    PROTO_MAX_ACK * sizeof *a->attempts);
	msg_release(&back);
	/* One more cannot be sent; none can. */
	a->n = PROTO_MAX_ACK + 1;
	assert_int_equal(wire_encode(&m, &buf, &len), -1);
	a->n = 0;
	round_trip(&m, &back);
	assert_int_equal(back.u.ack.n, 0);
	msg_release(&back);
	msg_release(&m);
}

static void
test_ack_refusals(void **state)
{
	/* [2, 203, bin of 12 bytes]: game 1, attempt 1. */
	unsigned char ok[] = { 0x93, PROTO_VERSION, 0xcc, 0xcb, 0xc4, 0x0c,
	    0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1 };
	/* 11 bytes: not a whole (game, attempt). */
	static const unsigned char odd[] = { 0x93, PROTO_VERSION, 0xcc, 0xcb, 0xc4,
	    0x0b, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 };
	/* The ids as a string, not a bin. */
	static const unsigned char str[] = { 0x93, PROTO_VERSION, 0xcc, 0xcb, 0xa1,
	    'x' };
	struct msg m;

	(void)state;
	assert_int_equal(wire_decode(ok, sizeof ok, &m), 0);
	assert_int_equal(m.u.ack.n, 1);
	assert_int_equal(m.u.ack.game_ids[0], 1);
	assert_int_equal(m.u.ack.attempts[0], 1);
	msg_release(&m);
	refuse(odd, sizeof odd);
	refuse(str, sizeof str);
	/* Game 0, attempt 0, a game id over INT64_MAX: out of range. */
	ok[13] = 0;
	refuse(ok, sizeof ok);
	ok[13] = 1;
	ok[17] = 0;
	refuse(ok, sizeof ok);
	ok[17] = 1;
	ok[6] = 0x80;
	refuse(ok, sizeof ok);
}

static void
test_refusals(void **state)
{
	static const unsigned char ok[] = { 0x92, PROTO_VERSION, 0x01 };
	static const unsigned char version[] = { 0x92, 0x01, 0x01 };
	static const unsigned char type[] = { 0x92, 0x01, 0x07 };
	static const unsigned char count[] = { 0x93, PROTO_VERSION, 0x01, 0x01 };
	static const unsigned char ftype[] = { 0x94, PROTO_VERSION, 0xcc, 0x64, 0x05,
	    0x01 };
	static const unsigned char nul[] = { 0x94, PROTO_VERSION, 0x64, 0xa3, 'a', 0,
	    'b', 0x01 };
	static const unsigned char neg[] = { 0x94, PROTO_VERSION, 0x64, 0xa1, 'a',
	    0xff };
	static const unsigned char map[] = { 0x81, 0x01, 0x01 };
	static const unsigned char trail[] = { 0x92, PROTO_VERSION, 0x01, 0x00 };
	static const unsigned char huge[] = { 0xdd, 0xff, 0xff, 0xff, 0xff };
	static const unsigned char hugestr[] = { 0xdb, 0xff, 0xff, 0xff, 0xf0 };
	static const unsigned char flt[] = { 0x92, PROTO_VERSION, 0xca, 0, 0, 0, 0 };
	struct msg m;

	(void)state;
	assert_int_equal(wire_decode(ok, sizeof ok, &m), 0);
	assert_int_equal(m.type, MSG_HEARTBEAT);
	refuse(version, sizeof version);
	refuse(type, sizeof type);
	refuse(count, sizeof count);
	refuse(ftype, sizeof ftype);
	refuse(nul, sizeof nul);
	refuse(neg, sizeof neg);
	refuse(map, sizeof map);
	refuse(trail, sizeof trail);
	refuse(huge, sizeof huge);
	refuse(hugestr, sizeof hugestr);
	refuse(flt, sizeof flt);
	refuse("", 0);
	/* Too big to even look at. */
	refuse(ok, (size_t)PROTO_MAX_MESSAGE + 1);
}

static void
test_too_many_seats(void **state)
{
	static const unsigned char seat[] = { 0x95, 0xa1, 'e', 0xc0, 0xa1,
	    'f', 0xc0, 0xa1, 'r' };
	struct msg m, back;
	char *buf;
	size_t len;

	(void)state;
	fill_game(&m, PROTO_MAX_SEATS);
	free(m.u.game.seats[1].build);
	m.u.game.seats[1].build = NULL;
	free(m.u.game.seats[0].artifact);
	m.u.game.seats[0].artifact = NULL;
	assert_int_equal(wire_encode(&m, &buf, &len), 0);
	assert_int_equal(wire_decode(buf, len, &back), 0);
	msg_release(&back);
	/* Patch the seats array (the last field) to hold one more seat. */
	assert_int_equal((unsigned char)buf[len - 9 * PROTO_MAX_SEATS - 1],
	    0x90 + PROTO_MAX_SEATS);
	buf = xrealloc(buf, len + sizeof seat);
	buf[len - 9 * PROTO_MAX_SEATS - 1]++;
	memcpy(buf + len, seat, sizeof seat);
	refuse(buf, len + sizeof seat);
	free(buf);
	m.u.game.nseats = PROTO_MAX_SEATS + 1;
	assert_int_equal(wire_encode(&m, &buf, &len), -1);
	m.u.game.nseats = PROTO_MAX_SEATS;
	msg_release(&m);
}

/* Tens of thousands of refusals would each log a line. */
static void
quiet(bool on)
{
	static int saved = -1;

	fflush(stderr);
	if (on) {
		saved = dup(2);
		freopen("/dev/null", "w", stderr);
	} else {
		dup2(saved, 2);
		close(saved);
	}
}

/* Every truncation and many byte flips of valid messages, then random
 * buffers: decode must refuse or succeed, never crash or leak. */
static void
test_fuzz(void **state)
{
	struct msg m[2], back;
	unsigned seed = 12345;
	char *buf, rnd[64];
	size_t len;

	(void)state;
	quiet(true);
	fill_game(&m[0], 3);
	fill_result(&m[1]);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(wire_encode(&m[k], &buf, &len), 0);
		for (size_t cut = 0; cut < len; cut++)
			refuse(buf, cut);
		for (int i = 0; i < 5000; i++) {
			char *copy = xmalloc(len);
			size_t at = (size_t)rand_r(&seed) % len;

			memcpy(copy, buf, len);
			copy[at] = (char)rand_r(&seed);
			if (wire_decode(copy, len, &back) == 0)
				msg_release(&back);
			free(copy);
		}
		free(buf);
		msg_release(&m[k]);
	}
	for (int i = 0; i < 20000; i++) {
		size_t n = (size_t)rand_r(&seed) % sizeof rnd;

		for (size_t j = 0; j < n; j++)
			rnd[j] = (char)rand_r(&seed);
		if (i % 2)
			rnd[0] = (char)(0x90 | (rand_r(&seed) % 10));
		if (wire_decode(rnd, n, &back) == 0)
			msg_release(&back);
	}
	quiet(false);
}

/* Waits for one message on w, up to two seconds. */
static int
recv_wait(struct wire *w, struct wire_peer *from, struct msg *m)
{
	bool readable;
	int rc;

	for (int i = 0; i < 40; i++) {
		if ((rc = wire_recv(w, from, m)) != 0)
			return rc;
		wire_poll(w, NULL, 0, 50, &readable);
	}
	return 0;
}

static void
test_sockets(void **state)
{
	char endpoint[64];
	struct wire *router, *dealer;
	struct wire_peer peer;
	struct msg m, back;
	int fds[2];
	struct pollfd p;
	bool readable;

	(void)state;
	snprintf(endpoint, sizeof endpoint, "ipc:///tmp/arena-test-wire-%d",
	    (int)getpid());
	assert_non_null(router = wire_bind(endpoint));
	assert_non_null(dealer = wire_connect(endpoint));
	m.type = MSG_READY;
	m.u.ready.worker = xstrdup("w1");
	m.u.ready.slots = 2;
	assert_int_equal(wire_send(dealer, NULL, &m), 0);
	msg_release(&m);
	assert_int_equal(recv_wait(router, &peer, &back), 1);
	assert_int_equal(back.type, MSG_READY);
	assert_string_equal(back.u.ready.worker, "w1");
	assert_true(peer.len > 0);
	msg_release(&back);
	fill_game(&m, 2);
	assert_int_equal(wire_send(router, &peer, &m), 0);
	msg_release(&m);
	assert_int_equal(recv_wait(dealer, NULL, &back), 1);
	assert_int_equal(back.type, MSG_GAME);
	assert_int_equal(back.u.game.nseats, 2);
	msg_release(&back);
	/* A peer that never connected cannot be sent to. */
	peer.id[0] ^= 0xff;
	m.type = MSG_BYE;
	assert_int_equal(wire_send(router, &peer, &m), -1);
	/* Extra descriptors wake the poll too. */
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], "x", 1), 1);
	p = (struct pollfd){ .fd = fds[0], .events = POLLIN };
	assert_true(wire_poll(dealer, &p, 1, 1000, &readable) >= 1);
	assert_true(p.revents & POLLIN);
	assert_false(readable);
	close(fds[0]);
	close(fds[1]);
	wire_free(dealer);
	wire_free(router);
	wire_free(NULL);
	unlink(endpoint + strlen("ipc://"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_small),
		cmocka_unit_test(test_round_trip_game),
		cmocka_unit_test(test_round_trip_result),
		cmocka_unit_test(test_round_trip_artifacts),
		cmocka_unit_test(test_artifact_refusals),
		cmocka_unit_test(test_round_trip_ack),
		cmocka_unit_test(test_ack_refusals),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_too_many_seats),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_sockets),
	};

	log_init("test", false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
