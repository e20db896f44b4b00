/*
 * rootfs: builds the sandbox's private root, in the child, as root of its
 * own user and mount namespaces.
 *
 * A small tmpfs becomes /, holding read-only binds of /usr (and of /bin,
 * /lib* where they are not merged-usr symlinks), a minimal /etc (the
 * loader cache, nsswitch, localtime and alternatives bound read-only; our
 * own passwd, group and hosts, which name no host account), /dev with
 * null, zero, full, random and urandom only, a fresh /proc of the
 * sandbox's pid namespace (only its processes, no /proc/sys). Then
 * pivot_root, the old root is detached, and / is made read-only: this
 * much can be done before the command is known (rootfs_prepare). With
 * the command come (rootfs_finish) a size-limited /tmp, and at /box
 * either the command's folder read-write or a size-limited tmpfs holding
 * a copy of it, both mounted on folders of the read-only root.
 * Everything is nosuid and nodev (the five device binds aside).
 *
 * Mount flags set on the host (nosuid, noexec, atime) are locked for a
 * user namespace, so each read-only remount repeats them.
 */

#include "sandbox/rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mount.h>

#include "common/tree.h"

#define ROOT ROOTFS_MOUNTPOINT
#define BOX_UID 1000		/* the command's uid inside (child.h) */

static char *err_buf;
static size_t err_size;

static int
fail(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(err_buf, err_size, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < err_size)
		snprintf(err_buf + n, err_size - n, ": %s", strerror(saved));
	return -1;
}

/* The flags of the mount at path that a user namespace may not clear. */
static unsigned long
locked_flags(const char *path)
{
	struct statvfs s;
	unsigned long f = 0;

	if (statvfs(path, &s) < 0)
		return 0;
	if (s.f_flag & ST_NOEXEC)
		f |= MS_NOEXEC;
	if (s.f_flag & ST_NOATIME)
		f |= MS_NOATIME;
	if (s.f_flag & ST_NODIRATIME)
		f |= MS_NODIRATIME;
	if (s.f_flag & ST_RELATIME)
		f |= MS_RELATIME;
	if (s.f_flag & ST_NODEV)
		f |= MS_NODEV;
	return f;
}

static int
bind(const char *src, const char *dst, unsigned long flags)
{
	if (mount(src, dst, NULL, MS_BIND, NULL) < 0)
		return fail("cannot bind '%s'", src);
	flags |= MS_BIND | MS_REMOUNT | MS_NOSUID | locked_flags(dst);
	if (mount(NULL, dst, NULL, flags, NULL) < 0)
		return fail("cannot remount '%s'", dst);
	return 0;
}

static int
make_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return fail("cannot create '%s'", path);
	ssize_t n = write(fd, text, strlen(text));
	close(fd);
	if (n != (ssize_t)strlen(text))
		return fail("cannot write '%s'", path);
	return 0;
}

static int
make_dir(const char *path, mode_t mode)
{
	if (mkdir(path, mode) < 0 && errno != EEXIST)
		return fail("cannot create '%s'", path);
	return 0;
}

/* /bin, /lib...: a symlink on merged-usr systems (copied as such), else a
 * read-only bind. */
static int
top_level(const char *name)
{
	char host[64], inside[128], target[256];
	struct stat st;

	snprintf(host, sizeof host, "/%s", name);
	snprintf(inside, sizeof inside, ROOT "/%s", name);
	if (lstat(host, &st) < 0)
		return 0;
	if (S_ISLNK(st.st_mode)) {
		ssize_t n = readlink(host, target, sizeof target - 1);
		if (n < 0)
			return fail("cannot read link '%s'", host);
		target[n] = '\0';
		if (symlink(target, inside) < 0)
			return fail("cannot create '%s'", inside);
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		return 0;
	if (make_dir(inside, 0755) < 0)
		return -1;
	return bind(host, inside, MS_RDONLY | MS_NODEV);
}

static int
bind_file(const char *host, const char *inside, unsigned long flags)
{
	if (access(host, R_OK) < 0)
		return 0;
	if (make_file(inside, "") < 0)
		return -1;
	return bind(host, inside, flags);
}

static int
build_etc(void)
{
	static const char *const files[] = {
		"ld.so.cache", "nsswitch.conf", "localtime", "host.conf",
	};
	char host[64], inside[128];

	if (make_dir(ROOT "/etc", 0755) < 0)
		return -1;
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		snprintf(host, sizeof host, "/etc/%s", files[i]);
		snprintf(inside, sizeof inside, ROOT "/etc/%s", files[i]);
		if (bind_file(host, inside, MS_RDONLY | MS_NODEV) < 0)
			return -1;
	}
	if (access("/etc/alternatives", X_OK) == 0 &&
	    (make_dir(ROOT "/etc/alternatives", 0755) < 0 ||
	    bind("/etc/alternatives", ROOT "/etc/alternatives",
	    MS_RDONLY | MS_NODEV) < 0))
		return -1;
	if (make_file(ROOT "/etc/passwd", "root:x:0:0:root:/:/bin/false\n"
	    "bot:x:1000:1000:bot:/box:/bin/sh\n") < 0 ||
	    make_file(ROOT "/etc/group", "root:x:0:\nbot:x:1000:\n") < 0 ||
	    make_file(ROOT "/etc/hosts", "127.0.0.1\tlocalhost\n"
	    "::1\tlocalhost\n") < 0 ||
	    make_file(ROOT "/etc/hostname", "arena\n") < 0)
		return -1;
	return 0;
}

