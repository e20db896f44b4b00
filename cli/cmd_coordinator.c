/*
 * cmd_coordinator: `arena coordinator SPEC`, the coordinator alone, for
 * workers on other machines (`arena worker --connect tcp://HOST:7700`).
 * It stores or resumes the tournament, then hands out games until the
 * last stage is done, tells the workers BYE and exits 0.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db.h"
#include "coordinator/dispatch.h"
#include "coordinator/pgembed.h"
#include "coordinator/tournament.h"

#define COORDINATOR_BIND "tcp://*:7700"

struct coordinator_opts {
	const char *spec_path;
	const char *bind;	/* --bind */
	const char *db_url;	/* --db, or NULL */
	const char *data_arg;	/* --data, or NULL */
};

static int
usage(void)
{
	fprintf(stderr, "usage: arena coordinator SPEC [--bind ENDPOINT] "
	    "[--db URL] [--data DIR]\n");
	return 2;
}

static int
parse_opts(int argc, char **argv, struct coordinator_opts *o)
{
	static const struct option options[] = {
		{ "bind", required_argument, NULL, 'l' },
		{ "db", required_argument, NULL, 'b' },
		{ "data", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof *o);
	o->bind = COORDINATOR_BIND;
	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'l':
			o->bind = optarg;
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

int
cmd_coordinator(int argc, char **argv)
{
	struct coordinator_opts o;
	struct dispatch_opts d;
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
	memset(&d, 0, sizeof d);
	d.bind = o.bind;
	d.db = db;
	d.tournament_id = tid;
	d.spec = spec;
	d.exit_when_done = true;
	d.progress = true;
	if (dispatch_run(&d) < 0)
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
