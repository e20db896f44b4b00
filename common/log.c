/* log: the process-wide logger and the allocation helpers that die on OOM. */
#include "common/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *log_role = "arena";
static bool log_debugging;
static int64_t log_game;

void
log_init(const char *role, bool debug)
{
	log_role = role;
	log_debugging = debug;
}

void
log_set_game(int64_t game_id)
{
	log_game = game_id;
}

static void
log_vline(const char *level, const char *suffix, const char *fmt, va_list ap)
{
	int saved = errno;
	char msg[2048];

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (log_game)
		fprintf(stderr, "arena %s game=%lld: %s%s%s\n", log_role,
		    (long long)log_game, level, msg, suffix);
	else
		fprintf(stderr, "arena %s: %s%s%s\n", log_role, level, msg,
		    suffix);
	errno = saved;
}

void
log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline("", "", fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list ap;

	if (!log_debugging)
		return;
	va_start(ap, fmt);
	log_vline("debug: ", "", fmt, ap);
	va_end(ap);
}

void
log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline("warning: ", "", fmt, ap);
	va_end(ap);
}

int
log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline("error: ", "", fmt, ap);
	va_end(ap);
	return -1;
}

int
log_errno(const char *fmt, ...)
{
	char suffix[256];
	va_list ap;

	snprintf(suffix, sizeof suffix, ": %s", strerror(errno));
	va_start(ap, fmt);
	log_vline("error: ", suffix, fmt, ap);
	va_end(ap);
	return -1;
}

void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline("fatal: ", "", fmt, ap);
	va_end(ap);
	exit(2);
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		fatal("out of memory");
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		fatal("out of memory");
	return p;
}

void *
xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (p == NULL)
		fatal("out of memory");
	return p;
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		fatal("out of memory");
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	char *p;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		fatal("out of memory");
	va_end(ap);
	return p;
}
