/*
 * cgroup: per-slot control groups for the sandbox.
 *
 * v1 (what these workers have): one group per slot in each of the memory,
 * pids, cpuacct and freezer hierarchies, at <own group>/arena/slot-N where
 * <own group> is this process's group in that hierarchy (/proc/self/cgroup),
 * so a worker confined by its own memory group nests its bots inside it.
 * The freezer also holds one empty group, arena/anchor, kept FROZEN for
 * good: the legacy freezer flips a kernel static key whenever the number of
 * freezing groups goes between 0 and 1, and keeping it at 1 makes each
 * freeze and thaw several times cheaper.
 *
 * v2: one group <own group>/arena/slot-N with memory and pids enabled (this
 * needs our own group to have no processes of its own, which is how v2
 * works: where it fails we fall back).
 *
 * none: nothing to create; the slot's processes are found by their uids in
 * /proc, stopped with SIGSTOP and measured from /proc/<pid>/stat.
 *
 * The hot path (freeze, thaw, CPU) uses file descriptors opened once.
 */

#include "sandbox/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"

/* The v1 hierarchies: the first CG_COUNT are needed, cpuset is used when
 * it is mounted (bots are pinned with sched_setaffinity otherwise). */
enum { CG_MEMORY, CG_PIDS, CG_CPUACCT, CG_FREEZER, CG_COUNT,
	CG_CPUSET = CG_COUNT, CG_ALL };

static const char *const v1_names[CG_ALL] = {
	"memory", "pids", "cpuacct", "freezer", "cpuset"
};

struct cgroup {
	enum cgroup_kind kind;
	char *dir[CG_ALL];	/* v1: one per hierarchy; v2: dir[0] only */
	int freeze_fd;		/* v1 freezer.state, v2 cgroup.freeze */
	int cpu_fd;		/* v1 cpuacct.usage, v2 cpu.stat */
	int peak_fd;		/* v2 memory.peak, reset through this fd */
	int slot;
	uid_t uids[2];		/* the slot's outside uids (none backend) */
	pid_t init;		/* the sandbox's pid 1 (none backend) */
	int64_t peak_kb;	/* none backend: highest VmHWM seen */
};

static struct {
	bool done;
	enum cgroup_kind kind;
	char *base[CG_ALL];	/* <mount><own group>/arena per hierarchy */
	bool v2_cpuset;		/* v2: cpuset enabled below arena */
	char *mems;		/* v1 cpuset: the memory nodes of arena */
	char *why;		/* why v2 / v1 were not usable */
} probe;

static int
write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	ssize_t n = write(fd, s, strlen(s));
	int saved = errno;
	close(fd);
	errno = saved;
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static ssize_t
read_str(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static ssize_t
pread_str(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);

	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* The number after "key " on a line of a flat keyed file; -1 if absent. */
static int64_t
keyed(const char *text, const char *key)
{
	size_t len = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (strncmp(p, key, len) == 0 && p[len] == ' ')
			return strtoll(p + len + 1, NULL, 10);
	}
	return -1;
}

static char *
path_of(const char *dir, const char *file)
{
	return xasprintf("%s/%s", dir, file);
}

static int64_t
read_i64(const char *dir, const char *file)
{
	char *path = path_of(dir, file), buf[64];
	ssize_t n = read_str(path, buf, sizeof buf);

	free(path);
	return n < 0 ? -1 : strtoll(buf, NULL, 10);
}

static int
write_in(const char *dir, const char *file, const char *s)
{
	char *path = path_of(dir, file);
	int rc = write_str(path, s);

	if (rc < 0)
		log_errno("cannot write '%s' to '%s'", s, path);
	free(path);
	return rc;
}

/* Mount point of a cgroup hierarchy: type "cgroup2", or "cgroup" whose
 * options name the controller. Caller owns the result. */
