/*
 * Case 15: on its first call tries to read what is not its own:
 * /etc/shadow, /proc/1/environ, /root, /home, /sys/fs/cgroup, other
 * processes' /proc/PID/environ and every PATH given (the arena data dir,
 * another entry's folder), and to create CANARY. Usage: read_outside
 * CANARY PATH...  Anything read or written is a leak (exit 42). Expect an
 * ordinary game (ENOENT, EACCES).
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include "hostile.h"

/* A file read with at least one byte, or a directory with an entry. */
static int
readable(const char *path)
{
	char buf[64];
	DIR *d;
	struct dirent *de;
	int fd, n = 0;

	if ((d = opendir(path)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				n++;
		closedir(d);
		return n > 0;
	}
	if ((fd = open(path, O_RDONLY | O_NONBLOCK)) == -1)
		return 0;
	n = (int)read(fd, buf, sizeof buf);
	close(fd);
	return n > 0;
}

/* Another process's environment, through /proc. */
static const char *
other_environ(void)
{
	static char path[300];
	DIR *d = opendir("/proc");
	struct dirent *de;
	int found = 0;

	if (d == NULL)
		return NULL;
	while (!found && (de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]) ||
		    atoi(de->d_name) == getpid())
			continue;
		snprintf(path, sizeof path, "/proc/%s/environ", de->d_name);
		found = readable(path);
	}
	closedir(d);
	return found ? path : NULL;
}

int
main(int argc, char **argv)
{
	const char *fixed[] = { "/etc/shadow", "/proc/1/environ", "/root",
	    "/home", "/sys/fs/cgroup", "/proc/kcore", "/var/run/postgresql" };
	char msg[512];
	int fd;

	if (argc < 2 || hostile_wait() == 0)
		return 0;
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (readable(fixed[i])) {
			snprintf(msg, sizeof msg, "read %s", fixed[i]);
			hostile_leak(msg);
		}
	for (int i = 2; i < argc; i++)
		if (readable(argv[i])) {
			snprintf(msg, sizeof msg, "read %s", argv[i]);
			hostile_leak(msg);
		}
	if (other_environ() != NULL) {
		snprintf(msg, sizeof msg, "read %s", other_environ());
		hostile_leak(msg);
	}
	if ((fd = open(argv[1], O_WRONLY | O_CREAT | O_EXCL, 0644)) != -1) {
		snprintf(msg, sizeof msg, "created %s", argv[1]);
		hostile_leak(msg);
	}
	hostile_pass_forever();
}
