/*
 * artifact: deterministic tar archives of entry folders (libarchive) and
 * their sha256 (libcrypto). See artifact.h for what an archive holds.
 *
 * Packing walks the folder through directory descriptors opened with
 * O_NOFOLLOW, sorting each folder's names, so what is read is what is
 * named and the order does not depend on the file system. Unpacking lets
 * libarchive write to disk with its secure flags (no absolute paths, no
 * "..", no writing through a symlink, nothing overwritten) from inside the
 * destination, after our own check of each entry's type and name gives a
 * clear error for what is refused.
 */
#include "common/artifact.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>
#include <openssl/evp.h>

#include "common/log.h"

/* Deeper trees are refused: no entry needs them (as common/tree.c). */
#define ARTIFACT_MAX_DEPTH 32

/* The archive being written, in memory, bounded. */
struct out {
	char *buf;
	size_t len, cap, max;
	bool over;
};

struct pack {
	struct archive *a;
	const char *top;	/* the folder, for messages */
	struct out out;
};

static la_ssize_t
out_write(struct archive *a, void *data, const void *bytes, size_t n)
{
	struct out *o = data;

	if (n > o->max - o->len) {
		o->over = true;
		archive_set_error(a, EFBIG, "over the size limit");
		return -1;
	}
	if (o->len + n > o->cap) {
		o->cap = (o->len + n) * 2 > o->max ? o->max : (o->len + n) * 2;
		o->buf = xrealloc(o->buf, o->cap ? o->cap : 1);
	}
	memcpy(o->buf + o->len, bytes, n);
	o->len += n;
	return (la_ssize_t)n;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in fd's folder, sorted, in *names; -1 after logging. */
static int
list_dir(struct pack *p, int fd, const char *rel, char ***out, size_t *n)
{
	int dup_fd = dup(fd);
	DIR *d = dup_fd == -1 ? NULL : fdopendir(dup_fd);
	struct dirent *de;
	char **names = NULL;
	size_t cap = 0;

	*n = 0;
	if (d == NULL) {
		if (dup_fd != -1)
			close(dup_fd);
		return log_errno("cannot read '%s/%s'", p->top, rel);
	}
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			names = xrealloc(names, cap * sizeof *names);
		}
		names[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n > 0)
		qsort(names, *n, sizeof *names, cmp_names);
	*out = names;
	return 0;
}

static int pack_dir(struct pack *p, int fd, const char *rel, int depth);

static int
pack_header(struct pack *p, const char *path, const struct stat *st,
    const char *link)
{
	struct archive_entry *e = archive_entry_new();
	mode_t perm = S_ISDIR(st->st_mode) || (st->st_mode & 0111) ? 0755 :
	    0644;
	int rc = 0;

	archive_entry_set_pathname(e, path);
	archive_entry_set_filetype(e, S_ISDIR(st->st_mode) ? AE_IFDIR :
	    S_ISLNK(st->st_mode) ? AE_IFLNK : AE_IFREG);
	archive_entry_set_perm(e, S_ISLNK(st->st_mode) ? 0777 : perm);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	archive_entry_set_mtime(e, 0, 0);
	archive_entry_set_size(e, S_ISREG(st->st_mode) ? st->st_size : 0);
	if (link)
		archive_entry_set_symlink(e, link);
	if (archive_write_header(p->a, e) != ARCHIVE_OK)
		rc = p->out.over ? -1 : log_error("cannot pack '%s/%s': %s",
		    p->top, path, archive_error_string(p->a));
	archive_entry_free(e);
	return rc;
}

static int
pack_file(struct pack *p, int dir, const char *name, const char *path,
    const struct stat *st)
{
	char buf[65536];
	off_t left = st->st_size;
	ssize_t n = 0;
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC), rc = -1;

	if (fd == -1)
		return log_errno("cannot open '%s/%s'", p->top, path);
	if (pack_header(p, path, st, NULL) == -1)
		goto out;
	/* Exactly the size the header promised, even if the file grows. */
	while (left > 0 && (n = read(fd, buf, left < (off_t)sizeof buf ?
	    (size_t)left : sizeof buf)) > 0) {
		if (archive_write_data(p->a, buf, (size_t)n) != n) {
			if (!p->out.over)
				log_error("cannot pack '%s/%s': %s", p->top,
				    path, archive_error_string(p->a));
			goto out;
		}
		left -= n;
	}
	if (left > 0) {
		log_error("cannot read '%s/%s' whole%s", p->top, path,
		    n == -1 ? "" : ": it shrank while being packed");
		goto out;
	}
	rc = 0;