static char *
find_mount(const char *type, const char *controller)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char line[1024], dev[256], dir[512], fstype[64], opts[512];
	char *found = NULL;

	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof line, f)) {
		if (sscanf(line, "%255s %511s %63s %511s", dev, dir, fstype,
		    opts) != 4 || strcmp(fstype, type) != 0)
			continue;
		if (!controller)
			found = xstrdup(dir);
		for (char *o = strtok(opts, ","); !found && o;
		    o = strtok(NULL, ","))
			if (strcmp(o, controller) == 0)
				found = xstrdup(dir);
	}
	fclose(f);
	return found;
}

/* Our own group in the hierarchy holding controller ("" for v2). */
static char *
own_group(const char *controller)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[1024];
	char *found = NULL;

	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof line, f)) {
		char *list = strchr(line, ':'), *path;

		if (!list || !(path = strchr(++list, ':')))
			continue;
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		if (*controller == '\0' ? *list == '\0' : 0)
			found = xstrdup(path);
		for (char *c = strtok(list, ","); !found && c && *controller;
		    c = strtok(NULL, ","))
			if (strcmp(c, controller) == 0)
				found = xstrdup(path);
	}
	fclose(f);
	return found;
}

static char *
arena_base(const char *mount, const char *own)
{
	char *base = xasprintf("%s%s/arena", mount,
	    strcmp(own, "/") == 0 ? "" : own);

	if (mkdir(base, 0755) < 0 && errno != EEXIST) {
		free(base);
		return NULL;
	}
	return base;
}

/* Enables cpuset below arena when our group offers it (controllers is
 * our cgroup.controllers). Optional: bots are pinned with
 * sched_setaffinity without it. */
static bool
probe_v2_cpuset(const char *mount, const char *own, const char *base,
    const char *controllers)
{
	if (!strstr(controllers, "cpuset"))
		return false;
	char *own_path = xasprintf("%s%s/cgroup.subtree_control", mount, own);
	char *base_path = path_of(base, "cgroup.subtree_control");
	bool ok = write_str(own_path, "+cpuset") == 0 &&
	    write_str(base_path, "+cpuset") == 0;

	free(own_path);
	free(base_path);
	return ok;
}

static int
probe_v2(void)
{
	char *mount = find_mount("cgroup2", NULL), *own = own_group("");
	char *base = NULL, *path = NULL, buf[512];
	int rc = -1;

	if (!mount || !own)
		goto fail;
	path = xasprintf("%s%s/cgroup.controllers", mount, own);
	if (read_str(path, buf, sizeof buf) < 0 || !strstr(buf, "memory") ||
	    !strstr(buf, "pids"))
		goto fail;
	free(path);
	path = xasprintf("%s%s/cgroup.subtree_control", mount, own);
	if (write_str(path, "+memory +pids") < 0 ||
	    !(base = arena_base(mount, own)))
		goto fail;
	free(path);
	path = path_of(base, "cgroup.subtree_control");
	if (write_str(path, "+memory +pids") < 0)
		goto fail;
	probe.v2_cpuset = probe_v2_cpuset(mount, own, base, buf);
	probe.base[0] = base;
	base = NULL;
	rc = 0;
fail:
	free(mount);
	free(own);
	free(base);
	free(path);
	return rc;
}

/* Copies file (cpuset.cpus, cpuset.mems) from parent into dir when dir's
 * is empty, as a new v1 cpuset group starts; the value, or NULL. */
static char *
cpuset_inherit(const char *parent, const char *dir, const char *file)
{
	char buf[512];
	char *path = path_of(dir, file);
	ssize_t n = read_str(path, buf, sizeof buf);

	if (n > 0 && buf[0] != '\n') {
		free(path);
		buf[strcspn(buf, "\n")] = '\0';
		return xstrdup(buf);
	}
	char *from = path_of(parent, file);
	n = read_str(from, buf, sizeof buf);
	free(from);
	buf[n > 0 ? strcspn(buf, "\n") : 0] = '\0';
	if (n <= 0 || buf[0] == '\0' || write_str(path, buf) < 0) {
		free(path);
		return NULL;
	}
	free(path);
	return xstrdup(buf);
}

