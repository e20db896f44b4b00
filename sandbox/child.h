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
#define CHILD_COMMAND_MAX 16384	/* longest command, with its NUL: a
				 * 100x100 Slime view fits */

/* Messages on the control socket (SOCK_SEQPACKET), in this order. */
#define CHILD_MAPPED 'M'	/* parent -> init: uid maps and cgroups set;
				 * struct child_setup */
#define CHILD_PREPARED 'P'	/* init -> parent: root built, the command's
				 * process forked, both waiting */
#define CHILD_RUN 'C'		/* parent -> init: struct child_run, with
				 * in, out, err and the folder's fd */
#define CHILD_READY 'R'		/* command -> parent: about to exec */
#define CHILD_GO 'G'		/* parent -> command: exec now */
#define CHILD_ERROR 'E'		/* child -> parent: "E" + reason */
/* init -> parent at the end: the command's wait status (an int). */

/* What the sandbox is prepared for (CHILD_MAPPED). */
struct child_setup {
	char type;		/* CHILD_MAPPED */
	bool processes;		/* the command may fork (its filter) */
	int cpu;		/* the one CPU of the command, or -1 */
};

/* What init needs to start the command (CHILD_RUN). */
struct child_run {
	char type;		/* CHILD_RUN */
	bool keep_box;		/* the folder's fd is /box itself */
	bool limit_data;	/* RLIMIT_DATA to memory (no cgroups) */
	bool again;		/* init stays for another run, see below */
	struct sandbox_limits limits;	/* defaults filled in */
	char command[CHILD_COMMAND_MAX];
};

/* pid 1 of the sandbox: waits for CHILD_MAPPED, builds the root, forks
 * the command's process (which gets ready up to its seccomp filter),
 * says CHILD_PREPARED, waits for CHILD_RUN, mounts /tmp and /box, hands
 * the run to the command's process, reaps, and sends the command's wait
 * status on ctl when it ends. Exits at once when ctl is closed before
 * the command is started. A run with `again` (no processes) does not end
 * it: it forks the next command's process, says CHILD_PREPARED again,
 * and the next CHILD_RUN (its folder's fd unused: /box stays) gets a
 * fresh /tmp; EOF on ctl instead ends it. */
_Noreturn void child_init(int ctl);

#endif
