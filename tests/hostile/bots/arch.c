/* Case 23b: a 32-bit system call (int 0x80 getpid) and an x32 one on its
 * first call. Expect SV (the filter kills a foreign architecture), or an
 * ordinary game if both fail with an error; a pid back is a leak. */
#include <sys/syscall.h>

#include <unistd.h>

#include "hostile.h"

int
main(void)
{
	long r;

	if (hostile_wait() == 0)
		return 0;
	r = syscall(39 | 0x40000000L);	/* x32 getpid */
	if (r > 0)
		hostile_leak("x32 system call answered");
	__asm__ volatile ("int $0x80" : "=a"(r) : "a"(20L) : "memory");
	if (r > 0)
		hostile_leak("i386 system call answered");
	hostile_pass_forever();
}
