/*
 * dstext: the line cursor and error messages shared by the games' dataset
 * parsers (dcdata, reversi, slboard, swfield, vtmap), so that
 * every game counts lines and columns the same way.
 */
#include "games/dstext.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
dstext_init(struct dstext *t, const char *name, const char *text,
    size_t len, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	t->name = name;
	t->p = text;
	t->end = text + len;
	t->err = err;
	t->errlen = errlen;
}

int
dstext_next(struct dstext *t)
{
	const char *nl;

	t->line++;
	if (t->p >= t->end)
		return 1;
	nl = memchr(t->p, '\n', (size_t)(t->end - t->p));
	t->ls = t->p;
	t->llen = (size_t)((nl != NULL ? nl : t->end) - t->p);
	t->p = nl != NULL ? nl + 1 : t->end;
	if (t->llen > 0 && t->ls[t->llen - 1] == '\r')
		t->llen--;
	return 0;
}

int
dstext_next_content(struct dstext *t, char comment)
{
	int rc;

	while ((rc = dstext_next(t)) == 0 && t->llen > 0 &&
	    t->ls[0] == comment)
		continue;
	return rc;
}

static int
vfail(struct dstext *t, int line, int col, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

static int
vfail(struct dstext *t, int line, int col, const char *fmt, va_list ap)
{
	char msg[256];

	vsnprintf(msg, sizeof msg, fmt, ap);
	snprintf(t->err, t->errlen, "%s:%d:%d: %s", t->name, line, col, msg);
	return -1;
}

int
dstext_fail(struct dstext *t, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(t, t->line, col, fmt, ap);
	va_end(ap);
	return -1;
}

int
dstext_fail_at(struct dstext *t, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(t, line, col, fmt, ap);
	va_end(ap);
	return -1;
}
