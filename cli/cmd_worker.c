/*
 * cmd_worker: `arena worker --connect ENDPOINT`, one worker machine's
 * process: plays the games a coordinator sends, N at a time, building
 * entries in its data folder. With --key and --coordinator-key the link is
 * CURVE: it only talks to that coordinator, which knows it by its key.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/wire.h"
#include "coordinator/pgembed.h"
#include "worker/worker.h"

#define WORKER_MAX_SLOTS 256

static int
usage(void)
{
	fprintf(stderr, "usage: arena worker --connect ENDPOINT [--slots N] "
	    "[--data DIR] [--name NAME]\n"
	    "       [--key FILE --coordinator-key FILE]\n");
	return 2;
}

struct key_args {
	const char *key;		/* --key: our .key */
	const char *coordinator_key;	/* --coordinator-key: its .pub */
};

static int
parse_opts(int argc, char **argv, struct worker_opts *o,
    const char **data_arg, struct key_args *ka)
{
	static const struct option options[] = {
		{ "connect", required_argument, NULL, 'c' },
		{ "slots", required_argument, NULL, 's' },
		{ "data", required_argument, NULL, 'd' },
		{ "name", required_argument, NULL, 'n' },
		{ "key", required_argument, NULL, 'k' },
		{ "coordinator-key", required_argument, NULL, 'K' },
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
		case 'k':
			ka->key = optarg;
			break;
		case 'K':
			ka->coordinator_key = optarg;
			break;
		default:
			return -1;
		}
	}
	if (optind != argc || o->connect == NULL)
		return -1;
	if ((ka->key == NULL) != (ka->coordinator_key == NULL)) {
		fprintf(stderr, "arena: --key and --coordinator-key go "
		    "together\n");
		return -1;
	}
	return 0;
}

/* Reads our key pair and the coordinator's public key (from its .pub,
 * or a .key: only the public line is used). */
static int
load_keys(const struct key_args *ka, struct wire_keys *ours,
    struct wire_keys *theirs, struct worker_opts *o)
{
	if (ka->key == NULL)
		return 0;
	if (wire_keys_read(ka->key, true, ours) < 0 ||
	    wire_keys_read(ka->coordinator_key, false, theirs) < 0)
		return -1;
	o->keys = ours;
	o->server_key = theirs->public_key;
	return 0;
}

int
cmd_worker(int argc, char **argv)
{
	struct worker_opts o;
	struct key_args ka = { NULL, NULL };
	struct wire_keys ours, theirs;
	const char *data_arg = NULL;
	char *data;
	int rc;

	if (parse_opts(argc, argv, &o, &data_arg, &ka) < 0)
		return usage();
	if (load_keys(&ka, &ours, &theirs, &o) < 0)
		return 1;
	data = pgembed_data_dir(data_arg);
	o.data_dir = data;
	rc = worker_run(&o) == 0 ? 0 : 1;
	free(data);
	return rc;
}
