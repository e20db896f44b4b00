/*
 * Case 3: answers at once (placing a building, so that a passing opponent
 * does not end the game) and leaves a thread computing, to think on the
 * opponent's time. The spinner's own CPU clock is read at each reply and
 * at the next request: if it advanced more than 50 ms while we were not
 * being called, the freeze did not hold (exit 42). Expect the sandbox to
 * freeze it (an ordinary game, cpu_ms close to wall_ms) or to enforce the
 * "no threads left running" rule (a fault verdict).
 */
#include <pthread.h>
#include <time.h>

#include "hostile.h"

static clockid_t spinner_clock;

static void *
spin(void *arg)
{
	volatile unsigned long n = 0;

	(void)arg;
	for (;;)
		n++;
	return NULL;
}

static double
spinner_ms(void)
{
	struct timespec ts;

	clock_gettime(spinner_clock, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int
main(void)
{
	pthread_t t;
	double at_reply;
	char msg[128];

	if (hostile_wait() == 0)
		return 0;
	pthread_create(&t, NULL, spin, NULL);
	pthread_getcpuclockid(t, &spinner_clock);
	for (;;) {
		at_reply = spinner_ms();
		hostile_reply(hostile_move);
		if (hostile_wait() == 0)
			return 0;
		if (spinner_ms() - at_reply > 50) {
			snprintf(msg, sizeof msg, "pondered %.0f ms between "
			    "calls", spinner_ms() - at_reply);
			hostile_leak(msg);
		}
	}
}
