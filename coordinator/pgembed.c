/*
 * pgembed: a private PostgreSQL cluster for single-machine runs.
 *
 * Layout of a cluster folder dir (made 0700, owned by the server's user):
 *	dir/data/	PGDATA (initdb); data/arena.conf holds our settings
 *	dir/.s.PGSQL.5432	the unix socket (no TCP at all)
 *	dir/lock	flock()ed while a process initialises or starts it
 *	dir/initdb.log, dir/server.log
 * A unix socket path is limited to 107 bytes; when dir is too long (or
 * holds characters postgresql.conf lists cannot take) the socket goes to
 * a mkdtemp() folder under /tmp whose name is kept in dir/socket_dir.
 *
 * PostgreSQL refuses to run as root, so as root every server program runs
 * in a child that has switched to the "postgres" user, and the folder is
 * chowned to it. The superuser of our clusters is always "arena", so the
 * conninfo does not depend on who started it.
 */
#include "coordinator/pgembed.h"

#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/tree.h"
#include "coordinator/db.h"

#define PG_PORT "5432"
#define PG_SOCKET_NAME "/.s.PGSQL." PG_PORT
#define PG_SERVER_USER "postgres"
#define PG_SUPERUSER "arena"
#define PG_DATABASE "arena"

/* One cluster being worked on: where it is and who runs its programs. */
struct cluster {
	char *dir;		/* absolute cluster folder */
	char *data;		/* dir/data */
	char *bindir;		/* PostgreSQL's server programs */
	char *sockdir;		/* where the socket lives */
	bool drop;		/* run programs as uid/gid (we are root) */
	uid_t uid;
	gid_t gid;
};

static bool
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "15" -> 15000, "9.6" -> 9006: Debian names its folders by version. */
static long
version_rank(const char *name)
{
	char *end;
	long major = strtol(name, &end, 10), minor = 0;

	if (end == name)
		return -1;
	if (*end == '.')
		minor = strtol(end + 1, &end, 10);
	return *end == '\0' ? major * 1000 + minor : -1;
}

static char *
bindir_debian(void)
{
	DIR *d = opendir("/usr/lib/postgresql");
	struct dirent *de;
	char *best = NULL;
	long best_rank = -1;

	if (d == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		long rank = version_rank(de->d_name);
		char *bin, *ctl;

		if (rank <= best_rank)
			continue;
		bin = xasprintf("/usr/lib/postgresql/%s/bin", de->d_name);
		ctl = xasprintf("%s/pg_ctl", bin);
		if (is_file(ctl) && access(ctl, X_OK) == 0) {
			free(best);
			best = bin;
			best_rank = rank;
		} else {
			free(bin);
		}
		free(ctl);
	}
	closedir(d);
	return best;
}

static char *
bindir_path(void)
{
	const char *path = getenv("PATH");
	char *copy, *p, *dir, *found = NULL;

	if (path == NULL)
		return NULL;
	copy = xstrdup(path);
	for (p = copy; found == NULL && (dir = strsep(&p, ":")) != NULL;) {
		char *ctl = xasprintf("%s/pg_ctl", *dir ? dir : ".");
		char *init = xasprintf("%s/initdb", *dir ? dir : ".");

		if (*dir == '/' && access(ctl, X_OK) == 0 &&
		    access(init, X_OK) == 0)
			found = xstrdup(dir);
		free(ctl);
		free(init);
	}
	free(copy);
	return found;
}

/* $ARENA_PG_BIN, else the highest Debian version, else $PATH. */
static int
find_bindir(char **bindir)
{
	const char *env = getenv("ARENA_PG_BIN");

	if (env && *env) {
		*bindir = xstrdup(env);
		return 0;
	}
	*bindir = bindir_debian();
	if (*bindir == NULL)
		*bindir = bindir_path();
	if (*bindir == NULL)
		return log_error("PostgreSQL server not found; install the "
		    "postgresql package (or set ARENA_PG_BIN)");
	return 0;
}

