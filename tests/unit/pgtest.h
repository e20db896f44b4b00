/*
 * pgtest: a throwaway PostgreSQL cluster for one test executable (starting
 * one costs about a second, so start it once, e.g. in a cmocka group
 * setup). pgtest_start() makes a mkdtemp() folder under /tmp and starts a
 * cluster there through pgembed (as the "postgres" user when run as
 * root); pgtest_stop() stops it and removes the folder, unless
 * ARENA_PGTEST_KEEP is set (to look at what a test left with psql).
 *
 *	static struct pgtest pg;
 *	if (pgtest_start(&pg) < 0) return -1;   pg.conninfo for db_open()
 *	...
 *	pgtest_stop(&pg);
 */
#ifndef ARENA_PGTEST_H
#define ARENA_PGTEST_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coordinator/pgembed.h"

struct pgtest {
	char dir[64];		/* the cluster folder, /tmp/arena-pgtest-... */
	char *conninfo;		/* for db_open() */
};

static inline int
pgtest_remove(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

static inline int
pgtest_start(struct pgtest *pg)
{
	memset(pg, 0, sizeof *pg);
	strcpy(pg->dir, "/tmp/arena-pgtest-XXXXXX");
	if (mkdtemp(pg->dir) == NULL) {
		perror("pgtest: mkdtemp");
		return -1;
	}
	if (pgembed_start(pg->dir, &pg->conninfo) < 0) {
		fprintf(stderr, "pgtest: cannot start PostgreSQL in '%s'\n",
		    pg->dir);
		return -1;
	}
	return 0;
}

static inline void
pgtest_stop(struct pgtest *pg)
{
	if (pg->dir[0] == '\0')
		return;
	if (getenv("ARENA_PGTEST_KEEP")) {
		fprintf(stderr, "pgtest: kept the cluster in '%s': %s\n",
		    pg->dir, pg->conninfo);
		return;
	}
	pgembed_stop(pg->dir);
	if (nftw(pg->dir, pgtest_remove, 16, FTW_DEPTH | FTW_PHYS) < 0)
		fprintf(stderr, "pgtest: cannot remove '%s'\n", pg->dir);
	free(pg->conninfo);
	pg->conninfo = NULL;
	pg->dir[0] = '\0';
}

#endif
