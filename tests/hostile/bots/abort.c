/* Case 25b: abort() on its first call. Expect RE (SIGABRT), no core. */
#include "hostile.h"

int
main(void)
{
	if (hostile_wait() > 0)
		abort();
	return 0;
}
