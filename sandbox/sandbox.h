/*
 * sandbox: runs one untrusted command (a bot, a build step) contained and
 * measured. The only module that forks untrusted code.
 *
 * Containment: its own user, pid, mount, ipc, uts and network namespaces
 * (no network at all); a private root of read-only system folders, a
 * private size-limited copy of the command's folder as its working
 * directory (or the folder itself, with keep_box), a small private /tmp, a
 * fresh /proc of its own pid namespace and a minimal /dev, and nothing
 * else; an unprivileged uid of its own (each live sandbox on the
 * machine holds a slot, found and locked by sandbox_new(), which picks its
 * uid and cgroup names); a seccomp filter refusing what a bot never needs;
 * rlimits as a second line. A command that may not start processes (a
 * bot) runs on one CPU only: slot N gets the N-th CPU the worker may use.
 *
 * Limits and accounting: control groups where the kernel offers them (v2
 * with its controllers enabled, else v1 memory, pids, cpuacct, freezer),
 * else rlimits plus /proc sampling; sandbox_doctor() says which, and the
 * fallback is logged once. Memory, processes+threads and CPU time are
 * counted for the whole sandbox, not one process.
 *
 * Freezing: a sandbox can be frozen (cgroup freezer, or SIGSTOP of every
 * process in it without one) so a persistent bot never computes on its
 * opponent's time. sandbox_free() kills everything it started: nothing
 * survives it (the pid namespace's init dies, the cgroup is emptied).
 *
 * Our own failures (cannot create a cgroup, cannot mount) are returned as
 * -1/NULL after logging: the caller turns them into VERDICT_XX.
 */
#ifndef ARENA_SANDBOX_H
#define ARENA_SANDBOX_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "common/verdict.h"

struct sandbox;

/*
 * Uids (and gids, the same numbers). Slot N runs its command as outside
 * uid SANDBOX_BOT_UID_BASE + N (uid 1000 inside, no capabilities); its
 * pid 1 is SANDBOX_SETUP_UID_BASE + N (root inside its user namespace
 * only). Neither may be a real account on the machine.
 *
 * The folder (opts->dir) is the caller's per-run copy, never a shared or
 * pristine one. By default /box is a tmpfs of limits.box_kb private to
 * the sandbox (it vanishes with it; its pages are charged to the
 * command's memory), filled at the start with a copy of the folder:
 * files, folders and symlinks (no devices, FIFOs or sockets), modes kept
 * without set-id bits, all owned by the command. Nothing it writes
 * reaches the folder. The copy reads the folder as the command would: a
 * file neither owned by SANDBOX_FILES_UID nor readable by "other", or a
 * folder larger than box_kb, makes sandbox_new() fail. With keep_box the
 * folder itself is mounted id-mapped at /box instead: what the caller
 * creates owned by SANDBOX_FILES_UID:SANDBOX_FILES_GID is the command's
 * own (it may write it), anything else it can only read as "other"; what
 * the command creates appears outside as SANDBOX_FILES_UID, whichever
 * slot ran it, so a folder kept between runs stays the bot's. The sandbox
 * never chowns anything: the caller creates the copy with
 * openat/mkdirat and fchown()s what it created, without following paths
 * the bot could have changed.
 */
#define SANDBOX_FILES_UID 199999
#define SANDBOX_FILES_GID 199999
#define SANDBOX_BOT_UID_BASE 200000
#define SANDBOX_SETUP_UID_BASE 300000

struct sandbox_limits {
	int64_t memory_kb;	/* peak memory of the whole sandbox; 0: none */
	int pids;		/* processes + threads at once; 0: default 64 */
	int64_t file_kb;	/* largest file it may write; 0: default */
	int64_t tmp_kb;		/* size of its private /tmp; 0: default */
	int nofile;		/* open files; 0: default 64 */
	int64_t box_kb;		/* size of its private /box (unless
				 * keep_box); 0: default 256 MB */
};

struct sandbox_opts {
	const char *dir;	/* its folder: copied to /box (or seen there
				 * with keep_box), its working directory */
	const char *command;	/* run as /bin/sh -c command (plain words
				 * without processes: exec'd directly) */
	int in, out, err;	/* its stdin, stdout, stderr (borrowed) */
	struct sandbox_limits limits;
	bool processes;		/* may start processes (a build); otherwise
				 * threads only, and command is exec'd by the
				 * shell ("exec COMMAND"): one simple command */
	bool frozen;		/* start frozen: runs from the first thaw */
	bool keep_box;		/* /box is the folder itself, read-write:
				 * what the command writes in its folder is
				 * kept (builds; games whose rules keep a
				 * per-bot folder between turns) */
	bool again;		/* (without processes) the sandbox may run
				 * more commands after this one, see
				 * sandbox_again() */
};

