/*
 * doctor: sandbox_doctor(), what this machine's kernel allows the sandbox
 * to do, each feature tried for real rather than guessed from versions.
 */
#include "sandbox/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/log.h"
#include "sandbox/cgroup.h"
#include "sandbox/filter.h"

static const struct {
	int flag;
	const char *name;
} namespaces[] = {
	{ CLONE_NEWUSER, "user" }, { CLONE_NEWPID, "pid" },
	{ CLONE_NEWNS, "mount" }, { CLONE_NEWIPC, "ipc" },
	{ CLONE_NEWUTS, "uts" }, { CLONE_NEWNET, "net" },
};

/* Whether a child can unshare flag. */
static bool
try_unshare(int flag)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(unshare(flag) == 0 ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Runs /bin/true in a full sandbox: the proof that everything fits. */
static bool
try_sandbox(FILE *out)
{
	char dir[] = "/tmp/arena-doctor-XXXXXX";
	enum verdict v;
	char *detail = NULL;
	bool ok = false;

	if (!mkdtemp(dir))
		return false;
	if (chown(dir, SANDBOX_FILES_UID, SANDBOX_FILES_GID) < 0) {
		rmdir(dir);
		return false;
	}
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	struct sandbox_opts o = {
		.dir = dir, .command = "/bin/true", .in = null, .out = null,
		.err = null,
	};
	struct sandbox *sb = null < 0 ? NULL : sandbox_new(&o);
	if (sb && sandbox_wait(sb, 5000, &v, &detail) == 0) {
		ok = v == VERDICT_OK;
		fprintf(out, "trial run: /bin/true -> %s (%s)\n",
		    verdict_code(v), detail);
	} else {
		fprintf(out, "trial run: cannot start a sandbox\n");
	}
	free(detail);
	sandbox_free(sb);
	if (null >= 0)
		close(null);
	rmdir(dir);
	return ok;
}

int
sandbox_doctor(FILE *out)
{
	bool full = true;

	fprintf(out, "namespaces:");
	for (size_t i = 0; i < sizeof namespaces / sizeof *namespaces; i++) {
		bool ok = try_unshare(namespaces[i].flag);
		fprintf(out, " %s %s", namespaces[i].name, ok ? "yes" : "NO");
		full = full && ok;
	}
	fprintf(out, "\n");
	bool seccomp = filter_available();
	fprintf(out, "seccomp: %s\n", seccomp ? "filters with KILL_PROCESS" :
	    "NOT AVAILABLE");
	full = full && seccomp;
	cgroup_describe(out);
	enum cgroup_kind kind = cgroup_kind();
	fprintf(out, "freezer: %s\n", kind == CGROUP_V1 ? "cgroup v1 freezer" :
	    kind == CGROUP_V2 ? "cgroup.freeze" : "SIGSTOP/SIGCONT fallback");
	fprintf(out, "memory limit: %s\n", kind == CGROUP_NONE ?
	    "RLIMIT_DATA fallback (ends as RE, not ML)" : "memory cgroup");
	full = full && kind != CGROUP_NONE;
	if (geteuid() != 0) {
		fprintf(out, "trial run: skipped (the sandbox needs root)\n");
		return 1;
	}
	full = try_sandbox(out) && full;
	fprintf(out, "containment: %s\n", full ? "full" : "with fallbacks");
	return full ? 0 : 1;
}
