/*
 * Case 6: forks as fast as it can on its first call, every child forking
 * too, for 300 ms (well within the call), then passes. Expect fork
 * refused (EPERM: an ordinary game), or a fault verdict for processes
 * left running, or SV;
 * never a machine with bomb processes left after the game.
 */
#include <errno.h>
#include <time.h>
#include <unistd.h>

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#include "hostile.h"

int
main(void)
{
	long end;
	int made = 0, err = 0;

	if (hostile_wait() == 0)
		return 0;
	end = now_ms() + 300;
	while (now_ms() < end) {
		pid_t p = fork();

		if (p == 0)
			end = now_ms() + 3600 * 1000;
		else if (p > 0)
			made++;
		else
			err = errno;
	}
	fprintf(stderr, "fork_bomb: %d children, last error %s\n", made,
	    strerror(err));
	hostile_pass_forever();
}
