/*
 * Case 11: on its first call fills /tmp, /dev/shm and its own folder:
 * 1 MB writes into fill.0, fill.1, ... (a new file whenever one hits the
 * file size limit, EFBIG, SIGXFSZ being ignored) until another error
 * such as ENOSPC, or until a little over 512 MB, which is a leak (exit 42);
 * then a 2 GB sparse write and a 2 GB fallocate. Expect an ordinary game
 * (ENOSPC within the private size limits), or ML when tmpfs pages are
 * charged to it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "hostile.h"

#define MB ((off_t)1 << 20)
#define LEAK (512 * MB)

/* Writes one file until an error; the bytes written. */
static off_t
fill_file(const char *path, off_t room, int *err)
{
	static char block[1 << 20];
	off_t done = 0;
	ssize_t n;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	*err = errno;
	if (fd == -1)
		return 0;
	memset(block, 'x', sizeof block);
	while (done < room && (n = write(fd, block, sizeof block)) > 0)
		done += n;
	*err = done < room ? errno : 0;
	if (pwrite(fd, "x", 1, 2048 * MB) == 1 ||
	    posix_fallocate(fd, 0, 2048 * MB) == 0)
		done += 2048 * MB;
	close(fd);
	return done;
}

static off_t
fill(const char *dir)
{
	char path[256];
	off_t total = 0;
	int err = EFBIG, files = 0;

	while (err == EFBIG && total <= LEAK) {
		snprintf(path, sizeof path, "%s/fill.%d", dir, files++);
		total += fill_file(path, LEAK + MB - total, &err);
	}
	fprintf(stderr, "disk_fill: %s: %lld MB in %d files, then %s\n", dir,
	    (long long)(total / MB), files, err ? strerror(err) : "stopped");
	return total;
}

int
main(void)
{
	const char *paths[] = { "/tmp", "/dev/shm", "." };
	char msg[128];

	signal(SIGXFSZ, SIG_IGN);
	if (hostile_wait() == 0)
		return 0;
	for (int i = 0; i < 3; i++) {
		off_t done = fill(paths[i]);

		if (done > LEAK) {
			snprintf(msg, sizeof msg, "%lld MB into %s",
			    (long long)(done / MB), paths[i]);
			hostile_leak(msg);
		}
	}
	hostile_pass_forever();
}
