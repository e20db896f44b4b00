/* Case 19: never reads its stdin and never answers. With a request larger
 * than a pipe, a blocking write would hang the worker. Expect TO. */
#include <unistd.h>

int
main(void)
{
	for (;;)
		pause();
}
