/*
 * cgroup: the control groups of one sandbox slot, behind one interface with
 * three backends: cgroup v2 (controllers enabled in the unified hierarchy),
 * cgroup v1 (memory, pids, cpuacct, freezer hierarchies) and none (rlimits
 * set by the caller, SIGSTOP/SIGCONT and /proc sampling of the slot's uids).
 * Private to sandbox/.
 */
#ifndef ARENA_SANDBOX_CGROUP_H
#define ARENA_SANDBOX_CGROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

enum cgroup_kind {
	CGROUP_NONE,
	CGROUP_V1,
	CGROUP_V2,
};

struct cgroup;

struct cgroup_usage {
	int64_t cpu_ns;		/* CPU of every task since creation */
	int64_t peak_kb;	/* peak memory since creation or reset */
	int64_t resident_kb;	/* rss + shmem now */
	int tasks;		/* tasks (processes + threads) now */
};

/* The backend this machine offers; probed once, logged once when none. */
enum cgroup_kind cgroup_kind(void);
const char *cgroup_kind_name(enum cgroup_kind kind);
/* Writes what was found to out (for sandbox_doctor). */
void cgroup_describe(FILE *out);

/* Whether the backend can pin a group to one CPU (a cpuset controller). */
bool cgroup_pins(void);
/* Creates the groups of slot (emptying and removing a stale one first),
 * with a memory limit (0: none) and a task limit. uids are the outside
 * uids that belong to the slot (used by the none backend to find its
 * processes). NULL after logging. Free with cgroup_free(). */
struct cgroup *cgroup_new(int slot, int64_t memory_kb, int pids,
    const uid_t uids[2]);
/* Sets (raises or lowers) the memory limit (0: leave as it is) and the
 * task limit. 0 or -1. */
int cgroup_limit(struct cgroup *cg, int64_t memory_kb, int pids);
/* The existing groups of slot, made by cgroup_new() in another process
 * (which then cgroup_forget() them). NULL after logging. */
struct cgroup *cgroup_open(int slot, const uid_t uids[2]);
/* Lets go of cg without touching its groups (another process owns them
 * now). Accepts NULL. */
void cgroup_forget(struct cgroup *cg);
/* Restricts the groups to one CPU, before the first cgroup_attach();
 * does nothing unless cgroup_pins(). 0 or -1. */
int cgroup_pin(struct cgroup *cg, int cpu);
/* Kills every task, waits until the groups are empty, removes them
 * (waiting, at most a second, while the kernel still says EBUSY). */
void cgroup_free(struct cgroup *cg);
/* Empties and removes the groups a dead sandbox of slot left behind (its
 * worker was killed: frozen tasks outlive their pid namespace until
 * thawed). The caller holds the slot. 0, or -1 after logging. */
int cgroup_sweep(int slot);

/* Moves pid (and its future children) into the groups. 0 or -1. */
int cgroup_attach(struct cgroup *cg, pid_t pid);
/* init is the sandbox's pid 1, needed by the none backend. */
void cgroup_set_init(struct cgroup *cg, pid_t init);
int cgroup_freeze(struct cgroup *cg);
int cgroup_thaw(struct cgroup *cg);
int cgroup_usage(struct cgroup *cg, struct cgroup_usage *u);
/* The CPU part of cgroup_usage() alone (one read), or -1 after logging. */
int64_t cgroup_cpu_ns(struct cgroup *cg);
int cgroup_reset_peak(struct cgroup *cg);
/* How many times the memory limit's OOM killer acted; -1 on failure. */
int64_t cgroup_oom_kills(struct cgroup *cg);
/* SIGKILLs every task (freezing first so none can fork meanwhile), thaws,
 * and waits at most a second until the groups are empty. 0 or -1. */
int cgroup_kill(struct cgroup *cg);

#endif