out:
	close(fd);
	return rc;
}

static int
pack_one(struct pack *p, int dir, const char *name, const char *rel,
    int depth)
{
	char *path = rel[0] ? xasprintf("%s/%s", rel, name) : xstrdup(name);
	char link[PATH_MAX];
	struct stat st;
	ssize_t n;
	int fd, rc = -1;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == -1) {
		log_errno("cannot read '%s/%s'", p->top, path);
		goto out;
	}
	if (S_ISREG(st.st_mode))
		rc = pack_file(p, dir, name, path, &st);
	else if (S_ISLNK(st.st_mode)) {
		if ((n = readlinkat(dir, name, link, sizeof link - 1)) == -1) {
			log_errno("cannot read link '%s/%s'", p->top, path);
			goto out;
		}
		link[n] = '\0';
		rc = pack_header(p, path, &st, link);
	} else if (S_ISDIR(st.st_mode)) {
		if ((fd = openat(dir, name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) == -1) {
			log_errno("cannot open '%s/%s'", p->top, path);
			goto out;
		}
		rc = pack_header(p, path, &st, NULL) == -1 ? -1 :
		    pack_dir(p, fd, path, depth + 1);
		close(fd);
	} else
		log_error("cannot pack '%s/%s': not a file, folder or "
		    "symlink", p->top, path);
out:
	free(path);
	return rc;
}

