/* Case 9b: recursion with 64 KB frames, each touched, on its first call.
 * Expect RE (SIGSEGV at the stack limit) or ML. */
#include "hostile.h"

static int
deep(int n)
{
	volatile char frame[64 * 1024];

	for (size_t i = 0; i < sizeof frame; i += 4096)
		frame[i] = (char)n;
	if (n == -1)
		return 0;
	return deep(n + 1) + frame[n % sizeof frame];
}

int
main(void)
{
	if (hostile_wait() == 0)
		return 0;
	return deep(0);
}
