/* Case 1: spins on the CPU during its own first call. Expect TO. */
#include "hostile.h"

int
main(void)
{
	volatile unsigned long n = 0;

	if (hostile_wait() > 0)
		for (;;)
			n++;
	return 0;
}
