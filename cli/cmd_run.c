/*
 * cmd_run: `arena run SPEC` and `arena coordinator SPEC`, one command with
 * two sets of defaults. Both load the spec, find or start the database,
 * store the tournament (or resume it) and coordinate it over ZeroMQ until
 * its last stage is done. `run` also starts N local workers (this binary's
 * `worker` subcommand) on a private ipc:// endpoint, exactly as remote
 * workers would connect over TCP, and prints the standings at the end;
 * `coordinator` binds TCP port 7700 on every interface and waits for
 * workers from anywhere. With --key and --allow the link is CURVE and only
 * the listed workers' keys get in; local workers then use the
 * coordinator's own key pair, which is let in too. The private ipc://
 * endpoint lives in a fresh 0700 folder, so it needs no keys.
 */
#include "cli/cli.h"

#include <sys/wait.h>

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/wire.h"
#include "coordinator/db.h"
#include "coordinator/dispatch.h"
#include "coordinator/export.h"
#include "coordinator/pgembed.h"
#include "coordinator/tournament.h"
#include "sandbox/sandbox.h"

#define RUN_MAX_WORKERS 64
#define COORDINATOR_BIND "tcp://*:7700"
/* A local worker that dies is replaced; one that keeps dying means
 * something is wrong with this machine, not with one game. */
#define RUN_MAX_RESPAWNS 8

struct serve_opts {
	const char *spec_path;
	const char *bind;	/* --bind; NULL: a private ipc endpoint */
	const char *db_url;	/* --db, or NULL */
	const char *data_arg;	/* --data, or NULL */
	long workers;		/* local worker processes */
	bool standings;		/* print the standings when done */
	const char *key;	/* --key: the coordinator's .key, or NULL */
	const char *allow;	/* --allow: worker .pub files (folder/file) */
};

/* The local workers, watched from the coordinator's loop. */
struct local_workers {
	const char *endpoint;
	const char *data;
	const char *key;	/* the coordinator's .key, or NULL */
	struct db *db;		/* to requeue a dead worker's games */
	int64_t tournament_id;
	long n;
	pid_t pids[RUN_MAX_WORKERS];
	int respawns;
};

static int
parse_opts(int argc, char **argv, struct serve_opts *o)
{
	static const struct option options[] = {
		{ "workers", required_argument, NULL, 'w' },
		{ "bind", required_argument, NULL, 'l' },
		{ "db", required_argument, NULL, 'b' },
		{ "data", required_argument, NULL, 'd' },
		{ "key", required_argument, NULL, 'k' },
		{ "allow", required_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'w':
			if (cli_parse_count("--workers", optarg, 0,
			    RUN_MAX_WORKERS, &o->workers) < 0)
				return -1;
			break;
		case 'l':
			o->bind = optarg;
			break;
		case 'b':
			o->db_url = optarg;
			break;
		case 'd':
			o->data_arg = optarg;
			break;
		case 'k':
			o->key = optarg;
			break;
		case 'a':
			o->allow = optarg;
			break;
		default:
			return -1;
		}
	}
	if (optind != argc - 1)
		return -1;
	if ((o->key == NULL) != (o->allow == NULL)) {
		fprintf(stderr, "arena: --key and --allow go together\n");
		return -1;
	}
	o->spec_path = argv[optind];
	return 0;
}

static void
worker_name(char name[32], long i)
{
	snprintf(name, 32, "local-%ld", i + 1);
}

/* Starts local worker i; 0, or -1 when it cannot be forked. */
static int
worker_spawn(struct local_workers *lw, long i)
{
	char name[32];
	pid_t pid;

	worker_name(name, i);
	pid = fork();
	if (pid < 0)
		return log_errno("cannot start a worker");
	if (pid == 0) {
		char *argv[] = { "arena", "worker", "--connect",
		    (char *)lw->endpoint, "--data", (char *)lw->data, "--name",
		    name, "--key", (char *)lw->key, "--coordinator-key",
		    (char *)lw->key, NULL };

		if (lw->key == NULL)
			argv[8] = NULL;

		execv("/proc/self/exe", argv);
		log_errno("cannot run '/proc/self/exe' as a worker");
		_exit(127);
	}
	lw->pids[i] = pid;
	return 0;
}