/* The v1 cpuset hierarchy, optional: arena/ gets its parent's CPUs and
 * memory nodes, so slot groups below it can be given one CPU each. */
static void
probe_v1_cpuset(void)
{
	char *mount = find_mount("cgroup", "cpuset");
	char *own = own_group("cpuset"), *parent = NULL, *cpus = NULL;
	char *base = mount && own ? arena_base(mount, own) : NULL;

	if (base) {
		parent = xasprintf("%s%s", mount, strcmp(own, "/") == 0 ? "" :
		    own);
		cpus = cpuset_inherit(parent, base, "cpuset.cpus");
		probe.mems = cpus ? cpuset_inherit(parent, base,
		    "cpuset.mems") : NULL;
	}
	if (probe.mems) {
		probe.base[CG_CPUSET] = base;
		base = NULL;
	} else if (mount) {
		log_warn("v1 cpuset not usable: bots are pinned to their CPU "
		    "with sched_setaffinity");
	}
	free(mount);
	free(own);
	free(parent);
	free(cpus);
	free(base);
}

static int
probe_v1(void)
{
	for (int i = 0; i < CG_COUNT; i++) {
		char *mount = find_mount("cgroup", v1_names[i]);
		char *own = own_group(v1_names[i]);

		if (mount && own)
			probe.base[i] = arena_base(mount, own);
		free(mount);
		free(own);
		if (!probe.base[i]) {
			probe.why = xasprintf("no usable v1 %s hierarchy",
			    v1_names[i]);
			return -1;
		}
	}
	char *anchor = path_of(probe.base[CG_FREEZER], "anchor");
	char *state = path_of(anchor, "freezer.state");
	if ((mkdir(anchor, 0755) == 0 || errno == EEXIST))
		(void)write_str(state, "FROZEN");
	free(anchor);
	free(state);
	probe_v1_cpuset();
	return 0;
}

enum cgroup_kind
cgroup_kind(void)
{
	const char *force = getenv("ARENA_CGROUPS");

	if (probe.done)
		return probe.kind;
	probe.done = true;
	/* The fallback on demand: for a machine whose cgroups misbehave, and
	 * to test the fallback where cgroups work. */
	if (force && strcmp(force, "none") == 0)
		probe.why = xstrdup("ARENA_CGROUPS=none");
	else if (probe_v2() == 0) {
		probe.kind = CGROUP_V2;
		return probe.kind;
	} else if (probe_v1() == 0) {
		probe.kind = CGROUP_V1;
		return probe.kind;
	}
	for (int i = 0; i < CG_ALL; i++) {
		free(probe.base[i]);
		probe.base[i] = NULL;
	}
	probe.kind = CGROUP_NONE;
	log_warn("no usable cgroups (%s): falling back to rlimits, SIGSTOP "
	    "and /proc sampling", probe.why ? probe.why : "none mounted");
	return probe.kind;
}

const char *
cgroup_kind_name(enum cgroup_kind kind)
{
	static const char *const names[] = {
		[CGROUP_NONE] = "none", [CGROUP_V1] = "v1", [CGROUP_V2] = "v2",
	};
	return names[kind];
}

void
cgroup_describe(FILE *out)
{
	enum cgroup_kind kind = cgroup_kind();

	fprintf(out, "cgroups: %s\n", cgroup_kind_name(kind));
	if (kind == CGROUP_V2)
		fprintf(out, "  v2 group: %s (memory, pids, %scpu.stat, "
		    "cgroup.freeze)\n", probe.base[0],
		    probe.v2_cpuset ? "cpuset, " : "");
	for (int i = 0; kind == CGROUP_V1 && i < CG_ALL; i++)
		if (probe.base[i])
			fprintf(out, "  v1 %-8s %s\n", v1_names[i],
			    probe.base[i]);
	if (!cgroup_pins())
		fprintf(out, "  no cpuset: bots pinned with sched_setaffinity "
		    "(refused to them by seccomp)\n");
	if (kind == CGROUP_NONE)
		fprintf(out, "  fallback: rlimits (RLIMIT_NPROC per slot uid, "
		    "RLIMIT_DATA), SIGSTOP/SIGCONT, /proc sampling\n");
}

