/*
 * cmd_run: `arena run SPEC`, a whole tournament on this machine. It finds
 * or starts the database, stores the spec (or resumes it), starts N local
 * worker processes (this binary's `worker` subcommand) and coordinates them
 * itself over ZeroMQ on a private ipc:// endpoint, exactly as a
 * coordinator and remote workers would over TCP; then prints the standings
 * of every stage.
 */
#include "cli/cli.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "coordinator/db.h"
#include "coordinator/dispatch.h"
#include "coordinator/export.h"
#include "coordinator/pgembed.h"
#include "coordinator/tournament.h"

#define RUN_MAX_WORKERS 64

struct run_opts {
	const char *spec_path;
	const char *db_url;	/* --db, or NULL */
	const char *data_arg;	/* --data, or NULL */
	long workers;		/* local worker processes */
};

static int
usage(void)
{
	fprintf(stderr, "usage: arena run SPEC [--workers N] [--db URL] "
	    "[--data DIR]\n");
	return 2;
}

static int
parse_opts(int argc, char **argv, struct run_opts *o)
{
	static const struct option options[] = {
		{ "workers", required_argument, NULL, 'w' },
		{ "db", required_argument, NULL, 'b' },
		{ "data", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	memset(o, 0, sizeof *o);
	o->workers = 2;
	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'w':
			o->workers = strtol(optarg, &end, 10);
			if (*end != '\0' || o->workers < 1 ||
			    o->workers > RUN_MAX_WORKERS) {
				fprintf(stderr, "arena run: --workers takes "
				    "1..%d, not '%s'\n", RUN_MAX_WORKERS,
				    optarg);
				return -1;
			}
			break;
		case 'b':
			o->db_url = optarg;
			break;
		case 'd':
			o->data_arg = optarg;
			break;
		default:
			return -1;
		}
	}
	if (optind != argc - 1)
		return -1;
	o->spec_path = argv[optind];
	return 0;
}

/* Starts `arena worker` connected to endpoint; returns its pid or -1. */
static pid_t
worker_spawn(const char *endpoint, const char *data, long i)
{
	char name[32];
	pid_t pid;

	snprintf(name, sizeof name, "local-%ld", i + 1);
	pid = fork();
	if (pid < 0)
		return log_errno("cannot start a worker");
	if (pid == 0) {
		char *argv[] = { "arena", "worker", "--connect",
		    (char *)endpoint, "--data", (char *)data, "--name", name,
		    NULL };

		execv("/proc/self/exe", argv);
		log_errno("cannot run '/proc/self/exe' as a worker");
		_exit(127);
	}
	return pid;
}

/* Stops and waits for the workers. Once the coordinator is done they have
 * nothing left to play (those that connected in time were told BYE), so
 * SIGTERM, which a worker takes as "stop cleanly", ends every one. */
static void
workers_reap(const pid_t *pids, long n)
{
	for (long i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGTERM);
	for (long i = 0; i < n; i++) {
		int status;

		if (pids[i] > 0 && waitpid(pids[i], &status, 0) == pids[i] &&
		    !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
			log_warn("worker local-%ld ended with status %d",
			    i + 1, status);
	}
}

static int
print_standings(struct db *db, const struct spec *spec, int64_t tid)
{
	struct db_standing *rows = NULL;
	size_t n = 0;
	int rc;

	if (db_standings(db, tid, NULL, &rows, &n) < 0)
		return -1;
	rc = export_standings(stdout, EXPORT_TABLE, spec->name, rows, n);
	db_standings_free(rows, n);
	return rc;
}

/* Runs the coordinator with o->workers local workers on a private ipc
 * endpoint in a fresh folder under /tmp (short: ipc paths are limited). */
static int
coordinate(const struct run_opts *o, struct db *db, const struct spec *spec,
    int64_t tid, const char *data)
{
	char dir[] = "/tmp/arena-run.XXXXXX";
	pid_t pids[RUN_MAX_WORKERS] = { 0 };
	char *endpoint = NULL, *path = NULL;
	struct dispatch_opts d;
	bool finished;
	int rc = -1;

	if (tournament_advance(db, spec, tid, &finished) < 0)
		return -1;
	if (finished)
		return 0;
	if (mkdtemp(dir) == NULL)
		return log_errno("cannot create a folder in /tmp");
	path = xasprintf("%s/coordinator", dir);
	endpoint = xasprintf("ipc://%s", path);
	memset(&d, 0, sizeof d);
	d.bind = endpoint;
	d.db = db;
	d.tournament_id = tid;
	d.spec = spec;
	d.exit_when_done = true;
	d.progress = true;
	for (long i = 0; i < o->workers; i++) {
		pids[i] = worker_spawn(endpoint, data, i);
		if (pids[i] < 0)
			goto out;
	}
	rc = dispatch_run(&d);
out:
	workers_reap(pids, o->workers);
	unlink(path);
	rmdir(dir);
	free(path);
	free(endpoint);
	return rc;
}

int
cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct spec *spec = NULL;
	struct db *db = NULL;
	char *data = NULL, *conninfo = NULL, *text = NULL;
	int64_t tid;
	int rc = 1;

	if (parse_opts(argc, argv, &o) < 0)
		return usage();
	if (tournament_load(o.spec_path, &spec, &text) < 0)
		return 1;
	data = pgembed_data_dir(o.data_arg);
	if (pgembed_resolve(o.db_url, data, &conninfo) < 0)
		goto out;
	if ((db = db_open(conninfo)) == NULL)
		goto out;
	if (tournament_open(db, spec, text, &tid) < 0)
		goto out;
	if (coordinate(&o, db, spec, tid, data) < 0)
		goto out;
	if (print_standings(db, spec, tid) < 0)
		goto out;
	rc = 0;
out:
	spec_free(spec);
	free(text);
	db_free(db);
	free(conninfo);
	free(data);
	return rc;
}