/* dispatch's tick: a local worker that died is started again (its game
 * comes back to the queue when the lease runs out). */
static int
workers_watch(void *arg)
{
	struct local_workers *lw = arg;
	char name[32];
	int status, n;

	for (long i = 0; i < lw->n; i++) {
		if (waitpid(lw->pids[i], &status, WNOHANG) != lw->pids[i])
			continue;
		lw->pids[i] = 0;
		if (++lw->respawns > RUN_MAX_RESPAWNS)
			return log_error("local workers keep dying; giving up");
		log_warn("worker local-%ld died (status %d); starting it again",
		    i + 1, status);
		worker_name(name, i);
		if (db_worker_lost(lw->db, lw->tournament_id, name, &n) < 0 ||
		    worker_spawn(lw, i) < 0)
			return -1;
	}
	return 0;
}

/* Stops and waits for the workers. Once the coordinator is done they have
 * nothing left to play (those that connected in time were told BYE), so
 * SIGTERM, which a worker takes as "stop cleanly", ends every one. */
static void
workers_reap(struct local_workers *lw)
{
	for (long i = 0; i < lw->n; i++)
		if (lw->pids[i] > 0)
			kill(lw->pids[i], SIGTERM);
	for (long i = 0; i < lw->n; i++) {
		int status;

		if (lw->pids[i] > 0 &&
		    waitpid(lw->pids[i], &status, 0) == lw->pids[i] &&
		    !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
			log_warn("worker local-%ld ended with status %d",
			    i + 1, status);
	}
}

/* Where a local worker connects to reach bind: a wildcard address, any
 * interface or 0.0.0.0, is reached on loopback. Caller
 * owns the result; free(). */
static char *
local_endpoint(const char *bind)
{
	static const char *const wildcards[] = { "tcp://*:", "tcp://0.0.0.0:" };

	for (size_t i = 0; i < 2; i++) {
		size_t n = strlen(wildcards[i]);

		if (strncmp(bind, wildcards[i], n) == 0)
			return xasprintf("tcp://127.0.0.1:%s", bind + n);
	}
	return xstrdup(bind);
}

/* A tcp:// endpoint on anything but loopback, reachable from elsewhere. */
static bool
is_open(const char *bind)
{
	static const char *const loopback[] = { "tcp://127.",
	    "tcp://localhost:", "tcp://[::1]:", "tcp://lo:" };

	if (strncmp(bind, "tcp://", 6) != 0)
		return false;
	for (size_t i = 0; i < sizeof loopback / sizeof loopback[0]; i++)
		if (strncmp(bind, loopback[i], strlen(loopback[i])) == 0)
			return false;
	return true;
}

/* --key and --allow: our key pair and who gets in (local workers, with
 * our own key, too). *allow NULL: a plain link. */
static int
load_keys(const struct serve_opts *o, const char *bind, struct wire_keys *keys,
    struct wire_allow **allow)
{
	*allow = NULL;
	if (o->key == NULL) {
		if (is_open(bind))
			log_warn("the link on '%s' is OPEN: anyone who reaches "
			    "it can take games and send results; use --key "
			    "and --allow (see 'arena keygen')", bind);
		return 0;
	}
	if (wire_keys_read(o->key, true, keys) < 0 ||
	    (*allow = wire_allow_load(o->allow)) == NULL)
		return -1;
	if (o->workers > 0 && wire_allow_add(*allow, "local",
	    keys->public_key) < 0)
		return -1;
	log_info("CURVE on '%s': %zu worker keys allowed", bind,
	    wire_allow_count(*allow));
	return 0;
}

/* Coordinates the tournament on bind with o->workers local workers. */
static int
coordinate(const struct serve_opts *o, struct db *db, const struct spec *spec,
    int64_t tid, const char *bind, const char *data)
{
	char *endpoint = local_endpoint(bind);
	struct local_workers lw = { .endpoint = endpoint, .data = data,
		.key = o->key, .db = db, .tournament_id = tid };
	struct wire_keys keys;
	struct wire_allow *allow = NULL;
	struct dispatch_opts d = {
		.bind = bind, .db = db, .tournament_id = tid,
		.spec = spec, .exit_when_done = true, .progress = true,
		.tick = workers_watch, .tick_arg = &lw, .keys = &keys,
	};
	int rc = -1;

	if (load_keys(o, bind, &keys, &allow) < 0) {
		free(endpoint);
		return -1;
	}
	if ((d.allow = allow) == NULL)
		d.keys = NULL;
	for (lw.n = 0; lw.n < o->workers; lw.n++)
		if (worker_spawn(&lw, lw.n) < 0)
			goto out;
	rc = dispatch_run(&d);
out:
	workers_reap(&lw);
	/* A worker killed in mid-game leaves its frozen bots to the next
	 * sandbox of that slot; there may be none. */
	sandbox_sweep();
	wire_allow_free(allow);
	free(endpoint);
	return rc;
}

/* Coordinates on o->bind, or on a private ipc endpoint in a fresh folder
 * under /tmp (short: ipc paths are limited to about 100 bytes). */
static int
coordinate_on(const struct serve_opts *o, struct db *db,
    const struct spec *spec, int64_t tid, const char *data)
{
	char dir[] = "/tmp/arena-run.XXXXXX";
	char *endpoint, *path;
	int rc;

	if (o->bind)
		return coordinate(o, db, spec, tid, o->bind, data);
	if (mkdtemp(dir) == NULL)
		return log_errno("cannot create a folder in /tmp");
	path = xasprintf("%s/coordinator", dir);
	endpoint = xasprintf("ipc://%s", path);
	rc = coordinate(o, db, spec, tid, endpoint, data);
	unlink(path);
	rmdir(dir);
	free(path);
	free(endpoint);
	return rc;
}

static int
serve(const struct serve_opts *o)
{
	struct spec *spec = NULL;
	struct db *db = NULL;
	char *data = NULL, *text = NULL;
	bool finished;
	int64_t tid;
	int rc = 1;

	/* The spec first: a bad one is refused before anything starts. */
	if (tournament_load(o->spec_path, &spec, &text) < 0)
		return 1;
	data = pgembed_data_dir(o->data_arg);
	if ((db = pgembed_connect(o->db_url, data)) == NULL)
		goto out;
	if (tournament_open(db, spec, text, &tid, &finished) < 0)
		goto out;
	if (!finished && coordinate_on(o, db, spec, tid, data) < 0)
		goto out;
	if (o->standings && cli_print_standings(db, tid, spec->name) < 0)
		goto out;
	rc = 0;
out:
	spec_free(spec);
	free(text);
	db_free(db);
	free(data);
	return rc;
}

int
cli_run_queued(const char *spec_path, const char *db_url,
    const char *data_arg, long workers)
{
	struct serve_opts o = { .spec_path = spec_path, .db_url = db_url,
	    .data_arg = data_arg, .workers = workers };

	return serve(&o);
}

int
cmd_run(int argc, char **argv)
{
	struct serve_opts o = { .workers = 2, .standings = true };

	if (parse_opts(argc, argv, &o) < 0) {
		fprintf(stderr, "usage: arena run SPEC [--workers N] "
		    "[--bind ENDPOINT] [--db URL] [--data DIR]\n"
		    "       [--key FILE --allow DIR]\n");
		return 2;
	}
	return serve(&o);
}

int
cmd_coordinator(int argc, char **argv)
{
	struct serve_opts o = { .bind = COORDINATOR_BIND };

	if (parse_opts(argc, argv, &o) < 0) {
		fprintf(stderr, "usage: arena coordinator SPEC [--bind ENDPOINT] "
		    "[--workers N] [--db URL] [--data DIR]\n"
		    "       [--key FILE --allow DIR]\n");
		return 2;
	}
	return serve(&o);
}
