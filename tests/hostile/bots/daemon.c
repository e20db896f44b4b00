/*
 * Case 6b: double fork + setsid on its first call; the grandchild sleeps
 * for an hour under the name "hostile-daemon". Expect fork refused (an
 * ordinary game) or a fault for a process left running; in every case no
 * such process may exist after the game.
 */
#include <sys/prctl.h>

#include <unistd.h>

#include "hostile.h"

int
main(void)
{
	pid_t p;

	if (hostile_wait() == 0)
		return 0;
	p = fork();
	if (p == 0) {
		setsid();
		if (fork() == 0) {
			prctl(PR_SET_NAME, "hostile-daemon");
			for (int fd = 0; fd < 3; fd++)
				close(fd);
			sleep(3600);
		}
		_exit(0);
	}
	if (p < 0)
		perror("daemon: fork");
	hostile_pass_forever();
}
