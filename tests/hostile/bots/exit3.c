/* Case 25d: exits with code 3 on its first call. Expect RE. */
#include "hostile.h"

int
main(void)
{
	return hostile_wait() > 0 ? 3 : 0;
}
