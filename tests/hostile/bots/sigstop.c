/* Case 5: stops itself again and again (SIGSTOP, SIGTSTP, SIGTTIN,
 * SIGTTOU) on its first call. Expect TO; the worker must not hang. */
#include <signal.h>

#include "hostile.h"

int
main(void)
{
	const int sigs[] = { SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU };

	signal(SIGTSTP, SIG_DFL);
	signal(SIGTTIN, SIG_DFL);
	signal(SIGTTOU, SIG_DFL);
	if (hostile_wait() > 0)
		for (unsigned i = 0;; i++)
			raise(sigs[i % 4]);
	return 0;
}
