/*
 * Case 20: on its first call tries to gain ground: ptrace attach to every
 * process it can see, process_vm_readv on them, unshare a user
 * namespace, mount, chroot, setuid(0). Any success is a leak (exit 42).
 * Expect an ordinary game (EPERM), or SV when a rule kills instead.
 */
#define _GNU_SOURCE
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

#include <ctype.h>
#include <dirent.h>
#include <sched.h>
#include <unistd.h>

#include "hostile.h"

static void
try_process(pid_t pid)
{
	char buf[16], msg[128];
	struct iovec local = { buf, sizeof buf }, remote = { (void *)0x400000,
	    sizeof buf };

	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) == 0) {
		snprintf(msg, sizeof msg, "ptrace attached to pid %d", pid);
		hostile_leak(msg);
	}
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) > 0) {
		snprintf(msg, sizeof msg, "read the memory of pid %d", pid);
		hostile_leak(msg);
	}
}

int
main(void)
{
	DIR *d;
	struct dirent *de;

	if (hostile_wait() == 0)
		return 0;
	if ((d = opendir("/proc")) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (isdigit((unsigned char)de->d_name[0]) &&
			    atoi(de->d_name) != getpid())
				try_process(atoi(de->d_name));
		closedir(d);
	}
	if (unshare(CLONE_NEWUSER) == 0)
		hostile_leak("unshared a user namespace");
	if (mount("none", "/tmp", "tmpfs", 0, NULL) == 0)
		hostile_leak("mounted a tmpfs");
	if (chroot("/tmp") == 0)
		hostile_leak("chrooted");
	if (setuid(0) == 0 && getuid() == 0)
		hostile_leak("runs as root");
	hostile_pass_forever();
}
