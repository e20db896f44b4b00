/* Case 10: allocates and touches 400 MB on its first call (under the
 * 512 MB peak), answers, and keeps it. Expect ML from the 256 MB
 * resident check after the call. */
#include "hostile.h"

int
main(void)
{
	size_t size = (size_t)400 << 20;
	volatile char *p;

	if (hostile_wait() == 0)
		return 0;
	if ((p = malloc(size)) == NULL)
		return 3;
	/* Page by page through a volatile pointer: the compiler must not
	 * drop an allocation it sees never read. */
	for (size_t i = 0; i < size; i += 4096)
		p[i] = 1;
	hostile_pass_forever();
}
