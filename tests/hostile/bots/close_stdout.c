/* Case 19b: closes stdout on its first call, then keeps reading stdin.
 * Expect RE (closed its output); the worker gets EOF, not a hang. */
#include <unistd.h>

#include "hostile.h"

int
main(void)
{
	if (hostile_wait() == 0)
		return 0;
	fclose(stdout);
	while (hostile_wait() > 0)
		;
	return 0;
}
