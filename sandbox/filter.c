/*
 * filter: the seccomp filter every sandboxed command runs under.
 *
 * Default allow plus a deny list (isolate's shape): a bot needs most of
 * the kernel, and what it must never do is short. Three kinds of refusal:
 *
 * - KILL_PROCESS for calls no honest program makes inside a contest box
 *   (escaping or changing the namespaces and mounts, ptrace and its
 *   relatives, loading code into the kernel): the command dies of SIGSYS
 *   and its verdict is SV.
 * - EPERM / EAFNOSUPPORT for calls a runtime may probe and live without
 *   (fork and sched_setaffinity when processes are not allowed, keyrings,
 *   socket families other than unix, inet and netlink, terminal
 *   injection), so a program that merely tries carries on.
 * - ENOSYS for clone3 (its flags are in memory, where seccomp cannot look;
 *   glibc then falls back to clone, which we inspect) and io_uring (it
 *   reaches sockets and files around this filter; runtimes fall back).
 *
 * Any architecture but the native one (x32, i386 syscalls) kills.
 *
 * The filters are compiled to BPF once, in the worker: libseccomp's
 * seccomp_load() regenerates the program on every call, which in a freshly
 * forked child (copy-on-write faults on every page it allocates) cost
 * about 0.3 ms of each spawn. The child only hands the ready program to
 * the kernel.
 */

#include "sandbox/filter.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "common/log.h"

static struct sock_fprog compiled[2];

static const char *const killed[] = {
	"ptrace", "process_vm_readv", "process_vm_writev", "kexec_load",
	"kexec_file_load", "init_module", "finit_module", "delete_module",
	"bpf", "mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
	"open_by_handle_at", "open_tree", "move_mount", "fsopen", "fsconfig",
	"fsmount", "fspick", "mount_setattr", "reboot", "swapon", "swapoff",
	"perf_event_open",
};

static const char *const refused[] = {
	"name_to_handle_at", "keyctl", "add_key", "request_key", "quotactl",
	"acct", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
	"userfaultfd", "iopl", "ioperm", "syslog", "vhangup", "lookup_dcookie",
};

static const char *const unimplemented[] = {
	"clone3", "io_uring_setup", "io_uring_enter", "io_uring_register",
};

static const unsigned long namespace_flags[] = {
	CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
	CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET,
};

static int
rule(scmp_filter_ctx ctx, uint32_t action, const char *name,
    unsigned n, const struct scmp_arg_cmp *cmp)
{
	int nr = seccomp_syscall_resolve_name(name);

	if (nr == __NR_SCMP_ERROR)
		return 0;	/* not on this architecture */
	int rc = seccomp_rule_add_array(ctx, action, nr, n, cmp);
	if (rc < 0) {
		errno = -rc;
		return log_errno("cannot add a seccomp rule for '%s'", name);
	}
	return 0;
}

static int
add_list(scmp_filter_ctx ctx, uint32_t action, const char *const *names,
    size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (rule(ctx, action, names[i], 0, NULL) < 0)
			return -1;
	return 0;
}

static int
add_processes(scmp_filter_ctx ctx, bool processes)
{
	for (size_t i = 0; i < sizeof namespace_flags / sizeof *namespace_flags;
	    i++) {
		struct scmp_arg_cmp c = SCMP_A0(SCMP_CMP_MASKED_EQ,
		    namespace_flags[i], namespace_flags[i]);
		if (rule(ctx, SCMP_ACT_ERRNO(EPERM), "clone", 1, &c) < 0)
			return -1;
	}
	if (processes)
		return 0;
	struct scmp_arg_cmp thread = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD,
	    0);
	/* A bot is pinned to its one CPU (child.c) and may not widen it. */
	if (rule(ctx, SCMP_ACT_ERRNO(EPERM), "clone", 1, &thread) < 0 ||
	    rule(ctx, SCMP_ACT_ERRNO(EPERM), "fork", 0, NULL) < 0 ||
	    rule(ctx, SCMP_ACT_ERRNO(EPERM), "vfork", 0, NULL) < 0 ||
	    rule(ctx, SCMP_ACT_ERRNO(EPERM), "sched_setaffinity", 0, NULL) < 0)
		return -1;
	return 0;
}

