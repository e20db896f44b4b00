/* Case 24: on its first call looks at fds 3..1023; any open one is a
 * leak (exit 42) naming what it is. Expect an ordinary game. */
#include <fcntl.h>
#include <unistd.h>

#include "hostile.h"

int
main(void)
{
	char path[64], target[256], msg[400];
	ssize_t n;

	if (hostile_wait() == 0)
		return 0;
	for (int fd = 3; fd < 1024; fd++) {
		if (fcntl(fd, F_GETFD) == -1)
			continue;
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		n = readlink(path, target, sizeof target - 1);
		target[n > 0 ? n : 0] = '\0';
		snprintf(msg, sizeof msg, "fd %d is open (%s)", fd, target);
		hostile_leak(msg);
	}
	hostile_pass_forever();
}
