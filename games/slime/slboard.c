/*
 * slboard: parses a Slime board and writes standard ones. A board file is
 * N lines of N characters, each '.' or a digit 1..4; N is read from the
 * first line, so any size from SL_MIN_SIDE to SL_MAX_SIDE works. Lines
 * starting with ';' are comments, a '\r' before a newline is dropped, and
 * the last line may lack its newline. Every error names its line and
 * column, counting comment lines, as an editor would.
 */
#include "games/slime/slboard.h"

#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/dstext.h"
#include "games/genopt.h"

/* Checks the current line, a board row, and copies it into row r of ds. */
static int
take_row(struct dstext *c, struct game_dataset *ds, int r)
{
	size_t len = c->llen;

	for (size_t i = 0; i < len && (int)i < ds->n; i++) {
		if (c->ls[i] != '.' &&
		    (c->ls[i] < '1' || c->ls[i] > '0' + SL_PLAYERS))
			return dstext_fail(c, (int)i + 1, "bad cell '%c' "
			    "(expected '.' or a player digit 1..4)", c->ls[i]);
	}
	if ((int)len != ds->n)
		return dstext_fail(c, (int)(len < (size_t)ds->n ? len :
		    (size_t)ds->n) + 1, "row has %zu cells, the first row "
		    "has %d", len, ds->n);
	memcpy(ds->cell + (size_t)r * (size_t)ds->n, c->ls, len);
	return 0;
}

struct game_dataset *
slboard_parse(const char *name, const char *text, size_t len, char *err,
    size_t errlen)
{
	struct game_dataset *ds = xcalloc(1, sizeof *ds);
	struct dstext c;
	int rows = 0;

	dstext_init(&c, name, text, len, err, errlen);
	while (dstext_next_content(&c, ';') == 0) {
		if (rows == 0) {
			if (c.llen < SL_MIN_SIDE || c.llen > SL_MAX_SIDE) {
				dstext_fail(&c, 1, "board side %zu out of "
				    "range %d..%d", c.llen, SL_MIN_SIDE,
				    SL_MAX_SIDE);
				goto fail;
			}
			ds->n = (int)c.llen;
			ds->cell = xmalloc(c.llen * c.llen);
		} else if (rows == ds->n) {
			dstext_fail(&c, 1, "more than %d rows (the board is "
			    "square)", ds->n);
			goto fail;
		}
		if (take_row(&c, ds, rows++) == -1)
			goto fail;
	}
	/* The missing row would start on the line after the last one:
	 * after a last line without its newline, on that line. */
	c.line -= len > 0 && text[len - 1] != '\n';
	if (rows == 0) {
		dstext_fail(&c, 1, "no board rows");
		goto fail;
	}
	if (rows < ds->n) {
		dstext_fail(&c, 1, "%d rows, expected %d (the board is "
		    "square)", rows, ds->n);
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

/* fmt NULL: the error is already logged. */
static int
usage(const char *fmt, const char *arg)
{
	if (fmt != NULL)
		log_error(fmt, arg);
	return log_error("usage: arena gen slime [--size N] [--players K]"
	    " [--seed N] [-o FILE]");
}

static int
parse_count(const char *opt, const char *val, long lo, long hi, int *out)
{
	uint64_t v;

	if (genopt_number(val, &v) == -1 || v < (uint64_t)lo ||
	    v > (uint64_t)hi)
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
	int n = 8, players = SL_PLAYERS, i = 1, more;
	const char *opt, *val;
	uint64_t seed;
	char *cell;

	while ((more = genopt_pair(argc, argv, &i, &opt, &val)) == 1) {
		if (strcmp(opt, "--size") == 0) {
			if (parse_count(opt, val, SL_MIN_SIDE, SL_MAX_SIDE,
			    &n) == -1)
				return -1;
		} else if (strcmp(opt, "--seed") == 0) {
			/* the start has no chance in it; accepted because
			 * `arena gen` passes one to every game */
			if (genopt_number(val, &seed) == -1)
				return usage("bad value for %s", opt);
		} else if (strcmp(opt, "--players") == 0) {
			if (parse_count(opt, val, 2, SL_PLAYERS,
			    &players) == -1)
				return -1;
		} else {
			return usage("unknown option '%s'", opt);
		}
	}
	if (more == -1)
		return usage(NULL, NULL);
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
