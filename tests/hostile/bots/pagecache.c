/*
 * Case 12: reads every regular file under /usr (up to 1 GB, for at most
 * 600 ms so the call stays in time) on its first call to inflate the
 * page cache charged to it, then passes. Expect an ordinary game: cache
 * must not turn into a false ML.
 */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <time.h>
#include <unistd.h>

#include "hostile.h"

static long long total;
static time_t stop_at;

static time_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
slurp(const char *path, const struct stat *st, int type, struct FTW *f)
{
	static char buf[1 << 16];
	ssize_t n;
	int fd;

	(void)st;
	(void)f;
	if (type != FTW_F || (fd = open(path, O_RDONLY)) == -1)
		return 0;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		total += n;
	close(fd);
	return total > (1LL << 30) || now_ms() > stop_at;
}

int
main(void)
{
	if (hostile_wait() == 0)
		return 0;
	stop_at = now_ms() + 600;
	nftw("/usr", slurp, 32, FTW_PHYS);
	fprintf(stderr, "pagecache: read %lld MB\n", total >> 20);
	hostile_pass_forever();
}
