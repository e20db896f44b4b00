/*
 * hostile.h: the game side shared by every hostile bot. A bot reads each
 * request up to its "end" line, does its attack when the case asks
 * (usually on its first call) and otherwise passes, so a contained attack
 * leaves an ordinary game behind. An attack that gets through is reported
 * by exiting with HOSTILE_LEAK (the seat then shows RE "exited with code
 * 42"), which the harness tells apart from every verdict the sandbox gives.
 *
 * Persistent mode (Dream City): requests on stdin, a pipe. Per-turn mode
 * (Slime: a new process per call, its board as an argument, stdin
 * /dev/null): hostile_wait() returns once per process, with the call's
 * number kept in the bot's folder (hostile.calls), and a pass is
 * "0 0 0 0".
 */
#ifndef HOSTILE_H
#define HOSTILE_H

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOSTILE_LEAK 42		/* the attack got through */
#define HOSTILE_RESIDUE 43	/* state survived from an earlier game */

static int hostile_calls;
static char hostile_move[64];	/* a valid placement, or "pass" */

/* Whether this is a per-turn bot: its stdin is no pipe. */
static inline int
hostile_per_turn(void)
{
	struct stat st;

	return fstat(0, &st) == 0 && !S_ISFIFO(st.st_mode);
}

/* Per-turn: this process's one call, numbered from the folder's count;
 * 0 the second time. */
static inline int
hostile_turn(void)
{
	static int done;
	FILE *f;
	int n = 0;

	if (done++)
		return 0;
	if ((f = fopen("hostile.calls", "r")) != NULL) {
		if (fscanf(f, "%d", &n) != 1)
			n = 0;
		fclose(f);
	}
	if ((f = fopen("hostile.calls", "w")) != NULL) {
		fprintf(f, "%d\n", n + 1);
		fclose(f);
	}
	strcpy(hostile_move, "0 0 0 0");
	return hostile_calls = n + 1;
}

/* Reads one request; its call number (from 1), or 0 when stdin closed.
 * Notes in hostile_move the first listed building placed unrotated on
 * the first empty cell, valid for the one-cell houses of the harness's
 * dataset. */
static inline int
hostile_wait(void)
{
	char line[8192];
	int status_rows = -1, y = 0, x = -1, cy = -1, id = -1;

	if (hostile_per_turn())
		return hostile_turn();
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
	if (strcmp(answer, "pass") == 0 && hostile_per_turn())
		answer = "0 0 0 0";
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
