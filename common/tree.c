/*
 * tree: folder copies made and removed through directory descriptors.
 * Copies are owned by the uid given (the sandbox's files uid), so what
 * the bot may change is exactly its copy; the source is only read. The
 * walker (tree_copy_at) is also the sandbox's: its pid 1 fills the
 * private /box with it, so it reports through a hook and never logs or
 * allocates (getdents64 rather than opendir).
 */
#include "common/tree.h"

#include <sys/sendfile.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"

/* One copy in progress. */
struct walk {
	uid_t uid;
	gid_t gid;
	tree_hook *hook;
	void *ctx;
	char path[PATH_MAX];	/* the entry being copied, for the hook */
};

static int copy_dir(struct walk *w, int from, int to, int depth);
static int remove_at(int dir, const char *name, int depth);

static int
copy_data(int from, int to)
{
	static char buf[1 << 16];
	ssize_t n;

	while ((n = sendfile(to, from, NULL, 1 << 30)) > 0)
		;
	if (n == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	while ((n = read(from, buf, sizeof buf)) > 0)
		if (write(to, buf, (size_t)n) != n)
			return -1;
	return n < 0 ? -1 : 0;
}

/* Each returns 0, or -1 with errno; -2 when an entry inside failed (the
 * hook has been told). */
static int
copy_file(struct walk *w, int from, int to, const char *name, mode_t mode)
{
	struct stat st;
	int in = openat(from, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC), out = -1, rc = -1;

	if (in == -1 || fstat(in, &st) == -1)
		goto out;
	errno = EINVAL;		/* swapped for something else meanwhile */
	if (!S_ISREG(st.st_mode))
		goto out;
	out = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (out != -1 && copy_data(in, out) == 0 &&
	    fchown(out, w->uid, w->gid) == 0 && fchmod(out, mode & 0777) == 0)
		rc = 0;
out:
	if (in != -1)
		close(in);
	if (out != -1)
		close(out);
	return rc;
}

static int
copy_link(struct walk *w, int from, int to, const char *name)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(from, name, target, sizeof target - 1);

	if (n == -1)
		return -1;
	target[n] = '\0';
	if (symlinkat(target, to, name) == -1 ||
	    fchownat(to, name, w->uid, w->gid, AT_SYMLINK_NOFOLLOW) == -1)
		return -1;
	return 0;
}

static int
copy_subdir(struct walk *w, int from, int to, const char *name,
    mode_t mode, int depth)
{
	int sub_from = -1, sub_to = -1, rc = -1;

	errno = ELOOP;
	if (depth + 1 >= TREE_MAX_DEPTH || mkdirat(to, name, 0700) == -1)
		return -1;
	sub_from = openat(from, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	sub_to = openat(to, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (sub_from != -1 && sub_to != -1 &&
	    copy_dir(w, sub_from, sub_to, depth + 1) == -1)
		rc = -2;
	else if (sub_from != -1 && sub_to != -1 &&
	    fchown(sub_to, w->uid, w->gid) == 0 &&
	    fchmod(sub_to, mode & 01777) == 0)
		rc = 0;
	if (sub_from != -1)
		close(sub_from);
	if (sub_to != -1)
		close(sub_to);
	return rc;
}

/* One entry of a folder, named in w->path while it is copied. */
static int
copy_entry(struct walk *w, int from, int to, const char *name, int depth)
{
	size_t len = strlen(w->path);
	struct stat st;
	int rc = 0;

	snprintf(w->path + len, sizeof w->path - len, "%s%s", len ? "/" : "",
	    name);
	if (fstatat(from, name, &st, AT_SYMLINK_NOFOLLOW) == -1)
		rc = -1;
	else if (S_ISREG(st.st_mode))
		rc = copy_file(w, from, to, name, st.st_mode);
	else if (S_ISDIR(st.st_mode))
		rc = copy_subdir(w, from, to, name, st.st_mode, depth);
	else if (S_ISLNK(st.st_mode))
		rc = copy_link(w, from, to, name);
	else
		w->hook(w->ctx, w->path, 0);
	if (rc == -1)
		w->hook(w->ctx, w->path, errno);
	w->path[len] = '\0';
	return rc < 0 ? -1 : 0;
}

static int
copy_dir(struct walk *w, int from, int to, int depth)
{
	char buf[2048];
	ssize_t n;

	while ((n = getdents64(from, buf, sizeof buf)) > 0)
		for (ssize_t off = 0; off < n; ) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);

			off += d->d_reclen;
			if (strcmp(d->d_name, ".") != 0 &&
			    strcmp(d->d_name, "..") != 0 &&
			    copy_entry(w, from, to, d->d_name, depth) == -1)
				return -1;
		}
	if (n == -1)
		w->hook(w->ctx, w->path, errno);
	return n == -1 ? -1 : 0;
}

