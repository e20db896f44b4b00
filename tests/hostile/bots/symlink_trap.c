/*
 * Case 16 (per-turn games): replaces output.txt with a trap for the
 * referee: a symlink to /etc/shadow (argument "symlink"), a FIFO
 * ("fifo"), a 10 GB sparse file ("sparse") or a hard link to input.txt
 * ("hardlink"). Run per turn in Space Wars (FILES mode). Expect a clear
 * verdict without following, blocking or reading more than the cap: SV
 * for the symlink and the FIFO, RE (SIGXFSZ, the file-size limit) for
 * the sparse file, WA for the hard link (its first line, the turn
 * number, is no command).
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
