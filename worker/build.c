/*
 * build: unpacks an entry's artifact (or, without one, copies its local
 * folder) into the worker's build cache and runs its build command there,
 * in the sandbox (processes allowed: compilers fork), once per (artifact,
 * command) per worker. The copy is <cache>/box, owned by the sandbox's
 * files uid; the log and the stamps sit beside it, out of the build's
 * reach.
 *
 * The cache folder's name is the artifact's sha256 and a hash of the build
 * command (without an artifact: a hash of the folder path, command and
 * the files' names, sizes and times), so a changed command builds anew. Under an exclusive flock on
 * "<folder>.lock": a stamp ".arena-built" means ready; ".arena-failed"
 * holds the detail of a failed build, reused without building again;
 * anything else is a partial copy from an interrupted run, removed and
 * redone.
 */
#include "worker/build.h"

#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/artifact.h"
#include "common/log.h"
#include "common/tree.h"
#include "sandbox/sandbox.h"

#define STAMP_OK ".arena-built"
#define STAMP_FAILED ".arena-failed"

static uint64_t
fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;	/* ends each string */
}

/* nftw has no argument for its callback: the hash being summed. */
static uint64_t tree_hash;

static int
hash_entry(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	char line[96];

	(void)flag;
	(void)ftw;
	snprintf(line, sizeof line, "%o %lld %lld.%09ld", (unsigned)st->st_mode,
	    (long long)st->st_size, (long long)st->st_mtim.tv_sec,
	    st->st_mtim.tv_nsec);
	tree_hash = fnv1a(fnv1a(tree_hash, path), line);
	return 0;
}

/* The cache key of an entry: its folder, build command, and the name,
 * mode, size and modification time of everything in the folder, so an
 * entry changed in place is built anew (as make decides). nftw walks in
 * directory order, which is stable for an unchanged folder. */
static uint64_t
entry_key(const struct msg_seat *seat)
{
	tree_hash = fnv1a(fnv1a(0xcbf29ce484222325ULL, seat->folder),
	    seat->build ? seat->build : "");
	if (nftw(seat->folder, hash_entry, 16, FTW_PHYS) == -1)
		log_warn("cannot read '%s' whole; its build may be stale",
		    seat->folder);
	return tree_hash;
}

static int
mkdir_p(const char *dir)
{
	if (mkdir(dir, 0755) == -1 && errno != EEXIST)
		return log_errno("cannot create '%s'", dir);
	return 0;
}

