/*
 * child: the processes inside a sandbox, pid 1 and the command. Private to
 * sandbox/; runs after clone(), so it never logs and never returns.
 */
#ifndef ARENA_SANDBOX_CHILD_H
#define ARENA_SANDBOX_CHILD_H

#include <stdbool.h>
#include <stdint.h>

#include "sandbox/sandbox.h"

#define CHILD_INSIDE_UID 1000	/* the command's uid inside */

/* Messages on the control socket. */
#define CHILD_MAPPED 'M'	/* parent -> init: uid maps and cgroups set */
#define CHILD_READY 'R'		/* command -> parent: about to exec */
#define CHILD_GO 'G'		/* parent -> command: exec now */
#define CHILD_ERROR 'E'		/* child -> parent: "E" + reason */

struct child_args {
	const char *dir;	/* the folder, bound at /box with keep_box */
	const char *command;	/* for /bin/sh -c */
	int in, out, err;	/* become 0, 1, 2 of the command */
	int ctl;		/* control socket (SOCK_SEQPACKET) */
	int box_fd;		/* id-mapped mount of dir, or -1; without
				 * keep_box never -1 (then an fd of dir) */
	bool keep_box;		/* bind dir at /box rather than copy it */
	int cpu;		/* the one CPU of the command, or -1 */
	bool processes;		/* may fork */
	bool limit_data;	/* RLIMIT_DATA to memory (no cgroups) */
	struct sandbox_limits limits;	/* defaults filled in */
};

/* pid 1 of the sandbox: sets up, forks the command, reaps, and sends the
 * command's wait status (an int) on ctl when it ends. */
_Noreturn void child_init(const struct child_args *a);

#endif
