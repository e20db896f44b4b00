/* Case 8: allocates 64 MB blocks without end on its first call, touching
 * each page (quick enough to reach 512 MB well within a 1 s call).
 * Expect ML. */
#include "hostile.h"

int
main(void)
{
	if (hostile_wait() == 0)
		return 0;
	for (;;) {
		volatile char *p = malloc(64 << 20);

		if (p == NULL)
			return 3;
		for (size_t i = 0; i < 64 << 20; i += 4096)
			p[i] = 1;
	}
}