static int
build_dev(void)
{
	static const char *const devices[] = {
		"null", "zero", "full", "random", "urandom",
	};
	static const char *const links[][2] = {
		{ "/proc/self/fd", "fd" }, { "/proc/self/fd/0", "stdin" },
		{ "/proc/self/fd/1", "stdout" }, { "/proc/self/fd/2", "stderr" },
		{ "/tmp", "shm" },
	};
	char host[64], inside[128];

	if (make_dir(ROOT "/dev", 0755) < 0)
		return -1;
	for (size_t i = 0; i < sizeof devices / sizeof *devices; i++) {
		snprintf(host, sizeof host, "/dev/%s", devices[i]);
		snprintf(inside, sizeof inside, ROOT "/dev/%s", devices[i]);
		if (make_file(inside, "") < 0 ||
		    bind(host, inside, MS_NOEXEC) < 0)
			return -1;
	}
	for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
		snprintf(inside, sizeof inside, ROOT "/dev/%s", links[i][1]);
		if (symlink(links[i][0], inside) < 0)
			return fail("cannot create '%s'", inside);
	}
	return 0;
}

/* The private /box is a copy of the folder (common/tree.c's walker) made
 * as root of the user namespace, so the file owner is the command and
 * the modes are the folder's, set-id bits dropped. Devices, FIFOs and
 * sockets are left out; symlinks are copied as symlinks, never followed.
 * The walker's hook names the entry that stopped it. */
static void
box_hook(void *ctx, const char *path, int err)
{
	(void)ctx;
	if (err == 0)
		return;		/* left out: not a file, folder or link */
	errno = err;
	if (*path)
		fail("cannot copy '%s' into /box", path);
	else
		fail("cannot read the folder");
}

/* tmpfs options of a size: inodes in proportion for /box (1 per 16 KB,
 * at least 4096), 4096 for /tmp. */
static void
tmpfs_opts(char *buf, size_t size, int64_t kb, bool box)
{
	snprintf(buf, size, "size=%lldk,nr_inodes=%lld", (long long)kb,
	    (long long)(box && kb / 16 > 4096 ? kb / 16 : 4096));
}

/* Gives the tmpfs at path (mounted by rootfs_prepare with the default
 * size) its size. */
static int
resize(const char *path, int64_t kb, int64_t default_kb, bool box)
{
	char opts[96];

	if (kb == default_kb)
		return 0;
	tmpfs_opts(opts, sizeof opts, kb, box);
	if (mount(NULL, path, NULL, MS_REMOUNT | MS_NOSUID | MS_NODEV,
	    opts) < 0)
		return fail("cannot size %s", path);
	return 0;
}

/* Fills the tmpfs at /box from src (closed here: the source mount goes
 * with it). */
