/* Case 20b: kill(-1, SIGKILL) on its first call, then passes. Expect an
 * ordinary game: it reaches nothing outside its own sandbox (the
 * opponent and a canary process of the harness survive). NEVER run it
 * outside a sandbox. */
#include <signal.h>

#include "hostile.h"

int
main(void)
{
	if (hostile_wait() == 0)
		return 0;
	if (kill(-1, SIGKILL) == -1)
		perror("kill_all: kill(-1)");
	hostile_pass_forever();
}