/* Every pid listed in dir/cgroup.procs gets sig. Returns how many. */
static int
signal_procs(const char *dir, int sig)
{
	char *path = path_of(dir, "cgroup.procs");
	FILE *f = fopen(path, "re");
	int pid, n = 0;

	free(path);
	if (!f)
		return 0;
	while (fscanf(f, "%d", &pid) == 1) {
		kill(pid, sig);
		n++;
	}
	fclose(f);
	return n;
}

static void
sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

/* Waits at most a second until dir/cgroup.procs is empty. */
static int
wait_empty(const char *dir)
{
	for (int i = 0; i < 1000; i++) {
		if (signal_procs(dir, 0) == 0)
			return 0;
		sleep_us(1000);
	}
	return log_error("cgroup '%s' still has processes after SIGKILL", dir);
}

static void
none_each(struct cgroup *cg, int sig)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[300];
	struct stat st;

	if (cg->init > 0)
		kill(cg->init, sig);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s", e->d_name);
		if (stat(path, &st) == 0 && (st.st_uid == cg->uids[0] ||
		    st.st_uid == cg->uids[1]))
			kill(atoi(e->d_name), sig);
	}
	closedir(d);
}

/* Removes an emptied group. Its last task may still be on its way out
 * (rmdir says EBUSY for a moment after the kill): wait for it, at most a
 * second, so the slot is never given back with its group still there. */
static int
remove_dir(const char *dir)
{
	for (int i = 0; i < 1000; i++) {
		if (rmdir(dir) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		sleep_us(1000);
	}
	return log_errno("cannot remove cgroup '%s'", dir);
}

/* A stale group left by a crashed worker: empty it and remove it. */
static int
remove_group(const char *dir, bool freezer)
{
	if (access(dir, F_OK) < 0)
		return 0;
	signal_procs(dir, SIGKILL);
	if (freezer) {
		char *state = path_of(dir, "freezer.state");
		(void)write_str(state, "THAWED");
		free(state);
	}
	if (wait_empty(dir) < 0)
		return -1;
	return remove_dir(dir);
}

static int
open_in(const char *dir, const char *file, int flags)
{
	char *path = path_of(dir, file);
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0)
		log_errno("cannot open '%s'", path);
	free(path);
	return fd;
}

static int
limit_v1(struct cgroup *cg, int64_t memory_kb, int pids)
{
	char buf[32];

	if (memory_kb > 0) {
		snprintf(buf, sizeof buf, "%lld", (long long)memory_kb * 1024);
		if (write_in(cg->dir[CG_MEMORY], "memory.limit_in_bytes", buf) < 0)
			return -1;
		char *memsw = path_of(cg->dir[CG_MEMORY],
		    "memory.memsw.limit_in_bytes");
		int rc = write_str(memsw, buf);
		free(memsw);
		if (rc < 0 && errno != ENOENT)
			return log_errno("cannot limit swap of '%s'",
			    cg->dir[CG_MEMORY]);
	}
	snprintf(buf, sizeof buf, "%d", pids);
	return write_in(cg->dir[CG_PIDS], "pids.max", buf);
}

/* The hot-path descriptors of the groups in cg->dir. */
static int
open_fds(struct cgroup *cg)
{
	if (cg->kind == CGROUP_V1) {
		cg->freeze_fd = open_in(cg->dir[CG_FREEZER], "freezer.state",
		    O_RDWR);
		cg->cpu_fd = open_in(cg->dir[CG_CPUACCT], "cpuacct.usage",
		    O_RDONLY);
	} else {
		cg->freeze_fd = open_in(cg->dir[0], "cgroup.freeze", O_RDWR);
		cg->cpu_fd = open_in(cg->dir[0], "cpu.stat", O_RDONLY);
		cg->peak_fd = open_in(cg->dir[0], "memory.peak", O_RDWR);
	}
	return cg->freeze_fd < 0 || cg->cpu_fd < 0 ? -1 : 0;
}