/* In the child: never returns. Output goes to log_path (or nowhere). */
static void
child_exec(const struct cluster *c, const char *log_path, char *const argv[])
{
	int null = open("/dev/null", O_RDWR);
	int out = log_path ? open(log_path, O_WRONLY | O_CREAT | O_APPEND,
	    0600) : null;

	if (null < 0 || out < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(out, 2) < 0)
		_exit(127);
	if (log_path && c->drop && fchown(1, c->uid, c->gid) < 0)
		_exit(127);
	if (c->drop && (setgroups(1, &c->gid) < 0 || setgid(c->gid) < 0 ||
	    setuid(c->uid) < 0)) {
		dprintf(2, "cannot switch to user '%s': %s\n", PG_SERVER_USER,
		    strerror(errno));
		_exit(127);
	}
	/* The server outlives us: it must not keep our descriptors (a
	 * client's sockets, locks) open. */
	close_range(3, ~0U, 0);
	if (chdir(c->dir) < 0)
		_exit(127);
	/* Our arguments say everything; the caller's PG* settings must not
	 * point the tools elsewhere. */
	unsetenv("PGDATA");
	unsetenv("PGOPTIONS");
	unsetenv("PGSERVICE");
	unsetenv("PGSERVICEFILE");
	setenv("LC_ALL", "C", 1);
	execv(argv[0], argv);
	dprintf(2, "cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Runs bindir/argv[0] with argv[1..]; returns its exit status (0-255), or
 * -1 when it could not run or was killed. */
static int
run(const struct cluster *c, const char *log_path, const char **argv)
{
	char *prog = xasprintf("%s/%s", c->bindir, argv[0]);
	const char *args[32];
	size_t n = 0;
	int status;
	pid_t pid;

	args[n++] = prog;
	for (size_t i = 1; argv[i] && n + 1 < sizeof args / sizeof args[0]; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	pid = fork();
	if (pid < 0) {
		free(prog);
		return log_errno("cannot fork for '%s'", argv[0]);
	}
	if (pid == 0)
		child_exec(c, log_path, (char *const *)args);
	free(prog);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return log_errno("cannot wait for '%s'", argv[0]);
	if (!WIFEXITED(status))
		return log_error("'%s' was killed by signal %d", argv[0],
		    WTERMSIG(status));
	return WEXITSTATUS(status);
}

/* Copies the last lines of a log to our error stream, so a failed initdb
 * or start says why without sending the user to look. */
static void
show_log(const char *path)
{
	FILE *f = fopen(path, "r");
	char lines[10][512];
	size_t n = 0;

	if (f == NULL)
		return;
	while (fgets(lines[n % 10], sizeof lines[0], f))
		n++;
	fclose(f);
	for (size_t i = n > 10 ? n - 10 : 0; i < n; i++)
		fprintf(stderr, "  %s: %s", path, lines[i % 10]);
}

static int
make_owned_dir(const struct cluster *c, const char *path)
{
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return log_errno("cannot create '%s'", path);
	if (c->drop && chown(path, c->uid, c->gid) < 0)
		return log_errno("cannot give '%s' to user '%s'", path,
		    PG_SERVER_USER);
	if (chmod(path, 0700) < 0)
		return log_errno("cannot chmod '%s'", path);
	return 0;
}

/* Characters a unix_socket_directories entry cannot hold unquoted. */
static bool
conf_safe(const char *s)
{
	return strpbrk(s, ",'\"\\ \t\n") == NULL;
}

static int
socket_dir_fallback(struct cluster *c)
{
	char *record = xasprintf("%s/socket_dir", c->dir);
	char line[PATH_MAX], tmpl[] = "/tmp/arena-pg-XXXXXX";
	FILE *f = fopen(record, "r");
	int ret = -1;

	if (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '/' && is_dir(line)) {
			c->sockdir = xstrdup(line);
			ret = 0;
		}
	}
	if (f)
		fclose(f);
	if (ret == 0)
		goto out;
	if (mkdtemp(tmpl) == NULL) {
		log_errno("cannot create a socket folder in /tmp");
		goto out;
	}
	if (make_owned_dir(c, tmpl) < 0)
		goto out;
	f = fopen(record, "w");
	if (f == NULL || fprintf(f, "%s\n", tmpl) < 0 || fclose(f) != 0) {
		log_errno("cannot write '%s'", record);
		goto out;
	}
	c->sockdir = xstrdup(tmpl);
	ret = 0;
out:
	free(record);
	return ret;
}

static int
socket_dir(struct cluster *c)
{
	struct sockaddr_un sun;

	if (strlen(c->dir) + strlen(PG_SOCKET_NAME) < sizeof sun.sun_path &&
	    conf_safe(c->dir)) {
		c->sockdir = xstrdup(c->dir);
		return 0;
	}
	return socket_dir_fallback(c);
}

static void
cluster_release(struct cluster *c)
{
	free(c->dir);
	free(c->data);
	free(c->bindir);
	free(c->sockdir);
}

static int
cluster_init(struct cluster *c, const char *dir, bool create)
{
	char real[PATH_MAX];

	memset(c, 0, sizeof *c);
	if (geteuid() == 0) {
		struct passwd *pw = getpwnam(PG_SERVER_USER);

		if (pw == NULL)
			return log_error("running as root needs a '%s' user to "
			    "run PostgreSQL; install the postgresql package",
			    PG_SERVER_USER);
		c->drop = true;
		c->uid = pw->pw_uid;
		c->gid = pw->pw_gid;
	}
	if (create && mkdir(dir, 0700) < 0 && errno != EEXIST)
		return log_errno("cannot create '%s'", dir);
	if (realpath(dir, real) == NULL)
		return log_errno("cannot resolve '%s'", dir);
	c->dir = xstrdup(real);
	c->data = xasprintf("%s/data", real);
	if (find_bindir(&c->bindir) < 0)
		return -1;
	return 0;
}

static int
lock_cluster(const struct cluster *c)
{
	char *path = xasprintf("%s/lock", c->dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd < 0) {
		log_errno("cannot open '%s'", path);
	} else if (flock(fd, LOCK_EX) < 0) {
		log_errno("cannot lock '%s'", path);
		close(fd);
		fd = -1;
	}
	free(path);
	return fd;
}

/* initdb into dir/data; a folder left by an initdb that did not finish
 * (no PG_VERSION) is removed first, since initdb wants it empty. */
static int
initdb(const struct cluster *c)
{
	char *log = xasprintf("%s/initdb.log", c->dir);
	char *conf = xasprintf("%s/postgresql.conf", c->data);
	const char *argv[] = { "initdb", "-D", c->data, "-U", PG_SUPERUSER,
	    "-E", "UTF8", "--no-locale", "--auth-local=trust",
	    "--auth-host=reject", NULL };
	FILE *f = NULL;
	int ret = -1;

	if (is_dir(c->data) && tree_remove(c->data) < 0) {
		log_error("cannot remove the unfinished cluster '%s'", c->data);
		goto out;
	}
	log_info("initialising PostgreSQL in '%s'", c->data);
	if (run(c, log, argv) != 0) {
		show_log(log);
		log_error("initdb failed in '%s'; see '%s'", c->data, log);
		goto out;
	}
	f = fopen(conf, "a");
	if (f == NULL || fprintf(f, "\ninclude_if_exists = 'arena.conf'\n") < 0
	    || fclose(f) != 0) {
		log_errno("cannot write '%s'", conf);
		goto out;
	}
	ret = 0;
out:
	free(log);
	free(conf);
	return ret;
}

/* Rewritten before each start: the socket folder may have moved. */
static int
write_conf(const struct cluster *c)
{
	char *path = xasprintf("%s/arena.conf", c->data);
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (f == NULL || fprintf(f, "# written by arena at each start\n"
	    "listen_addresses = ''\nport = %s\n"
	    "unix_socket_directories = '%s'\n", PG_PORT, c->sockdir) < 0) {
		ret = log_errno("cannot write '%s'", path);
	}
	if (f && fclose(f) != 0 && ret == 0)
		ret = log_errno("cannot write '%s'", path);
	if (ret == 0 && c->drop && chown(path, c->uid, c->gid) < 0)
		ret = log_errno("cannot give '%s' to user '%s'", path,
		    PG_SERVER_USER);
	free(path);
	return ret;
}

static int
server_start(const struct cluster *c)
{
	char *log = xasprintf("%s/server.log", c->dir);
	const char *status[] = { "pg_ctl", "status", "-s", "-D", c->data,
	    NULL };
	const char *start[] = { "pg_ctl", "start", "-w", "-t", "120", "-s",
	    "-D", c->data, "-l", log, NULL };
	int ret = 0;

	if (run(c, NULL, status) == 0)
		goto out;	/* already running: reuse it */
	if (write_conf(c) < 0) {
		ret = -1;
		goto out;
	}
	if (run(c, NULL, start) != 0) {
		show_log(log);
		ret = log_error("cannot start PostgreSQL in '%s'; see '%s'",
		    c->data, log);
	}
out:
	free(log);
	return ret;
}

/* Creates database "arena" unless it exists; after a crash between initdb
 * and createdb the cluster exists without it. */
static int
ensure_database(const struct cluster *c)
{
	const char *probe[] = { "psql", "-X", "-q", "-h", c->sockdir, "-p",
	    PG_PORT, "-U", PG_SUPERUSER, "-d", PG_DATABASE, "-c", "", NULL };
	const char *create[] = { "createdb", "-h", c->sockdir, "-p", PG_PORT,
	    "-U", PG_SUPERUSER, PG_DATABASE, NULL };
	char *log = xasprintf("%s/initdb.log", c->dir);
	int ret = 0;

	if (run(c, NULL, probe) != 0 && run(c, log, create) != 0) {
		show_log(log);
		ret = log_error("cannot create database '%s' in '%s'",
		    PG_DATABASE, c->data);
	}
	free(log);
	return ret;
}

/* libpq conninfo value: single-quoted, with ' and \ escaped. */
static char *
conninfo_quote(const char *s)
{
	char *out = xmalloc(2 * strlen(s) + 3), *p = out;

	*p++ = '\'';
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			*p++ = '\\';
		*p++ = *s;
	}
	*p++ = '\'';
	*p = '\0';
	return out;
}

int
pgembed_start(const char *dir, char **conninfo)
{
	struct cluster c;
	char *version = NULL, *host;
	int lock = -1, ret = -1;

	if (cluster_init(&c, dir, true) < 0)
		goto out;
	if (make_owned_dir(&c, c.dir) < 0)
		goto out;
	/* Two arena processes starting at once: one initialises, the other
	 * waits here and then finds the cluster running. */
	lock = lock_cluster(&c);
	if (lock < 0 || socket_dir(&c) < 0)
		goto out;
	version = xasprintf("%s/PG_VERSION", c.data);
	if (!is_file(version) && initdb(&c) < 0)
		goto out;
	if (server_start(&c) < 0 || ensure_database(&c) < 0)
		goto out;
	host = conninfo_quote(c.sockdir);
	*conninfo = xasprintf("host=%s port=%s user=%s dbname=%s", host,
	    PG_PORT, PG_SUPERUSER, PG_DATABASE);
	free(host);
	ret = 0;
out:
	if (lock >= 0)
		close(lock);
	free(version);
	cluster_release(&c);
	return ret;
}

int
pgembed_stop(const char *dir)
{
	struct cluster c;
	char *version = NULL;
	int ret = 0;

	if (!is_dir(dir))
		return 0;
	if (cluster_init(&c, dir, false) < 0) {
		ret = -1;
		goto out;
	}
	version = xasprintf("%s/PG_VERSION", c.data);
	if (is_file(version)) {
		const char *status[] = { "pg_ctl", "status", "-s", "-D",
		    c.data, NULL };
		const char *stop[] = { "pg_ctl", "stop", "-s", "-w", "-m",
		    "fast", "-D", c.data, NULL };

		if (run(&c, NULL, status) == 0 && run(&c, NULL, stop) != 0)
			ret = log_error("cannot stop PostgreSQL in '%s'",
			    c.data);
	}
out:
	free(version);
	cluster_release(&c);
	return ret;
}

char *
pgembed_data_dir(const char *dir)
{
	const char *env = getenv("ARENA_DATA"), *home;

	if (dir && *dir)
		return xstrdup(dir);
	if (env && *env)
		return xstrdup(env);
	if (geteuid() == 0)
		return xstrdup("/var/lib/arena");
	home = getenv("HOME");
	if (home == NULL || *home == '\0') {
		struct passwd *pw = getpwuid(geteuid());

		home = pw ? pw->pw_dir : "/tmp";
	}
	return xasprintf("%s/.local/share/arena", home);
}

/* mkdir -p; as root the folders stay 0755 so the server's user can walk
 * through them to its own cluster folder. */
static int
make_path(const char *path)
{
	char *copy = xstrdup(path);
	mode_t mode = geteuid() == 0 ? 0755 : 0700;

	for (char *p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, mode) < 0 && errno != EEXIST) {
			log_errno("cannot create '%s'", copy);
			free(copy);
			return -1;
		}
		*p = '/';
	}
	free(copy);
	if (mkdir(path, mode) < 0 && errno != EEXIST)
		return log_errno("cannot create '%s'", path);
	return 0;
}

int
pgembed_resolve(const char *db_url, const char *data_dir, char **conninfo)
{
	const char *env = getenv("ARENA_DB");
	char *data, *cluster;
	int ret;

	if (db_url && *db_url) {
		*conninfo = xstrdup(db_url);
		return 0;
	}
	if (env && *env) {
		*conninfo = xstrdup(env);
		return 0;
	}
	data = pgembed_data_dir(data_dir);
	cluster = xasprintf("%s/pg", data);
	ret = make_path(data);
	if (ret == 0)
		ret = pgembed_start(cluster, conninfo);
	free(cluster);
	free(data);
	return ret;
}

struct db *
pgembed_connect(const char *db_url, const char *data_dir)
{
	struct db *db = NULL;
	char *conninfo;

	if (pgembed_resolve(db_url, data_dir, &conninfo) < 0)
		return NULL;
	db = db_open(conninfo);
	free(conninfo);
	return db;
}
