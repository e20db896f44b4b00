/*
 * cmd_db: `arena db start|stop|url [--data DIR]`, the private PostgreSQL of
 * single-machine runs by hand: start it to query with psql (url prints the
 * conninfo), stop it when done. `arena run` starts it by itself.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/pgembed.h"

static int
usage(void)
{
	fprintf(stderr, "usage: arena db start|stop|url [--data DIR]\n");
	return 2;
}

int
cmd_db(int argc, char **argv)
{
	static const struct option options[] = {
		{ "data", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const char *data_arg = NULL, *action;
	char *data, *cluster, *conninfo = NULL;
	int c, rc = 1;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (c != 'd')
			return usage();
		data_arg = optarg;
	}
	if (optind != argc - 1)
		return usage();
	action = argv[optind];
	data = pgembed_data_dir(data_arg);
	cluster = xasprintf("%s/pg", data);
	if (strcmp(action, "stop") == 0) {
		rc = pgembed_stop(cluster) < 0;
	} else if (strcmp(action, "start") == 0 || strcmp(action, "url") == 0) {
		if (pgembed_start(cluster, &conninfo) == 0) {
			printf("%s\n", conninfo);
			rc = 0;
		}
	} else {
		rc = usage();
	}
	free(conninfo);
	free(cluster);
	free(data);
	return rc;
}
