/*
 * slboard: parses a Slime board and writes standard ones. A board file is
 * N lines of N characters, each '.' or a digit 1..4; N is read from the
 * first line, so any size from SL_MIN_SIDE to SL_MAX_SIDE works. Lines
 * starting with ';' are comments, a '\r' before a newline is dropped, and
 * the last line may lack its newline. Every error names its line and
 * column, counting comment lines, as an editor would.
 */
#include "games/slime/slboard.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

struct cur {
	const char *name;	/* dataset name for errors */
	char *err;		/* where errors go */
	size_t errlen;
	int line;		/* 1-based line of the last error */
};

static int
fail(struct cur *c, int col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(struct cur *c, int col, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s:%d:%d: %s", c->name, c->line, col,
	    msg);
	return -1;
}

/* Checks one board row and copies it into row r of ds. */
static int
take_row(struct cur *c, struct game_dataset *ds, int r, const char *p,
    size_t len)
{
	for (size_t i = 0; i < len && (int)i < ds->n; i++) {
		if (p[i] != '.' && (p[i] < '1' || p[i] > '0' + SL_PLAYERS))
			return fail(c, (int)i + 1, "bad cell '%c' (expected"
			    " '.' or a player digit 1..4)", p[i]);
	}
	if ((int)len != ds->n)
		return fail(c, (int)(len < (size_t)ds->n ? len : (size_t)ds->n)
		    + 1, "row has %zu cells, the first row has %d", len,
		    ds->n);
	memcpy(ds->cell + (size_t)r * (size_t)ds->n, p, len);
	return 0;
}

struct game_dataset *
slboard_parse(const char *name, const char *text, size_t len, char *err,
    size_t errlen)
{
	struct cur c = { name, err, errlen, 0 };
	struct game_dataset *ds = xcalloc(1, sizeof *ds);
	const char *p = text, *end = text + len;
	int rows = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl != NULL ? nl : end) - p);
		const char *ln = p;

		p += n + (nl != NULL);
		c.line++;
		if (n > 0 && ln[n - 1] == '\r')
			n--;
		if (n > 0 && ln[0] == ';')
			continue;
		if (rows == 0) {
			if (n < SL_MIN_SIDE || n > SL_MAX_SIDE) {
				fail(&c, 1, "board side %zu out of range"
				    " %d..%d", n, SL_MIN_SIDE, SL_MAX_SIDE);
				goto fail;
			}
			ds->n = (int)n;
			ds->cell = xmalloc(n * n);
		} else if (rows == ds->n) {
			fail(&c, 1, "more than %d rows (the board is square)",
			    ds->n);
			goto fail;
		}
		if (take_row(&c, ds, rows++, ln, n) == -1)
			goto fail;
	}
	/* the missing row would start on the line after the last one */
	c.line += len == 0 || text[len - 1] == '\n';
	if (rows == 0) {
		fail(&c, 1, "no board rows");
		goto fail;
	}
	if (rows < ds->n) {
		fail(&c, 1, "%d rows, expected %d (the board is square)",
		    rows, ds->n);
		goto fail;
	}
	return ds;
fail:
	slboard_free(ds);
	return NULL;
}

void
slboard_free(struct game_dataset *ds)
{
	if (ds == NULL)
		return;
	free(ds->cell);
	free(ds);
}

static int
usage(const char *fmt, const char *arg)
{
	log_error(fmt, arg);
	return log_error("usage: arena gen slime [--size N] [--players K] [--seed N]"
	    " [-o FILE]");
}

static int
parse_count(const char *opt, const char *val, long lo, long hi, int *out)
{
	char *end;
	long v = strtol(val, &end, 10);

	if (*val == '\0' || *end != '\0' || v < lo || v > hi)
		return usage("bad value for %s", opt);
	*out = (int)v;
	return 0;
}

/* Corners in seat order: the original's 1 top-left, 2 top-right,
 * 3 bottom-left, 4 bottom-right. Two players take opposite corners so
 * neither is closer to the other's side. */
int
slboard_generate(int argc, char **argv, FILE *out)
{
	int n = 8, players = SL_PLAYERS;
	char *cell;

	for (int i = 1; i < argc; i += 2) {
		if (i + 1 >= argc)
			return usage("option '%s' needs a value", argv[i]);
		if (strcmp(argv[i], "--size") == 0) {
			if (parse_count(argv[i], argv[i + 1], SL_MIN_SIDE,
			    SL_MAX_SIDE, &n) == -1)
				return -1;
		} else if (strcmp(argv[i], "--seed") == 0) {
			/* the start has no chance in it; accepted because
			 * `arena gen` passes one to every game */
			const char *v = argv[i + 1];

			if (*v == '\0' || v[strspn(v, "0123456789")] != '\0')
				return usage("bad value for %s", argv[i]);
		} else if (strcmp(argv[i], "--players") == 0) {
			if (parse_count(argv[i], argv[i + 1], 2, SL_PLAYERS,
			    &players) == -1)
				return -1;
		} else {
			return usage("unknown option '%s'", argv[i]);
		}
	}
	cell = xmalloc((size_t)(n * n));
	memset(cell, '.', (size_t)(n * n));
	cell[0] = '1';
	if (players == 2) {
		cell[n * n - 1] = '2';
	} else {
		cell[n - 1] = '2';
		cell[(n - 1) * n] = '3';
		if (players == 4)
			cell[n * n - 1] = '4';
	}
	for (int r = 0; r < n; r++)
		fprintf(out, "%.*s\n", n, cell + r * n);
	free(cell);
	return 0;
}
