/* Case 9a: a 1 GB static array, touched page by page on its first call.
 * Expect ML. */
#include "hostile.h"

static char big[1 << 30];

int
main(void)
{
	if (hostile_wait() == 0)
		return 0;
	/* volatile: the stores must not be optimised away. */
	for (size_t i = 0; i < sizeof big; i += 4096)
		((volatile char *)big)[i] = 1;
	hostile_pass_forever();
}
