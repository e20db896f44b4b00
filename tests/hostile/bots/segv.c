/* Case 25a: dereferences NULL on its first call. Expect RE (SIGSEGV). */
#include "hostile.h"

int
main(void)
{
	volatile int *p = NULL;

	if (hostile_wait() > 0)
		*p = 1;
	return 0;
}
