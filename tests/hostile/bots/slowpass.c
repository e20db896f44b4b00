/* Not an attack: the opponent for ponder, passing after 300 ms of sleep
 * per call so that the time between the ponderer's calls is long. */
#include <unistd.h>

#include "hostile.h"

int
main(void)
{
	while (hostile_wait() > 0) {
		usleep(300 * 1000);
		hostile_reply("pass");
	}
	return 0;
}