int
tree_copy_at(int from, int to, uid_t uid, gid_t gid, tree_hook *hook,
    void *ctx)
{
	static struct walk w;	/* its path is too big for a child's stack */

	w = (struct walk){ .uid = uid, .gid = gid, .hook = hook, .ctx = ctx };
	return copy_dir(&w, from, to, 0);
}

/* Empties folder dir (deeper than TREE_MAX_DEPTH: refused). */
static int
empty_dir(int dir, int depth)
{
	char buf[2048];
	ssize_t n;

	if (depth >= TREE_MAX_DEPTH)
		return log_error("cannot remove a folder nested over %d deep",
		    TREE_MAX_DEPTH);
	while ((n = getdents64(dir, buf, sizeof buf)) > 0)
		for (ssize_t off = 0; off < n; ) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);

			off += d->d_reclen;
			if (strcmp(d->d_name, ".") != 0 &&
			    strcmp(d->d_name, "..") != 0 &&
			    remove_at(dir, d->d_name, depth + 1) == -1)
				return -1;
		}
	return n == -1 ? log_errno("cannot list a folder to remove") : 0;
}

static int
remove_at(int dir, const char *name, int depth)
{
	int sub, rc;

	if (unlinkat(dir, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR)
		return log_errno("cannot remove '%s'", name);
	sub = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (sub == -1)
		return log_errno("cannot open folder '%s'", name);
	rc = empty_dir(sub, depth);
	close(sub);
	if (rc == 0 && unlinkat(dir, name, AT_REMOVEDIR) == -1)
		return log_errno("cannot remove folder '%s'", name);
	return rc;
}

int
tree_remove_at(int dir, const char *name)
{
	return remove_at(dir, name, 0);
}

/* tree_copy()'s hook: ctx is the source, for messages. */
static void
log_hook(void *ctx, const char *path, int err)
{
	if (err == 0)
		log_warn("not copying '%s' in '%s': not a file, folder or link",
		    path, (const char *)ctx);
	else
		log_error("cannot copy '%s' in '%s': %s", *path ? path : ".",
		    (const char *)ctx, strerror(err));
}

int
tree_copy(const char *src, const char *dst, uid_t uid, gid_t gid)
{
	int from = -1, to = -1, rc = -1;

	from = open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (from == -1)
		return log_errno("cannot open folder '%s'", src);
	if (mkdir(dst, 0700) == -1) {
		log_errno("cannot create '%s'", dst);
		goto out;
	}
	to = open(dst, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (to == -1) {
		log_errno("cannot open folder '%s'", dst);
		goto out;
	}
	if (tree_copy_at(from, to, uid, gid, log_hook, (void *)src) == -1)
		goto out;
	if (fchown(to, uid, gid) == -1 || fchmod(to, 0755) == -1) {
		log_errno("cannot hand over '%s'", dst);
		goto out;
	}
	rc = 0;
out:
	close(from);
	if (to != -1)
		close(to);
	return rc;
}

static int
remove_entry(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) == -1 &&
	    errno != ENOENT)
		return log_errno("cannot remove '%s'", path);
	return 0;
}

int
tree_remove(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == -1 && errno == ENOENT)
		return 0;
	return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}