static int
copy_box(int src, int64_t box_kb)
{
	struct stat st;
	int from = openat(src, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int to = -1, rc = -1;

	close(src);
	if (from < 0 || fstat(from, &st) < 0) {
		fail("cannot open the folder");
		goto done;
	}
	if (resize("/box", box_kb, ROOTFS_BOX_KB, true) < 0)
		goto done;
	if ((to = open("/box", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		fail("cannot open /box");
		goto done;
	}
	if (tree_copy_at(from, to, BOX_UID, BOX_UID, box_hook, NULL) < 0)
		goto done;
	if (fchown(to, BOX_UID, BOX_UID) < 0 ||
	    fchmod(to, st.st_mode & 01777) < 0) {
		fail("cannot give /box to the command");
		goto done;
	}
	rc = 0;
done:
	if (from >= 0)
		close(from);
	if (to >= 0)
		close(to);
	return rc;
}

/* /proc of the sandbox's pid namespace, and /tmp and /box as tmpfs of
 * the default sizes (rootfs_finish resizes them, or replaces /box). */
static int
build_special(void)
{
	unsigned long fl = MS_NOSUID | MS_NODEV;
	char opts[96];

	if (make_dir(ROOT "/tmp", 0755) < 0 ||
	    make_dir(ROOT "/box", 0755) < 0 ||
	    make_dir(ROOT "/proc", 0555) < 0)
		return -1;
	tmpfs_opts(opts, sizeof opts - 12, ROOTFS_TMP_KB, false);
	strcat(opts, ",mode=1777");
	if (mount("tmpfs", ROOT "/tmp", "tmpfs", fl, opts) < 0)
		return fail("cannot mount /tmp");
	tmpfs_opts(opts, sizeof opts - 12, ROOTFS_BOX_KB, true);
	strcat(opts, ",mode=0700");
	if (mount("tmpfs", ROOT "/box", "tmpfs", fl, opts) < 0)
		return fail("cannot mount /box");
	if (mount("proc", ROOT "/proc", "proc", fl | MS_NOEXEC,
	    "hidepid=invisible,subset=pid") < 0 &&
	    mount("proc", ROOT "/proc", "proc", fl | MS_NOEXEC, NULL) < 0)
		return fail("cannot mount /proc");
	return 0;
}

static int
pivot(void)
{
	if (chdir(ROOT) < 0)
		return fail("cannot enter the new root");
	/* Stacks the old root on top of the new one, then detaches it. */
	if (syscall(SYS_pivot_root, ".", ".") < 0)
		return fail("cannot pivot_root");
	if (umount2(".", MNT_DETACH) < 0)
		return fail("cannot detach the old root");
	if (chdir("/") < 0)
		return fail("cannot enter /");
	if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY |
	    MS_NOSUID | MS_NODEV, NULL) < 0)
		return fail("cannot make / read-only");
	return 0;
}

int
rootfs_prepare(char *err, size_t errsize)
{
	static const char *const tops[] = {
		"bin", "sbin", "lib", "lib32", "lib64", "libx32",
	};

	err_buf = err;
	err_size = errsize;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return fail("cannot make mounts private");
	if (mount("tmpfs", ROOT, "tmpfs", MS_NOSUID | MS_NODEV,
	    "size=1m,nr_inodes=256,mode=0755") < 0)
		return fail("cannot mount the root tmpfs");
	if (make_dir(ROOT "/usr", 0755) < 0 ||
	    bind("/usr", ROOT "/usr", MS_RDONLY | MS_NODEV) < 0)
		return -1;
	for (size_t i = 0; i < sizeof tops / sizeof *tops; i++)
		if (top_level(tops[i]) < 0)
			return -1;
	if (build_etc() < 0 || build_dev() < 0 || build_special() < 0)
		return -1;
	return pivot();
}

int
rootfs_finish(int box_fd, bool keep_box, int64_t tmp_kb, int64_t box_kb,
    char *err, size_t errsize)
{
	err_buf = err;
	err_size = errsize;
	if (resize("/tmp", tmp_kb, ROOTFS_TMP_KB, false) < 0) {
		close(box_fd);
		return -1;
	}
	if (!keep_box)
		return copy_box(box_fd, box_kb);
	int rc = umount2("/box", MNT_DETACH);
	if (rc < 0)
		fail("cannot unmount the /box tmpfs");
	else if ((rc = (int)syscall(SYS_move_mount, box_fd, "", AT_FDCWD,
	    "/box", MOVE_MOUNT_F_EMPTY_PATH)) < 0)
		fail("cannot attach the folder at /box");
	close(box_fd);
	return rc < 0 ? -1 : 0;
}

int
rootfs_renew_tmp(int64_t tmp_kb, char *err, size_t errsize)
{
	char opts[96];

	err_buf = err;
	err_size = errsize;
	tmpfs_opts(opts, sizeof opts - 12, tmp_kb, false);
	strcat(opts, ",mode=1777");
	if (umount2("/tmp", MNT_DETACH) < 0)
		return fail("cannot unmount /tmp");
	if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0)
		return fail("cannot mount /tmp");
	return 0;
}