struct sandbox_usage {
	int64_t cpu_ms;		/* CPU of every process, since the start
				 * (of this run, with sandbox_again()) */
	int64_t peak_kb;	/* peak memory since the start (of this
				 * run, with sandbox_again()) */
	int64_t resident_kb;	/* resident memory now (rss + shmem) */
	int tasks;		/* processes + threads alive now */
};

/* Starts opts->command in a new sandbox. NULL after logging (our failure).
 * Free with sandbox_free(). */
struct sandbox *sandbox_new(const struct sandbox_opts *opts);
/* Keeps one bot sandbox (no processes) prepared ahead, off the critical
 * path: a helper process (dying with this one) makes the namespaces, the
 * root and the cgroups of the next sandbox while the current one runs,
 * and the next sandbox_new() without processes only hands it the command
 * and the folder (a fresh one each time: nothing is reused between two
 * runs). Call it once, e.g. when a game starts; each sandbox_new() then
 * asks for the next. 0, or -1 after logging (sandbox_new() then works as
 * before). */
int sandbox_prepare(void);
/* Drops the prepared sandbox and ends the helper, so nothing is left;
 * exit() does it, call it before _exit(). Does nothing without
 * sandbox_prepare() in this process. */
void sandbox_unprepare(void);
/* Kills everything the sandbox runs, waits for it, removes its cgroups.
 * Accepts NULL. */
void sandbox_free(struct sandbox *sb);

/* Runs opts->command in sb, made with opts->again, once its last command
 * has ended (it is killed first if it has not): the same namespaces,
 * slot, cgroups and /box (opts->dir and keep_box as the first run's;
 * dir is not looked at again), a fresh /tmp, opts->limits; usage counts
 * from here (CPU, peak). A per-turn bot's calls: the command could not
 * start processes, so its end is the end of everything it ran, and only
 * the sandbox's own init stays between runs (with the next command's
 * process, forked and filtered ahead, waiting for its run). 0, or -1
 * after logging (sb is then ended: free it). */
int sandbox_again(struct sandbox *sb, const struct sandbox_opts *opts);

/* Stops every process of the sandbox / lets them run again. 0 or -1. */
int sandbox_freeze(struct sandbox *sb);
int sandbox_thaw(struct sandbox *sb);

int sandbox_usage(struct sandbox *sb, struct sandbox_usage *u);

/* Whether the command has ended: 1 with *verdict (RE with the exit code or
 * signal in *detail; ML when the memory limit killed it; SV when a
 * sandbox rule did) and *detail (caller owns it; free()), 0 while it runs,
 * -1 on our failure. Never blocks. */
int sandbox_ended(struct sandbox *sb, enum verdict *verdict, char **detail);
/* Waits until the command ends, at most timeout_ms of wall time (it is
 * killed then: TO). Fills *verdict and *detail as sandbox_ended() does.
 * 0, or -1 on our failure. For one-shot runs: builds, `arena sandbox`. */
int sandbox_wait(struct sandbox *sb, int64_t timeout_ms,
    enum verdict *verdict, char **detail);
/* Kills every process of the sandbox now (the command ends as RE unless
 * it had ended already). The sandbox can still be queried. With again,
 * every process of the command (the sandbox's init stays, for
 * sandbox_again()). */
void sandbox_kill(struct sandbox *sb);

/* A descriptor of the sandbox's /box (O_DIRECTORY; caller closes), as
 * its command sees it: a private /box lives in the sandbox's own mount
 * namespace, and with again it lasts from run to run, so the caller can
 * put a file there for the next one (open nothing through it that the
 * command could have planted without O_NOFOLLOW). Files made there are
 * the command's when owned by SANDBOX_BOT_UID_BASE + its slot. -1 after
 * logging. */
int sandbox_box(struct sandbox *sb);

/* The pid of the command (its leader), as seen from outside. */
pid_t sandbox_pid(const struct sandbox *sb);
/* A descriptor that polls readable once the command has ended (and with
 * it everything in the sandbox), for the caller's poll loop; then call
 * sandbox_ended(). Owned by the sandbox; with again, the same for every
 * run. */
int sandbox_fd(const struct sandbox *sb);
/* The slot the sandbox holds (its uids and cgroups are named after it). */
int sandbox_slot(const struct sandbox *sb);

/* Cleans up after sandboxes whose worker died without freeing them: the
 * groups of every slot nobody holds are emptied and removed. Cheap; call
 * it when a worker starts and stops. */
void sandbox_sweep(void);

/* Writes what this machine allows (namespaces, cgroup version and
 * controllers, seccomp, freezer) and which fallbacks will be used.
 * Returns 0 when full containment is available, 1 when a fallback is
 * in use. */
int sandbox_doctor(FILE *out);

#endif
