/* Unit tests for the CURVE half of common/wire: key files round-trip and
 * refuse what is not a key; over real sockets a listed worker talks, an
 * unlisted one or one with the wrong coordinator key never gets a
 * message through, and neither does a plain one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/wire.h"

static char dir[] = "/tmp/arena-test-wire-curve.XXXXXX";

static char *
path(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void
write_text(const char *name, const char *text)
{
	char *p = path(name);
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(p);
}

static void
test_keygen_round_trip(void **state)
{
	struct wire_keys k, back;
	char *base = path("w1"), *key = path("w1.key"), *pub = path("w1.pub");
	struct stat st;

	(void)state;
	assert_int_equal(wire_keys_generate(&k), 0);
	assert_int_equal(strlen(k.public_key), 40);
	assert_int_equal(strlen(k.secret_key), 40);
	assert_int_equal(wire_keys_write(base, &k), 0);
	assert_int_equal(stat(key, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(wire_keys_read(key, true, &back), 0);
	assert_string_equal(back.public_key, k.public_key);
	assert_string_equal(back.secret_key, k.secret_key);
	assert_int_equal(wire_keys_read(pub, false, &back), 0);
	assert_string_equal(back.public_key, k.public_key);
	assert_string_equal(back.secret_key, "");
	/* A .pub where a .key is needed, and no overwriting. */
	assert_int_equal(wire_keys_read(pub, true, &back), -1);
	assert_int_equal(wire_keys_write(base, &k), -1);
	free(base);
	free(key);
	free(pub);
}

static void
test_bad_key_files(void **state)
{
	struct wire_keys a, b, back;
	char *text, *p;

	(void)state;
	assert_int_equal(wire_keys_generate(&a), 0);
	assert_int_equal(wire_keys_generate(&b), 0);
	/* Halves of two different pairs. */
	text = xasprintf("public %s\nsecret %s\n", a.public_key, b.secret_key);
	write_text("mixed.key", text);
	free(text);
	p = path("mixed.key");
	assert_int_equal(wire_keys_read(p, true, &back), -1);
	free(p);
	write_text("short.pub", "public abc\n");
	write_text("word.pub",
	    "publik 0123456789012345678901234567890123456789\n");
	write_text("empty.pub", "# nothing\n");
	text = xasprintf("public %s\npublic %s\n", a.public_key, b.public_key);
	write_text("twice.pub", text);
	free(text);
	/* Forty characters, but not Z85 ('"' is outside its alphabet). */
	write_text("z85.pub",
	    "public \"123456789012345678901234567890123456789\n");
	const char *bad[] = { "short.pub", "word.pub", "empty.pub", "twice.pub",
	    "z85.pub", "missing.pub" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		p = path(bad[i]);
		assert_int_equal(wire_keys_read(p, false, &back), -1);
		free(p);
	}
}

/* Waits for one message on w, up to ms; serves handshakes meanwhile. */
static int
recv_wait(struct wire *w, struct wire_peer *from, struct msg *m, int ms)
{
	bool readable;
	int rc;

	for (int i = 0; i < ms / 50; i++) {
		if ((rc = wire_recv(w, from, m)) != 0)
			return rc;
		wire_poll(w, NULL, 0, 50, &readable);
	}
	return 0;
}

static void
send_ready(struct wire *dealer, const char *name)
{
	struct msg m = { .type = MSG_READY };

	m.u.ready.worker = (char *)name;
	m.u.ready.slots = 1;
	assert_int_equal(wire_send(dealer, NULL, &m), 0);
}

struct world {
	char endpoint[96];
	struct wire_keys server, listed, unlisted;
	struct wire_allow *allow;
	struct wire *router;
};

