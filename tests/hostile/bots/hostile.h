/*
 * hostile.h: the Dream City side shared by every hostile bot. A bot reads
 * each request up to its "end" line, does its attack when the case asks
 * (usually on its first call) and otherwise passes, so a contained attack
 * leaves an ordinary game behind. An attack that gets through is reported
 * by exiting with HOSTILE_LEAK (the seat then shows RE "exited with code
 * 42"), which the harness tells apart from every verdict the sandbox gives.
 */
#ifndef HOSTILE_H
#define HOSTILE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOSTILE_LEAK 42		/* the attack got through */
#define HOSTILE_RESIDUE 43	/* state survived from an earlier game */

static int hostile_calls;
static char hostile_move[64];	/* a valid placement, or "pass" */

/* Reads one request; its call number (from 1), or 0 when stdin closed.
 * Notes in hostile_move the first listed building placed unrotated on
 * the first empty cell, valid for the one-cell houses of the harness's
 * dataset. */
static inline int
hostile_wait(void)
{
	char line[8192];
	int status_rows = -1, y = 0, x = -1, cy = -1, id = -1;

	while (fgets(line, sizeof line, stdin) != NULL) {
		if (strcmp(line, "end\n") == 0) {
			if (id >= 0 && x >= 0)
				snprintf(hostile_move, sizeof hostile_move,
				    "%d 0 %d %d", id, x, cy);
			else
				strcpy(hostile_move, "pass");
			return ++hostile_calls;
		}
		if (strcmp(line, "status\n") == 0)
			status_rows = 0, y = -1;
		else if (strncmp(line, "buildings ", 10) == 0)
			status_rows = -1;
		else if (status_rows >= 0 && x < 0 && strchr(line, '.')) {
			x = (int)(strchr(line, '.') - line);
			cy = y;
		} else if (id < 0 && sscanf(line, "building %d", &id) != 1)
			id = -1;
		if (status_rows >= 0)
			y++;
	}
	return 0;
}

static inline void
hostile_reply(const char *answer)
{
	printf("%s\n", answer);
	fflush(stdout);
}

/* Passes on the current call and every later one, then exits normally. */
static inline _Noreturn void
hostile_pass_forever(void)
{
	hostile_reply("pass");
	while (hostile_wait() > 0)
		hostile_reply("pass");
	exit(0);
}

/* Says on stderr (the bot's log) what got through, then exits 42. */
static inline _Noreturn void
hostile_leak(const char *what)
{
	fprintf(stderr, "hostile: LEAK: %s\n", what);
	exit(HOSTILE_LEAK);
}

#endif