static int
setup_v1(struct cgroup *cg, int slot)
{
	for (int i = 0; i < CG_COUNT; i++) {
		cg->dir[i] = xasprintf("%s/slot-%d", probe.base[i], slot);
		if (remove_group(cg->dir[i], i == CG_FREEZER) < 0)
			return -1;
		if (mkdir(cg->dir[i], 0755) < 0)
			return log_errno("cannot create cgroup '%s'",
			    cg->dir[i]);
	}
	char *cpuset = probe.base[CG_CPUSET] ? xasprintf("%s/slot-%d",
	    probe.base[CG_CPUSET], slot) : NULL;
	int stale = cpuset ? remove_group(cpuset, false) : 0;
	free(cpuset);
	return stale < 0 ? -1 : open_fds(cg);
}

int
cgroup_sweep(int slot)
{
	enum cgroup_kind kind = cgroup_kind();
	char *dir;
	int rc = 0;

	for (int i = 0; kind == CGROUP_V1 && i < CG_ALL; i++) {
		if (!probe.base[i])
			continue;
		dir = xasprintf("%s/slot-%d", probe.base[i], slot);
		if (remove_group(dir, i == CG_FREEZER) < 0)
			rc = -1;
		free(dir);
	}
	if (kind == CGROUP_V2) {
		dir = xasprintf("%s/slot-%d", probe.base[0], slot);
		if (access(dir, F_OK) == 0) {
			char *kill_path = path_of(dir, "cgroup.kill");

			(void)write_str(kill_path, "1");
			free(kill_path);
			if (wait_empty(dir) < 0 || remove_dir(dir) < 0)
				rc = -1;
		}
		free(dir);
	}
	return rc;
}

static int
limit_v2(struct cgroup *cg, int64_t memory_kb, int pids)
{
	char buf[32];

	if (memory_kb > 0) {
		snprintf(buf, sizeof buf, "%lld", (long long)memory_kb * 1024);
		if (write_in(cg->dir[0], "memory.max", buf) < 0 ||
		    write_in(cg->dir[0], "memory.swap.max", "0") < 0)
			return -1;
	}
	snprintf(buf, sizeof buf, "%d", pids);
	return write_in(cg->dir[0], "pids.max", buf);
}

static int
setup_v2(struct cgroup *cg, int slot)
{
	if (cgroup_sweep(slot) < 0)
		return -1;
	cg->dir[0] = xasprintf("%s/slot-%d", probe.base[0], slot);
	if (mkdir(cg->dir[0], 0755) < 0)
		return log_errno("cannot create cgroup '%s'", cg->dir[0]);
	return open_fds(cg);
}

bool
cgroup_pins(void)
{
	enum cgroup_kind kind = cgroup_kind();

	return (kind == CGROUP_V1 && probe.base[CG_CPUSET]) ||
	    (kind == CGROUP_V2 && probe.v2_cpuset);
}

static struct cgroup *
cgroup_alloc(int slot, const uid_t uids[2])
{
	struct cgroup *cg = xcalloc(1, sizeof *cg);

	cg->kind = cgroup_kind();
	cg->slot = slot;
	cg->freeze_fd = cg->cpu_fd = cg->peak_fd = -1;
	cg->uids[0] = uids[0];
	cg->uids[1] = uids[1];
	return cg;
}

struct cgroup *
cgroup_new(int slot, int64_t memory_kb, int pids, const uid_t uids[2])
{
	struct cgroup *cg = cgroup_alloc(slot, uids);
	int rc = 0;

	if (cg->kind == CGROUP_V1)
		rc = setup_v1(cg, slot);
	else if (cg->kind == CGROUP_V2)
		rc = setup_v2(cg, slot);
	if (rc < 0 || cgroup_limit(cg, memory_kb, pids) < 0) {
		cgroup_free(cg);
		return NULL;
	}
	return cg;
}

