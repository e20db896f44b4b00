/* Case 2: eight threads spin during its first call. Expect TO; the CPU
 * recorded stays close to the wall time (one core). */
#include <pthread.h>

#include "hostile.h"

static void *
spin(void *arg)
{
	volatile unsigned long n = 0;

	(void)arg;
	for (;;)
		n++;
	return NULL;
}

int
main(void)
{
	pthread_t t;

	if (hostile_wait() > 0) {
		for (int i = 0; i < 7; i++)
			pthread_create(&t, NULL, spin, NULL);
		spin(NULL);
	}
	return 0;
}