/* The last non-empty line of a file, at most 200 bytes; caller frees. */
static char *
last_line(const char *path)
{
	char buf[4096], *end, *start;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t size;

	if (fd != -1) {
		size = lseek(fd, 0, SEEK_END);
		size = size > (off_t)sizeof buf - 1 ? size -
		    (off_t)sizeof buf + 1 : 0;
		n = pread(fd, buf, sizeof buf - 1, size);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	end = buf + strlen(buf);
	while (end > buf && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	start = strrchr(buf, '\n') ? strrchr(buf, '\n') + 1 : buf;
	if (strlen(start) > 200)
		start[200] = '\0';
	return xstrdup(*start ? start : "no output");
}

static char *
read_small(const char *path)
{
	char buf[512];
	FILE *f = fopen(path, "re");
	size_t n;

	if (f == NULL)
		return NULL;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return xstrdup(buf);
}

static int
write_small(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (f == NULL)
		return log_errno("cannot create '%s'", path);
	fputs(text, f);
	if (fclose(f) == EOF)
		return log_errno("cannot write '%s'", path);
	return 0;
}

/* Runs the build command in the sandbox, in box, output to log_path.
 * Returns 0 with *detail NULL (built) or set (the build failed). */
static int
build_run(const char *command, const char *box, const char *log_path,
    char **detail)
{
	struct sandbox_opts o = { .dir = box, .command = command,
	    .limits = { .memory_kb = BUILD_MEMORY_MB * 1024,
	    .pids = BUILD_PIDS }, .processes = true, .keep_box = true };
	struct sandbox *sb = NULL;
	enum verdict v;
	char *why = NULL, *line;
	int rc = -1;

	o.in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	o.out = o.err = open(log_path, O_WRONLY | O_CREAT | O_TRUNC |
	    O_CLOEXEC, 0644);
	if (o.in == -1 || o.out == -1) {
		log_errno("cannot open '%s'", log_path);
		goto out;
	}
	if ((sb = sandbox_new(&o)) == NULL ||
	    sandbox_wait(sb, BUILD_LIMIT_MS, &v, &why) == -1)
		goto out;
	if (v != VERDICT_OK) {
		line = last_line(log_path);
		*detail = v == VERDICT_TO ? xasprintf("build failed: over %d "
		    "s: %s", BUILD_LIMIT_MS / 1000, line) : xasprintf("build "
		    "failed (%s): %s", why ? why : verdict_code(v), line);
		free(line);
	}
	rc = 0;
out:
	sandbox_free(sb);
	free(why);
	if (o.in != -1)
		close(o.in);
	if (o.out != -1)
		close(o.out);
	return rc;
}

/* Reads <data>/artifacts/<sha256>.tar and checks it is what it is named
 * (a cache file damaged since it was stored is removed: fetched again by
 * the next game). Caller frees *buf. */
static int
artifact_load(const char *data_dir, const char *sha256, char **buf,
    size_t *len)
{
	char *path = xasprintf("%s/artifacts/%s.tar", data_dir, sha256);
	char hex[ARTIFACT_HEX];
	struct stat st;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = -1;

	*buf = NULL;
	if (fd == -1 || fstat(fd, &st) == -1 || st.st_size > PROTO_MAX_ARTIFACT) {
		log_errno("cannot read artifact '%s'", path);
		goto out;
	}
	*len = (size_t)st.st_size;
	*buf = xmalloc(*len + 1);
	for (size_t off = 0; off < *len; off += (size_t)n)
		if ((n = pread(fd, *buf + off, *len - off, (off_t)off)) <= 0) {
			log_errno("cannot read artifact '%s'", path);
			goto out;
		}
	artifact_sha256(*buf, *len, hex);
	if (strcmp(hex, sha256) != 0) {
		log_error("artifact '%s' is damaged (sha256 %s); removed", path,
		    hex);
		unlink(path);
		goto out;
	}
	rc = 0;
out:
	if (fd != -1)
		close(fd);
	if (rc == -1) {
		free(*buf);
		*buf = NULL;
	}
	free(path);
	return rc;
}

/* Puts the entry's files in box, owned by the sandbox's files uid. */
static int
build_fill(const char *data_dir, const struct msg_seat *seat, const char *box)
{
	char *buf;
	size_t len;
	int rc;

	if (seat->artifact == NULL)
		return tree_copy(seat->folder, box, SANDBOX_FILES_UID,
		    SANDBOX_FILES_GID);
	if (artifact_load(data_dir, seat->artifact, &buf, &len) == -1)
		return -1;
	rc = artifact_unpack(buf, len, box, SANDBOX_FILES_UID,
	    SANDBOX_FILES_GID);
	free(buf);
	return rc;
}

/* Fills dir/box with the entry and builds it there; the lock is held.
 * *detail set on a failed build. */
static int
build_locked(const char *data_dir, const struct msg_seat *seat,
    const char *dir, char **detail)
{
	char *box = xasprintf("%s/box", dir);
	char *log_path = xasprintf("%s/build.log", dir), *path = NULL;
	int rc = -1;

	if (tree_remove(dir) == -1 || mkdir_p(dir) == -1 ||
	    build_fill(data_dir, seat, box) == -1)
		goto out;
	if (seat->build && build_run(seat->build, box, log_path, detail) == -1)
		goto out;
	if (*detail) {
		path = xasprintf("%s/%s", dir, STAMP_FAILED);
		rc = write_small(path, *detail);
		goto out;
	}
	path = xasprintf("%s/%s", dir, STAMP_OK);
	rc = write_small(path, "");
out:
	free(path);
	free(log_path);
	free(box);
	return rc;
}

static int
check_name(const char *name)
{
	if (name[0] == '\0' || name[0] == '.' || strchr(name, '/'))
		return log_error("bad entry name '%s'", name);
	return 0;
}

int
build_prepare(const char *data_dir, const struct msg_seat *seat, char **dir,
    enum verdict *verdict, char **detail)
{
	uint64_t h = seat->artifact ? fnv1a(0xcbf29ce484222325ULL,
	    seat->build ? seat->build : "") : entry_key(seat);
	char *builds = xasprintf("%s/builds", data_dir), *lock = NULL;
	char *ok = NULL, *failed = NULL;
	int fd = -1, rc = -1;

	*dir = *detail = NULL;
	*verdict = VERDICT_OK;
	if (check_name(seat->entry) == -1 || mkdir_p(data_dir) == -1 ||
	    mkdir_p(builds) == -1)
		goto out;
	*dir = seat->artifact ? xasprintf("%s/%.32s-%08llx", builds,
	    seat->artifact, (unsigned long long)(h >> 32)) :
	    xasprintf("%s/%s-%012llx", builds, seat->entry,
	    (unsigned long long)(h >> 16));
	lock = xasprintf("%s.lock", *dir);
	ok = xasprintf("%s/%s", *dir, STAMP_OK);
	failed = xasprintf("%s/%s", *dir, STAMP_FAILED);
	if ((fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) == -1) {
		log_errno("cannot open '%s'", lock);
		goto out;
	}
	while (flock(fd, LOCK_EX) == -1)
		if (errno != EINTR) {
			log_errno("cannot lock '%s'", lock);
			goto out;
		}
	if (access(ok, F_OK) == 0)
		rc = 0;
	else if ((*detail = read_small(failed)) != NULL)
		rc = 0;
	else {
		log_debug("building '%s' in '%s'", seat->entry, *dir);
		rc = build_locked(data_dir, seat, *dir, detail);
	}
	if (rc == 0 && *detail)
		*verdict = VERDICT_RE;
	if (rc == 0 && *verdict == VERDICT_OK) {
		char *box = xasprintf("%s/box", *dir);

		free(*dir);
		*dir = box;
	}
out:
	if (fd != -1)
		close(fd);	/* releases the lock */
	if (rc == -1 || *verdict != VERDICT_OK) {
		free(*dir);
		*dir = NULL;
	}
	if (rc == -1) {
		free(*detail);
		*detail = NULL;
	}
	free(builds);
	free(lock);
	free(ok);
	free(failed);
	return rc;
}
