/*
 * filter: the seccomp filter of a sandboxed command (libseccomp). Private
 * to sandbox/.
 */
#ifndef ARENA_SANDBOX_FILTER_H
#define ARENA_SANDBOX_FILTER_H

#include <stdbool.h>

/* Builds the filter in the caller (before forking), so the child only
 * loads it. 0 or -1 after logging. */
int filter_prepare(bool processes);
/* Loads the filter prepared for processes into the calling process; the
 * last step before exec. 0 or -1 (no logging: called in the child). */
int filter_load(bool processes);
/* Whether this kernel accepts a seccomp filter (for sandbox_doctor). */
bool filter_available(void);

#endif