static int
pack_dir(struct pack *p, int fd, const char *rel, int depth)
{
	char **names = NULL;
	size_t n;
	int rc = 0;

	if (depth > ARTIFACT_MAX_DEPTH)
		return log_error("cannot pack '%s': deeper than %d folders",
		    p->top, ARTIFACT_MAX_DEPTH);
	if (list_dir(p, fd, rel, &names, &n) == -1)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (rc == 0 && pack_one(p, fd, names[i], rel, depth) == -1)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int
artifact_pack(const char *folder, size_t max, char **buf, size_t *len,
    char hex[ARTIFACT_HEX])
{
	struct pack p = { .top = folder, .out = { .max = max } };
	int fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = -1;

	*buf = NULL;
	*len = 0;
	if (fd == -1)
		return log_errno("cannot open folder '%s'", folder);
	p.a = archive_write_new();
	if (archive_write_set_format_pax_restricted(p.a) != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(p.a, 1) != ARCHIVE_OK ||
	    archive_write_open(p.a, &p.out, NULL, out_write, NULL) !=
	    ARCHIVE_OK) {
		log_error("cannot start packing '%s': %s", folder,
		    archive_error_string(p.a));
		goto out;
	}
	if (pack_dir(&p, fd, "", 0) == 0 && archive_write_close(p.a) ==
	    ARCHIVE_OK)
		rc = 0;
	else if (!p.out.over && archive_errno(p.a) != 0)
		log_error("cannot pack '%s': %s", folder,
		    archive_error_string(p.a));
out:
	if (p.out.over) {
		log_error("entry folder '%s' is over %zu bytes once packed: "
		    "too large to send to workers; leave build outputs and "
		    "data out of it", folder, max);
		rc = -1;
	}
	archive_write_free(p.a);
	close(fd);
	if (rc == -1) {
		free(p.out.buf);
		return -1;
	}
	*buf = p.out.buf ? p.out.buf : xstrdup("");
	*len = p.out.len;
	artifact_sha256(*buf, *len, hex);
	return 0;
}

void
artifact_sha256(const void *buf, size_t len, char hex[ARTIFACT_HEX])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (EVP_Digest(buf, len, md, &n, EVP_sha256(), NULL) != 1 || n != 32)
		fatal("cannot compute a sha256");
	for (unsigned i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

bool
artifact_hex_valid(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return i == ARTIFACT_HEX - 1;
}

/* --- unpacking --- */

/* Our own check first, for a clear error; libarchive checks again. */
static int
entry_refused(struct archive_entry *e, const char *dst)
{
	const char *path = archive_entry_pathname(e), *p;
	mode_t type = archive_entry_filetype(e);

	if (path == NULL || path[0] == '\0')
		return log_error("artifact for '%s' has an entry without a "
		    "name", dst);
	if (path[0] == '/')
		return log_error("artifact for '%s' has an absolute path "
		    "'%s'", dst, path);
	for (p = path; p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL)
		if (!strncmp(p, "..", 2) && (p[2] == '/' || p[2] == '\0'))
			return log_error("artifact for '%s' has a path with "
			    "'..': '%s'", dst, path);
	if (archive_entry_hardlink(e) != NULL)
		return log_error("artifact for '%s' has a hard link '%s'",
		    dst, path);
	if (type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK)
		return log_error("artifact for '%s' has '%s', not a file, "
		    "folder or symlink", dst, path);
	return 0;
}

static int
unpack_entries(struct archive *in, struct archive *out, const char *dst,
    uid_t uid, gid_t gid)
{
	struct archive_entry *e;
	const void *block;
	size_t size;
	la_int64_t offset;
	int r;

	while ((r = archive_read_next_header(in, &e)) == ARCHIVE_OK) {
		if (entry_refused(e, dst) == -1)
			return -1;
		archive_entry_set_uid(e, uid);
		archive_entry_set_gid(e, gid);
		archive_entry_set_perm(e, archive_entry_perm(e) & 0777);
		if (archive_write_header(out, e) != ARCHIVE_OK)
			return log_error("cannot unpack '%s' into '%s': %s",
			    archive_entry_pathname(e), dst,
			    archive_error_string(out));
		while ((r = archive_read_data_block(in, &block, &size,
		    &offset)) == ARCHIVE_OK)
			if (archive_write_data_block(out, block, size,
			    offset) != ARCHIVE_OK)
				return log_error("cannot unpack '%s' into "
				    "'%s': %s", archive_entry_pathname(e),
				    dst, archive_error_string(out));
		if (r != ARCHIVE_EOF || archive_write_finish_entry(out) !=
		    ARCHIVE_OK)
			return log_error("cannot unpack '%s' into '%s': %s",
			    archive_entry_pathname(e), dst,
			    archive_error_string(r != ARCHIVE_EOF ? in : out));
	}
	if (r != ARCHIVE_EOF)
		return log_error("artifact for '%s' is not a valid archive: %s",
		    dst, archive_error_string(in));
	return 0;
}

int
artifact_unpack(const void *buf, size_t len, const char *dst, uid_t uid,
    gid_t gid)
{
	int flags = ARCHIVE_EXTRACT_PERM | ARCHIVE_EXTRACT_SECURE_SYMLINKS |
	    ARCHIVE_EXTRACT_SECURE_NODOTDOT |
	    ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS |
	    ARCHIVE_EXTRACT_NO_OVERWRITE;
	struct archive *in = NULL, *out = NULL;
	int cwd = -1, rc = -1;

	if (geteuid() == 0)
		flags |= ARCHIVE_EXTRACT_OWNER;
	if (mkdir(dst, 0755) == -1)
		return log_errno("cannot create '%s'", dst);
	if (geteuid() == 0 && chown(dst, uid, gid) == -1)
		return log_errno("cannot hand over '%s'", dst);
	/* Paths stay relative to dst, so the secure flags judge only what
	 * the archive made, not the folders above it. */
	if ((cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    chdir(dst) == -1) {
		log_errno("cannot enter '%s'", dst);
		goto out;
	}
	in = archive_read_new();
	out = archive_write_disk_new();
	if (archive_read_support_format_tar(in) != ARCHIVE_OK ||
	    archive_write_disk_set_options(out, flags) != ARCHIVE_OK ||
	    archive_read_open_memory(in, buf, len) != ARCHIVE_OK) {
		log_error("artifact for '%s' is not a valid archive: %s", dst,
		    archive_error_string(in));
		goto out;
	}
	rc = unpack_entries(in, out, dst, uid, gid);
	if (rc == 0 && archive_write_close(out) != ARCHIVE_OK)
		rc = log_error("cannot finish unpacking into '%s': %s", dst,
		    archive_error_string(out));
out:
	if (cwd != -1 && fchdir(cwd) == -1)
		fatal("cannot return to the working folder");
	if (cwd != -1)
		close(cwd);
	archive_read_free(in);
	archive_write_free(out);
	return rc;
}