static void
world_init(struct world *w)
{
	char *p;

	snprintf(w->endpoint, sizeof w->endpoint, "ipc://%s/coordinator", dir);
	assert_int_equal(wire_keys_generate(&w->server), 0);
	assert_int_equal(wire_keys_generate(&w->listed), 0);
	assert_int_equal(wire_keys_generate(&w->unlisted), 0);
	p = path("allow");
	mkdir(p, 0700);
	free(p);
	p = path("allow/alice.key");
	unlink(p);
	free(p);
	p = path("allow/alice.pub");
	unlink(p);
	free(p);
	p = path("allow/alice");
	assert_int_equal(wire_keys_write(p, &w->listed), 0);
	free(p);
	p = path("allow");
	assert_non_null(w->allow = wire_allow_load(p));
	free(p);
	assert_int_equal(wire_allow_count(w->allow), 1);
	assert_non_null(w->router = wire_bind_curve(w->endpoint, &w->server,
	    w->allow));
}

static void
world_release(struct world *w)
{
	wire_free(w->router);
	wire_allow_free(w->allow);
}

static void
test_listed_talks(void **state)
{
	struct world w;
	struct wire *dealer;
	struct wire_peer peer;
	struct msg m, back;

	(void)state;
	world_init(&w);
	assert_non_null(dealer = wire_connect_curve(w.endpoint, &w.listed,
	    w.server.public_key));
	send_ready(dealer, "w1");
	assert_int_equal(recv_wait(w.router, &peer, &back, 3000), 1);
	assert_int_equal(back.type, MSG_READY);
	assert_string_equal(back.u.ready.worker, "w1");
	/* The coordinator knows it by its key's name. */
	assert_string_equal(peer.user, "alice");
	msg_release(&back);
	m.type = MSG_BYE;
	assert_int_equal(wire_send(w.router, &peer, &m), 0);
	assert_int_equal(recv_wait(dealer, NULL, &back, 3000), 1);
	assert_int_equal(back.type, MSG_BYE);
	wire_free(dealer);
	world_release(&w);
}

/* Each of these clients sends READY; none may arrive. */
static void
test_strangers_kept_out(void **state)
{
	struct world w;
	struct wire *dealers[3];
	struct wire_peer peer;
	struct msg back;

	(void)state;
	world_init(&w);
	/* A key not in the allow list. */
	assert_non_null(dealers[0] = wire_connect_curve(w.endpoint,
	    &w.unlisted, w.server.public_key));
	/* A listed key, but another coordinator's key: its handshake
	 * cannot be read by ours. */
	assert_non_null(dealers[1] = wire_connect_curve(w.endpoint,
	    &w.listed, w.unlisted.public_key));
	/* No CURVE at all. */
	assert_non_null(dealers[2] = wire_connect(w.endpoint));
	for (int i = 0; i < 3; i++)
		send_ready(dealers[i], "intruder");
	assert_int_equal(recv_wait(w.router, &peer, &back, 2000), 0);
	for (int i = 0; i < 3; i++)
		wire_free(dealers[i]);
	world_release(&w);
}

/* A client that only trusts the right coordinator key does not talk to
 * another coordinator (an impostor with keys of its own). */
static void
test_wrong_server(void **state)
{
	struct world w;
	struct wire_keys impostor;
	struct wire *dealer;
	struct msg back;
	struct wire_peer peer;

	(void)state;
	world_init(&w);
	wire_free(w.router);
	assert_int_equal(wire_keys_generate(&impostor), 0);
	assert_non_null(w.router = wire_bind_curve(w.endpoint, &impostor,
	    w.allow));
	assert_non_null(dealer = wire_connect_curve(w.endpoint, &w.listed,
	    w.server.public_key));
	send_ready(dealer, "w1");
	assert_int_equal(recv_wait(w.router, &peer, &back, 1500), 0);
	assert_int_equal(recv_wait(dealer, NULL, &back, 500), 0);
	wire_free(dealer);
	world_release(&w);
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(dir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	int rc;

	(void)state;
	rc = system(cmd);
	free(cmd);
	return rc == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keygen_round_trip),
		cmocka_unit_test(test_bad_key_files),
		cmocka_unit_test(test_listed_talks),
		cmocka_unit_test(test_strangers_kept_out),
		cmocka_unit_test(test_wrong_server),
	};

	log_init("test", false);
	return cmocka_run_group_tests(tests, setup, teardown);
}