int
cgroup_limit(struct cgroup *cg, int64_t memory_kb, int pids)
{
	if (cg->kind == CGROUP_V1)
		return limit_v1(cg, memory_kb, pids);
	if (cg->kind == CGROUP_V2)
		return limit_v2(cg, memory_kb, pids);
	return 0;
}

struct cgroup *
cgroup_open(int slot, const uid_t uids[2])
{
	struct cgroup *cg = cgroup_alloc(slot, uids);

	if (cg->kind == CGROUP_NONE)
		return cg;
	for (int i = 0; i < (cg->kind == CGROUP_V1 ? CG_ALL : 1); i++) {
		if (!probe.base[i])
			continue;
		char *dir = xasprintf("%s/slot-%d", probe.base[i], slot);
		if (i == CG_CPUSET && access(dir, F_OK) < 0) {
			free(dir);
			continue;
		}
		cg->dir[i] = dir;
	}
	if (open_fds(cg) < 0) {
		cgroup_free(cg);
		return NULL;
	}
	return cg;
}

void
cgroup_forget(struct cgroup *cg)
{
	if (!cg)
		return;
	for (int i = 0; i < CG_ALL; i++)
		free(cg->dir[i]);
	if (cg->freeze_fd >= 0)
		close(cg->freeze_fd);
	if (cg->cpu_fd >= 0)
		close(cg->cpu_fd);
	if (cg->peak_fd >= 0)
		close(cg->peak_fd);
	free(cg);
}

void
cgroup_free(struct cgroup *cg)
{
	if (!cg)
		return;
	if (cg->kind != CGROUP_NONE)
		(void)cgroup_kill(cg);
	for (int i = 0; i < CG_ALL; i++)
		if (cg->dir[i])
			(void)remove_dir(cg->dir[i]);
	cgroup_forget(cg);
}

/* v1: a cpuset group of its own, whose cpus and mems must both be set
 * before a task may join; v2: cpuset.cpus of the one group. */
int
cgroup_pin(struct cgroup *cg, int cpu)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%d", cpu);
	if (cg->kind == CGROUP_V2 && probe.v2_cpuset)
		return write_in(cg->dir[0], "cpuset.cpus", buf);
	if (cg->kind != CGROUP_V1 || !probe.base[CG_CPUSET] ||
	    cg->dir[CG_CPUSET])
		return 0;
	char *dir = xasprintf("%s/slot-%d", probe.base[CG_CPUSET], cg->slot);
	if (mkdir(dir, 0755) < 0) {
		log_errno("cannot create cgroup '%s'", dir);
		free(dir);
		return -1;
	}
	cg->dir[CG_CPUSET] = dir;
	if (write_in(dir, "cpuset.cpus", buf) < 0 ||
	    write_in(dir, "cpuset.mems", probe.mems) < 0)
		return -1;
	return 0;
}

int
cgroup_attach(struct cgroup *cg, pid_t pid)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%d", (int)pid);
	for (int i = 0; i < CG_ALL; i++)
		if (cg->dir[i] && write_in(cg->dir[i], "cgroup.procs", buf) < 0)
			return -1;
	return 0;
}

void
cgroup_set_init(struct cgroup *cg, pid_t init)
{
	cg->init = init;
}

/* Waits until the freezer says every task is frozen: a task stuck in the
 * kernel can delay it, so give up after a second (the caller kills). */
