/*
 * build: copies an entry's folder into the worker's build cache and runs
 * its build command there, once per (folder, command) per worker.
 *
 * The cache folder's name carries a hash of the folder path and build
 * command, so a changed command builds anew. Under an exclusive flock on
 * "<folder>.lock": a stamp ".arena-built" means ready; ".arena-failed"
 * holds the detail of a failed build, reused without building again;
 * anything else is a partial copy from an interrupted run, removed and
 * redone.
 */
#include "worker/build.h"

#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"

#define STAMP_OK ".arena-built"
#define STAMP_FAILED ".arena-failed"

static uint64_t
fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;	/* ends each string */
}

static int
mkdir_p(const char *dir)
{
	if (mkdir(dir, 0755) == -1 && errno != EEXIST)
		return log_errno("cannot create '%s'", dir);
	return 0;
}

/* Runs argv in dir with stdout and stderr to log_path (NULL: inherited),
 * killing its process group after limit_ms. *status is the wait status,
 * or -1 when it ran out of time. */
static int
run(char *const argv[], const char *dir, const char *log_path,
    int64_t limit_ms, int *status)
{
	int64_t deadline = clock_now_ms() + limit_ms;
	pid_t pid;
	int fd;

	if ((pid = fork()) == -1)
		return log_errno("cannot fork");
	if (pid == 0) {
		setpgid(0, 0);
		fd = open("/dev/null", O_RDONLY);
		dup2(fd, 0);
		if (log_path) {
			fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd == -1 || dup2(fd, 1) == -1 || dup2(fd, 2) == -1)
				_exit(126);
		}
		close_range(3, ~0U, 0);
		signal(SIGPIPE, SIG_DFL);
		if (chdir(dir) == -1)
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	while (waitpid(pid, status, WNOHANG) == 0) {
		if (clock_now_ms() >= deadline) {
			kill(-pid, SIGKILL);
			waitpid(pid, status, 0);
			*status = -1;
			return 0;
		}
		usleep(10000);
	}
	kill(-pid, SIGKILL);	/* whatever it left running in the background */
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

/* Copies and builds into dir; the lock is held. *detail set on a failed
 * build. */
static int
build_locked(const struct msg_seat *seat, const char *dir, char **detail)
{
	char *rm[] = { "rm", "-rf", (char *)dir, NULL };
	char *cp[] = { "cp", "-a", seat->folder, (char *)dir, NULL };
	char *sh[] = { "sh", "-c", seat->build, NULL };
	char *log_path = xasprintf("%s/build.log", dir), *path = NULL;
	int st, rc = -1;

	if (run(rm, "/", NULL, BUILD_LIMIT_MS, &st) == -1 ||
	    run(cp, "/", NULL, BUILD_LIMIT_MS, &st) == -1)
		goto out;
	if (st != 0) {
		log_error("cannot copy '%s' to '%s'", seat->folder, dir);
		goto out;
	}
	if (seat->build && run(sh, dir, log_path, BUILD_LIMIT_MS, &st) == -1)
		goto out;
	if (seat->build && st != 0) {
		char *line = last_line(log_path);

		*detail = st == -1 ? xasprintf("build failed: over %d s: %s",
		    BUILD_LIMIT_MS / 1000, line) :
		    xasprintf("build failed: %s", line);
		free(line);
		path = xasprintf("%s/%s", dir, STAMP_FAILED);
		rc = write_small(path, *detail);
		goto out;
	}
	path = xasprintf("%s/%s", dir, STAMP_OK);
	rc = write_small(path, "");
out:
	free(path);
	free(log_path);
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
	uint64_t h = fnv1a(fnv1a(0xcbf29ce484222325ULL, seat->folder),
	    seat->build ? seat->build : "");
	char *builds = xasprintf("%s/builds", data_dir), *lock = NULL;
	char *ok = NULL, *failed = NULL;
	int fd = -1, rc = -1;

	*dir = *detail = NULL;
	*verdict = VERDICT_OK;
	if (check_name(seat->entry) == -1 || mkdir_p(data_dir) == -1 ||
	    mkdir_p(builds) == -1)
		goto out;
	*dir = xasprintf("%s/%s-%012llx", builds, seat->entry,
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
		log_info("building '%s' in '%s'", seat->entry, *dir);
		rc = build_locked(seat, *dir, detail);
	}
	if (rc == 0 && *detail)
		*verdict = VERDICT_RE;
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
