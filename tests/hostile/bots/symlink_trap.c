/*
 * Case 16 (per-turn games): replaces output.txt with a trap for the
 * referee: a symlink to /etc/shadow (argument "symlink"), a FIFO
 * ("fifo"), a 10 GB sparse file ("sparse") or a hard link to input.txt
 * ("hardlink"). Expect the referee to refuse it (WA) without following,
 * blocking or reading more than its cap. Dream City is persistent, so
 * the harness skips this case until per-turn games exist.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <unistd.h>

#include "hostile.h"

int
main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "symlink";
	int fd;

	unlink("output.txt");
	if (strcmp(how, "symlink") == 0)
		return symlink("/etc/shadow", "output.txt") != 0;
	if (strcmp(how, "fifo") == 0)
		return mkfifo("output.txt", 0644) != 0;
	if (strcmp(how, "hardlink") == 0)
		return link("input.txt", "output.txt") != 0;
	if ((fd = open("output.txt", O_WRONLY | O_CREAT, 0644)) == -1)
		return 1;
	return ftruncate(fd, (off_t)10 << 30) != 0;
}
