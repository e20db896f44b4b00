/* Case 18b: writes 1 GB to stderr on its first call (SIGXFSZ ignored),
 * then passes. Expect an ordinary game with a capped log, or RE. */
#include <signal.h>
#include <unistd.h>

#include "hostile.h"

int
main(void)
{
	static char block[1 << 16];

	signal(SIGXFSZ, SIG_IGN);
	if (hostile_wait() == 0)
		return 0;
	memset(block, 'e', sizeof block);
	for (long i = 0; i < (1L << 30) / (long)sizeof block; i++)
		if (write(2, block, sizeof block) < 0)
			break;
	hostile_pass_forever();
}
