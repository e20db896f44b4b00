/* arena doctor: what this machine allows the sandbox, and the fallbacks. */
#include "cli/cli.h"

#include <stdio.h>

#include "sandbox/sandbox.h"

int
cmd_doctor(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: arena doctor\n");
		return 2;
	}
	return sandbox_doctor(stdout) == 0 ? 0 : 1;
}
