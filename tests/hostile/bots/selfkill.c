/* Case 25c: SIGKILL to itself on its first call. Expect RE (SIGKILL),
 * not ML: no memory limit was near. */
#include <signal.h>

#include "hostile.h"

int
main(void)
{
	if (hostile_wait() > 0)
		raise(SIGKILL);
	return 0;
}
