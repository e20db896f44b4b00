/*
 * log: one line per event on stderr, "arena <role>[ game=<id>]: message".
 * Messages follow git's grammar: lowercase, what went wrong first, the
 * subject in quotes. errno is preserved by every call.
 */
#ifndef ARENA_LOG_H
#define ARENA_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void log_init(const char *role, bool debug);
/* Tag following lines with a game id; 0 removes the tag. */
void log_set_game(int64_t game_id);

void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Logs fmt and returns -1, so a failure is reported and propagated in one
 * line: return log_error("cannot open '%s'", path); */
int log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* As log_error, with ": strerror(errno)" appended. */
int log_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Start-up failures and out of memory only. */
_Noreturn void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Allocation that cannot fail: out of memory is fatal. */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
/* Caller owns the result; free with free(). */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
