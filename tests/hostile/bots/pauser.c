/* Case 4: blocks forever in pause() on its first call. Expect TO (wall).
 * Named pauser, not sleep, to stay apart from sleep(1) in the harness's
 * process checks. */
#include <unistd.h>

#include "hostile.h"

int
main(void)
{
	if (hostile_wait() > 0)
		for (;;)
			pause();
	return 0;
}
