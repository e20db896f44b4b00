/*
 * Case 7: starts threads on its first call until pthread_create fails
 * (at most 3000, small stacks), lets them all end, then passes. Expect
 * the cap to stop it well before 1000 (exit 42 otherwise) and an ordinary
 * game after.
 */
#include <pthread.h>
#include <unistd.h>

#include "hostile.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *
wait_release(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int
main(void)
{
	static pthread_t t[3000];
	pthread_attr_t attr;
	int n = 0, err = 0;
	char msg[128];

	if (hostile_wait() == 0)
		return 0;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	pthread_mutex_lock(&lock);
	while (n < 3000 &&
	    (err = pthread_create(&t[n], &attr, wait_release, NULL)) == 0)
		n++;
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	fprintf(stderr, "thread_bomb: %d threads, then %s\n", n,
	    strerror(err));
	if (n >= 1000) {
		snprintf(msg, sizeof msg, "%d threads at once", n);
		hostile_leak(msg);
	}
	hostile_pass_forever();
}
