/* Case 14b: on its first call sets up an io_uring (raw syscall, no
 * liburing). A ring is a leak (exit 42): it could bypass the socket and
 * file filters. Expect an ordinary game (EPERM/ENOSYS) or SV. */
#include <sys/syscall.h>

#include <linux/io_uring.h>
#include <unistd.h>

#include "hostile.h"

int
main(void)
{
	struct io_uring_params p;
	long fd;

	if (hostile_wait() == 0)
		return 0;
	memset(&p, 0, sizeof p);
	fd = syscall(SYS_io_uring_setup, 8, &p);
	if (fd >= 0)
		hostile_leak("set up an io_uring");
	perror("io_uring: io_uring_setup");
	hostile_pass_forever();
}
