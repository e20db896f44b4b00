/*
 * tree: folder copies made and removed through directory descriptors.
 * Copies are owned by the uid given (the sandbox's files uid), so what
 * the bot may change is exactly its copy; the source is only read.
 */
#include "common/tree.h"

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

/* Deeper trees are refused: no entry needs them, a hostile build might. */
#define TREE_MAX_DEPTH 32

struct copy {
	uid_t uid;
	gid_t gid;
	const char *top;	/* the source, for messages */
};

static int copy_dir(const struct copy *c, int from, int to, int depth);

static int
copy_file(const struct copy *c, int from, int to, const char *name,
    mode_t mode)
{
	char buf[65536];
	ssize_t n = 0;
	int in, out, rc = -1;

	in = openat(from, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC);
	if (in == -1)
		return log_errno("cannot open '%s' in '%s'", name, c->top);
	out = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, mode & 0777);
	if (out == -1) {
		log_errno("cannot create a copy of '%s'", name);
		goto out;
	}
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	if (n != 0) {
		log_errno("cannot copy '%s' from '%s'", name, c->top);
		goto out;
	}
	if (fchown(out, c->uid, c->gid) == -1 ||
	    fchmod(out, mode & 0777) == -1) {
		log_errno("cannot hand over the copy of '%s'", name);
		goto out;
	}
	rc = 0;
out:
	close(in);
	if (out != -1)
		close(out);
	return rc;
}

static int
copy_link(const struct copy *c, int from, int to, const char *name)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(from, name, target, sizeof target - 1);

	if (n == -1)
		return log_errno("cannot read link '%s' in '%s'", name, c->top);
	target[n] = '\0';
	if (symlinkat(target, to, name) == -1 ||
	    fchownat(to, name, c->uid, c->gid, AT_SYMLINK_NOFOLLOW) == -1)
		return log_errno("cannot copy link '%s'", name);
	return 0;
}

static int
copy_subdir(const struct copy *c, int from, int to, const char *name,
    mode_t mode, int depth)
{
	int sub_from = -1, sub_to = -1, rc = -1;

	if (mkdirat(to, name, 0700) == -1)
		return log_errno("cannot create a copy of folder '%s'", name);
	sub_from = openat(from, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	sub_to = openat(to, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (sub_from == -1 || sub_to == -1) {
		log_errno("cannot open folder '%s' in '%s'", name, c->top);
		goto out;
	}
	if (copy_dir(c, sub_from, sub_to, depth + 1) == -1)
		goto out;
	if (fchown(sub_to, c->uid, c->gid) == -1 ||
	    fchmod(sub_to, (mode & 0777) | 0700) == -1) {
		log_errno("cannot hand over the copy of folder '%s'", name);
		goto out;
	}
	rc = 0;
out:
	if (sub_from != -1)
		close(sub_from);
	if (sub_to != -1)
		close(sub_to);
	return rc;
}

static int
copy_entry(const struct copy *c, int from, int to, const char *name,
    int depth)
{
	struct stat st;

	if (fstatat(from, name, &st, AT_SYMLINK_NOFOLLOW) == -1)
		return log_errno("cannot stat '%s' in '%s'", name, c->top);
	if (S_ISREG(st.st_mode))
		return copy_file(c, from, to, name, st.st_mode);
	if (S_ISLNK(st.st_mode))
		return copy_link(c, from, to, name);
	if (S_ISDIR(st.st_mode))
		return copy_subdir(c, from, to, name, st.st_mode, depth);
	log_warn("not copying '%s' in '%s': not a file, folder or link",
	    name, c->top);
	return 0;
}

static int
copy_dir(const struct copy *c, int from, int to, int depth)
{
	struct dirent *de;
	DIR *d;
	int rc = 0, fd;

	if (depth > TREE_MAX_DEPTH)
		return log_error("'%s' is nested over %d folders deep", c->top,
		    TREE_MAX_DEPTH);
	if ((fd = dup(from)) == -1 || (d = fdopendir(fd)) == NULL) {
		if (fd != -1)
			close(fd);
		return log_errno("cannot list '%s'", c->top);
	}
	while (rc == 0 && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			rc = copy_entry(c, from, to, de->d_name, depth);
	closedir(d);
	return rc;
}

int
tree_copy(const char *src, const char *dst, uid_t uid, gid_t gid)
{
	struct copy c = { .uid = uid, .gid = gid, .top = src };
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
	if (copy_dir(&c, from, to, 0) == -1)
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
