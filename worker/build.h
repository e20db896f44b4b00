/*
 * build: an entry made ready to run on this worker, once. Its artifact,
 * fetched into <data>/artifacts/<sha256>.tar by the worker's loop, is
 * unpacked to <data>/builds/<sha256 (first 32 digits)>-<hash of the build
 * command>/box (a seat without an artifact: its local folder is copied to
 * <data>/builds/<entry>-<hash of folder, build command and the names,
 * sizes and times of its files>/box) and the build command run there
 * in the sandbox (output in build.log beside box, at most BUILD_LIMIT_MS).
 * A stamp file records success, another one failure, so later games reuse
 * the outcome; flock() keeps two slots from building the same entry at
 * once.
 */
#ifndef ARENA_BUILD_H
#define ARENA_BUILD_H

#include "common/proto.h"
#include "common/verdict.h"

#define BUILD_LIMIT_MS 60000	/* wall time for one build */
#define BUILD_MEMORY_MB 2048	/* compilers and linkers need room */
#define BUILD_PIDS 256		/* make -j, compiler drivers */

/* Prepares seat's entry under data_dir. Returns 0 with *verdict OK and
 * *dir (the built folder: copy it for each run, never run in it), or
 * *verdict RE and *detail ("build failed (exit code 1): <last line of
 * build.log>"): a fault of the entry. -1 on our own failure, logged.
 * Caller owns *dir and *detail; free(). */
int build_prepare(const char *data_dir, const struct msg_seat *seat,
    char **dir, enum verdict *verdict, char **detail);

#endif
