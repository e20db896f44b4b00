/*
 * cmd_worker: `arena worker --connect ENDPOINT`, one worker machine's
 * process: plays the games a coordinator sends, N at a time, building
 * entries in its data folder.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/pgembed.h"
#include "worker/worker.h"

#define WORKER_MAX_SLOTS 256

static int
usage(void)
{
	fprintf(stderr, "usage: arena worker --connect ENDPOINT [--slots N] "
	    "[--data DIR] [--name NAME]\n");
	return 2;
}

static int
parse_opts(int argc, char **argv, struct worker_opts *o,
    const char **data_arg)
{
	static const struct option options[] = {
		{ "connect", required_argument, NULL, 'c' },
		{ "slots", required_argument, NULL, 's' },
		{ "data", required_argument, NULL, 'd' },
		{ "name", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	long n;
	int c;

	memset(o, 0, sizeof *o);
	o->slots = 1;
	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->connect = optarg;
			break;
		case 's':
			if (cli_parse_count("--slots", optarg, 1,
			    WORKER_MAX_SLOTS, &n) < 0)
				return -1;
			o->slots = (unsigned)n;
			break;
		case 'd':
			*data_arg = optarg;
			break;
		case 'n':
			o->name = optarg;
			break;
		default:
			return -1;
		}
	}
	if (optind != argc || o->connect == NULL)
		return -1;
	return 0;
}

int
cmd_worker(int argc, char **argv)
{
	struct worker_opts o;
	const char *data_arg = NULL;
	char *data;
	int rc;

	if (parse_opts(argc, argv, &o, &data_arg) < 0)
		return usage();
	data = pgembed_data_dir(data_arg);
	o.data_dir = data;
	rc = worker_run(&o) == 0 ? 0 : 1;
	free(data);
	return rc;
}