static int
wait_frozen(struct cgroup *cg)
{
	char buf[256];

	for (int i = 0; i < 20000; i++) {
		if (cg->kind == CGROUP_V1) {
			if (pread_str(cg->freeze_fd, buf, sizeof buf) < 0)
				return log_errno("cannot read freezer.state");
			if (strncmp(buf, "FROZEN", 6) == 0)
				return 0;
		} else {
			char *path = path_of(cg->dir[0], "cgroup.events");
			ssize_t n = read_str(path, buf, sizeof buf);
			free(path);
			if (n < 0)
				return log_errno("cannot read cgroup.events");
			if (keyed(buf, "frozen") == 1)
				return 0;
		}
		if (i > 100)
			sleep_us(50);
	}
	return log_error("cgroup '%s' did not freeze within a second",
	    cg->dir[cg->kind == CGROUP_V1 ? CG_FREEZER : 0]);
}

static int
write_fd(int fd, const char *s)
{
	if (pwrite(fd, s, strlen(s), 0) != (ssize_t)strlen(s))
		return log_errno("cannot write '%s' to the freezer", s);
	return 0;
}

int
cgroup_freeze(struct cgroup *cg)
{
	if (cg->kind == CGROUP_NONE) {
		none_each(cg, SIGSTOP);
		return 0;
	}
	if (write_fd(cg->freeze_fd, cg->kind == CGROUP_V1 ? "FROZEN" : "1") < 0)
		return -1;
	return wait_frozen(cg);
}

int
cgroup_thaw(struct cgroup *cg)
{
	if (cg->kind == CGROUP_NONE) {
		none_each(cg, SIGCONT);
		return 0;
	}
	return write_fd(cg->freeze_fd, cg->kind == CGROUP_V1 ? "THAWED" : "0");
}

/* One /proc/<pid> of the none backend, added to u. */
static void
none_sample(struct cgroup *cg, const char *pid, struct cgroup_usage *u,
    bool children)
{
	char path[300], buf[2048];
	unsigned long long ut, st, cut, cst;

	snprintf(path, sizeof path, "/proc/%s/stat", pid);
	if (read_str(path, buf, sizeof buf) < 0)
		return;
	char *p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
	    "%llu %llu %llu %llu", &ut, &st, &cut, &cst) != 4)
		return;
	long hz = sysconf(_SC_CLK_TCK);
	u->cpu_ns += (int64_t)(ut + st + (children ? cut + cst : 0)) *
	    (1000000000 / hz);
	snprintf(path, sizeof path, "/proc/%s/status", pid);
	if (read_str(path, buf, sizeof buf) < 0)
		return;
	int64_t hwm = keyed(strstr(buf, "VmHWM:") ? buf : "", "VmHWM:");
	if (hwm > cg->peak_kb)
		cg->peak_kb = hwm;
	if (strstr(buf, "VmRSS:"))
		u->resident_kb += strtoll(strstr(buf, "VmRSS:") + 6, NULL, 10);
	if (strstr(buf, "Threads:"))
		u->tasks += atoi(strstr(buf, "Threads:") + 8);
}

static int
usage_none(struct cgroup *cg, struct cgroup_usage *u)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[300], init[16];
	struct stat st;

	if (!d)
		return log_errno("cannot open /proc");
	snprintf(init, sizeof init, "%d", (int)cg->init);
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s", e->d_name);
		if (stat(path, &st) == 0 && (st.st_uid == cg->uids[0] ||
		    st.st_uid == cg->uids[1]))
			none_sample(cg, e->d_name, u, strcmp(e->d_name,
			    init) == 0);
	}
	closedir(d);
	u->peak_kb = cg->peak_kb;
	return 0;
}

