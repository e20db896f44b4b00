/*
 * cmd_keygen: `arena keygen NAME` makes a CURVE key pair for a coordinator
 * or a worker: NAME.key (mode 0600, both halves; stays on that machine)
 * and NAME.pub (the public half; goes to the other side: worker .pub files
 * into the coordinator's --allow folder, the coordinator's .pub to every
 * worker's --coordinator-key). The format is in common/wire.h.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "common/wire.h"

int
cmd_keygen(int argc, char **argv)
{
	struct wire_keys k;
	int rc;

	if (argc != 2 || argv[1][0] == '-' || argv[1][0] == '\0') {
		fprintf(stderr, "usage: arena keygen NAME\n");
		return 2;
	}
	if (wire_keys_generate(&k) < 0)
		return 1;
	rc = wire_keys_write(argv[1], &k);
	memset(&k, 0, sizeof k);
	if (rc < 0)
		return 1;
	printf("%s.key: the key pair (keep it secret)\n%s.pub: the public "
	    "key (give it to the other side)\n", argv[1], argv[1]);
	return 0;
}
