/*
 * Case 23: on its first call knocks on kernel attack surface: bpf,
 * perf_event_open, userfaultfd, kexec_load, init_module, personality,
 * open_by_handle_at, TIOCSTI on its fds (case 21, with the high-bit form
 * of CVE-2019-10063). Any success is a leak (exit 42). Expect an ordinary
 * game (EPERM/ENOSYS/ENOTTY) or SV.
 */
#define _GNU_SOURCE
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/syscall.h>

#include <fcntl.h>
#include <linux/perf_event.h>
#include <termios.h>
#include <unistd.h>

#include "hostile.h"

static void
check(long r, const char *what)
{
	if (r >= 0)
		hostile_leak(what);
}

int
main(void)
{
	struct perf_event_attr pe = { .type = PERF_TYPE_SOFTWARE,
	    .size = sizeof pe, .config = PERF_COUNT_SW_CPU_CLOCK };
	char c = 'x', handle[136] = { 0 };

	if (hostile_wait() == 0)
		return 0;
	check(syscall(SYS_bpf, 0, NULL, 0), "bpf");
	check(syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0),
	    "perf_event_open");
	check(syscall(SYS_userfaultfd, 0), "userfaultfd");
	check(syscall(SYS_kexec_load, 0, 0, NULL, 0), "kexec_load");
	check(syscall(SYS_init_module, NULL, 0, ""), "init_module");
	check(syscall(SYS_open_by_handle_at, AT_FDCWD, handle, O_RDONLY),
	    "open_by_handle_at");
	if (personality(READ_IMPLIES_EXEC) != -1 &&
	    (personality(0xffffffff) & READ_IMPLIES_EXEC))
		hostile_leak("changed its personality");
	for (int fd = 0; fd < 3; fd++) {
		check(ioctl(fd, TIOCSTI, &c), "TIOCSTI");
		check(syscall(SYS_ioctl, fd, TIOCSTI | (1UL << 32), &c),
		    "TIOCSTI with high bits");
	}
	hostile_pass_forever();
}
