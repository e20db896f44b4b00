/* Case 18c: answers every call twice, plus a line of binary junk after
 * the first call. Expect WA ("answered twice": output with no call open
 * is a protocol fault), never the referee confused into a crash. */
#include "hostile.h"

int
main(void)
{
	while (hostile_wait() > 0) {
		printf("pass\npass\n");
		if (hostile_calls == 1)
			printf("\x01\x02\xff\xfe junk\n");
		fflush(stdout);
	}
	return 0;
}
