/*
 * Not an attack: run first by the harness to learn whether games are
 * sandboxed at all, before any case that would harm an unsandboxed
 * machine (fork and thread bombs, disk fill, kill(-1)). Exits 42 when it
 * runs as root, sees /home or /root, or sees more than a handful of
 * processes (no pid namespace of its own); otherwise passes.
 */
#include <ctype.h>
#include <dirent.h>
#include <unistd.h>

#include "hostile.h"

static int
processes(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL)
		n += isdigit((unsigned char)de->d_name[0]) != 0;
	closedir(d);
	return n;
}

int
main(void)
{
	char msg[64];

	if (hostile_wait() == 0)
		return 0;
	if (getuid() == 0 || geteuid() == 0)
		hostile_leak("runs as root");
	if (access("/root", F_OK) == 0 || access("/home", F_OK) == 0)
		hostile_leak("sees the host's /root or /home");
	if (processes() > 8) {
		snprintf(msg, sizeof msg, "sees %d processes", processes());
		hostile_leak(msg);
	}
	hostile_pass_forever();
}