/* socket and socketpair: unix, inet, inet6 and netlink only (the last
 * three are harmless in an empty network namespace); AF_VSOCK reaches the
 * VM's host and is not namespaced. */
static int
add_sockets(scmp_filter_ctx ctx)
{
	static const char *const calls[] = { "socket", "socketpair" };
	uint32_t refuse = SCMP_ACT_ERRNO(EAFNOSUPPORT);

	for (int c = 0; c < 2; c++) {
		struct scmp_arg_cmp above = SCMP_A0(SCMP_CMP_GT, AF_NETLINK);
		if (rule(ctx, refuse, calls[c], 1, &above) < 0)
			return -1;
		for (int family = 0; family < AF_NETLINK; family++) {
			if (family == AF_UNIX || family == AF_INET ||
			    family == AF_INET6)
				continue;
			struct scmp_arg_cmp eq = SCMP_A0(SCMP_CMP_EQ, family);
			if (rule(ctx, refuse, calls[c], 1, &eq) < 0)
				return -1;
		}
	}
	return 0;
}

static int
add_misc(scmp_filter_ctx ctx)
{
	/* Only the low 32 bits of the request count (CVE-2019-10063). */
	static const unsigned long ioctls[] = { TIOCSTI, TIOCLINUX };
	for (int i = 0; i < 2; i++) {
		struct scmp_arg_cmp c = SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL,
		    ioctls[i]);
		if (rule(ctx, SCMP_ACT_ERRNO(EPERM), "ioctl", 1, &c) < 0)
			return -1;
	}
	struct scmp_arg_cmp persona = SCMP_A0(SCMP_CMP_NE, 0);
	return rule(ctx, SCMP_ACT_ERRNO(EPERM), "personality", 1, &persona);
}

static scmp_filter_ctx
build(bool processes)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (!ctx) {
		log_error("cannot create a seccomp filter");
		return NULL;
	}
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS) < 0 ||
	    add_list(ctx, SCMP_ACT_KILL_PROCESS, killed,
	    sizeof killed / sizeof *killed) < 0 ||
	    add_list(ctx, SCMP_ACT_ERRNO(EPERM), refused,
	    sizeof refused / sizeof *refused) < 0 ||
	    add_list(ctx, SCMP_ACT_ERRNO(ENOSYS), unimplemented,
	    sizeof unimplemented / sizeof *unimplemented) < 0 ||
	    add_processes(ctx, processes) < 0 || add_sockets(ctx) < 0 ||
	    add_misc(ctx) < 0) {
		seccomp_release(ctx);
		return NULL;
	}
	return ctx;
}

/* The BPF program of ctx, as the kernel takes it. */
static int
compile(scmp_filter_ctx ctx, struct sock_fprog *prog)
{
	int fd = memfd_create("arena-seccomp", MFD_CLOEXEC);
	off_t size;

	if (fd < 0)
		return log_errno("cannot create a memfd for the seccomp filter");
	if (seccomp_export_bpf(ctx, fd) < 0 ||
	    (size = lseek(fd, 0, SEEK_END)) <= 0 ||
	    size % (off_t)sizeof(struct sock_filter) != 0 ||
	    size / (off_t)sizeof(struct sock_filter) > BPF_MAXINSNS) {
		close(fd);
		return log_error("cannot compile the seccomp filter");
	}
	struct sock_filter *insns = xmalloc((size_t)size);
	if (pread(fd, insns, (size_t)size, 0) != size) {
		close(fd);
		free(insns);
		return log_errno("cannot read the compiled seccomp filter");
	}
	close(fd);
	prog->len = (unsigned short)(size / (off_t)sizeof(struct sock_filter));
	prog->filter = insns;
	return 0;
}

int
filter_prepare(bool processes)
{
	if (compiled[processes].filter)
		return 0;
	scmp_filter_ctx ctx = build(processes);
	if (!ctx)
		return -1;
	int rc = compile(ctx, &compiled[processes]);
	seccomp_release(ctx);
	return rc;
}

/* Async-signal-safe: runs in the sandbox's child, after fork. */
int
filter_load(bool processes)
{
	if (!compiled[processes].filter ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0,
	    &compiled[processes]) < 0 ? -1 : 0;
}

bool
filter_available(void)
{
	/* API level 3 means the kernel has filters with KILL_PROCESS. */
	return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 &&
	    seccomp_api_get() >= 3;
}