int
cgroup_usage(struct cgroup *cg, struct cgroup_usage *u)
{
	char buf[4096];

	memset(u, 0, sizeof *u);
	if (cg->kind == CGROUP_NONE)
		return usage_none(cg, u);
	if (pread_str(cg->cpu_fd, buf, sizeof buf) < 0)
		return log_errno("cannot read CPU usage of '%s'", cg->dir[0]);
	if (cg->kind == CGROUP_V1) {
		u->cpu_ns = strtoll(buf, NULL, 10);
		u->peak_kb = read_i64(cg->dir[CG_MEMORY],
		    "memory.max_usage_in_bytes") / 1024;
		u->tasks = (int)read_i64(cg->dir[CG_PIDS], "pids.current");
		char *path = path_of(cg->dir[CG_MEMORY], "memory.stat");
		ssize_t n = read_str(path, buf, sizeof buf);
		free(path);
		if (n < 0)
			return log_errno("cannot read memory.stat");
		u->resident_kb = (keyed(buf, "total_rss") +
		    keyed(buf, "total_shmem")) / 1024;
		return 0;
	}
	u->cpu_ns = keyed(buf, "usage_usec") * 1000;
	if (cg->peak_fd >= 0 && pread_str(cg->peak_fd, buf, sizeof buf) > 0)
		u->peak_kb = strtoll(buf, NULL, 10) / 1024;
	u->tasks = (int)read_i64(cg->dir[0], "pids.current");
	char *path = path_of(cg->dir[0], "memory.stat");
	ssize_t n = read_str(path, buf, sizeof buf);
	free(path);
	if (n < 0)
		return log_errno("cannot read memory.stat");
	u->resident_kb = (keyed(buf, "anon") + keyed(buf, "shmem")) / 1024;
	return 0;
}

int64_t
cgroup_cpu_ns(struct cgroup *cg)
{
	struct cgroup_usage u;
	char buf[256];

	if (cg->kind == CGROUP_NONE)
		return cgroup_usage(cg, &u) < 0 ? -1 : u.cpu_ns;
	if (pread_str(cg->cpu_fd, buf, sizeof buf) < 0)
		return log_errno("cannot read CPU usage of '%s'", cg->dir[0]);
	return cg->kind == CGROUP_V1 ? strtoll(buf, NULL, 10) :
	    keyed(buf, "usage_usec") * 1000;
}

int
cgroup_reset_peak(struct cgroup *cg)
{
	if (cg->kind == CGROUP_V1)
		return write_in(cg->dir[CG_MEMORY], "memory.max_usage_in_bytes",
		    "0");
	if (cg->kind == CGROUP_V2 && cg->peak_fd >= 0)
		return write_fd(cg->peak_fd, "reset");
	cg->peak_kb = 0;
	return 0;
}

int64_t
cgroup_oom_kills(struct cgroup *cg)
{
	char buf[1024];

	if (cg->kind == CGROUP_NONE)
		return 0;
	char *path = cg->kind == CGROUP_V1 ?
	    path_of(cg->dir[CG_MEMORY], "memory.oom_control") :
	    path_of(cg->dir[0], "memory.events");
	ssize_t n = read_str(path, buf, sizeof buf);
	free(path);
	if (n < 0)
		return log_errno("cannot read the OOM counter");
	int64_t kills = keyed(buf, "oom_kill");
	return kills < 0 ? 0 : kills;
}

int
cgroup_kill(struct cgroup *cg)
{
	int rc = 0;

	if (cg->kind == CGROUP_NONE) {
		none_each(cg, SIGKILL);
		none_each(cg, SIGCONT);
		return 0;
	}
	if (cg->kind == CGROUP_V2) {
		char *path = path_of(cg->dir[0], "cgroup.kill");
		if (write_str(path, "1") < 0)
			signal_procs(cg->dir[0], SIGKILL);
		free(path);
		(void)write_fd(cg->freeze_fd, "0");
		return wait_empty(cg->dir[0]);
	}
	/* Frozen, no task can fork between the listing and the kill; a
	 * SIGKILLed task of the legacy freezer only dies once thawed. */
	(void)write_fd(cg->freeze_fd, "FROZEN");
	signal_procs(cg->dir[CG_FREEZER], SIGKILL);
	(void)write_fd(cg->freeze_fd, "THAWED");
	for (int i = 0; i < CG_ALL; i++)
		if (cg->dir[i] && wait_empty(cg->dir[i]) < 0)
			rc = -1;
	return rc;
}
