/* Case 18: writes 4 GB without a newline to stdout on its first call.
 * Expect OL; the worker does not grow. */
#include <unistd.h>

#include "hostile.h"

int
main(void)
{
	static char block[1 << 16];

	if (hostile_wait() == 0)
		return 0;
	memset(block, 'x', sizeof block);
	for (long i = 0; i < (4L << 30) / (long)sizeof block; i++)
		if (write(1, block, sizeof block) < 0)
			return 3;
	return 0;
}
