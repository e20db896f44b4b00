/*
 * echo_bot: the persistent bot of the sandbox benchmark. One line in, the
 * same line out, flushed, until its input ends: a move that costs the bot
 * nothing, so a round trip measures only the pipes and the sandbox.
 */
#include <stdio.h>

int
main(void)
{
	char line[4096];

	while (fgets(line, sizeof line, stdin)) {
		fputs(line, stdout);
		fflush(stdout);
	}
	return 0;
}
