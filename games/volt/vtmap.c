/*
 * vtmap: parses a Volt map. Three header lines (steps, rows, columns,
 * each one integer) then one line per row of cell tokens: W E B F 1 2 and
 * P followed by its digit, optionally separated by blanks. Empty lines and
 * lines starting with '#' are skipped anywhere. Every error names the
 * file, line and column.
 */
#include "games/volt/vtmap.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/dstext.h"

static bool
blank(char c)
{
	return c == ' ' || c == '\t';
}

/* A header line: one integer in [lo, hi], blanks around it. */
static int
header(struct dstext *cu, const char *l, size_t n, const char *what, int lo,
    int hi, int *out)
{
	size_t i = 0;
	long v = 0;
	int digits = 0;

	while (i < n && blank(l[i]))
		i++;
	for (; i < n && l[i] >= '0' && l[i] <= '9' && digits < 6; digits++)
		v = 10 * v + l[i++] - '0';
	if (digits == 0)
		return dstext_fail(cu, (int)i + 1, "expected the %s (a number)",
		    what);
	while (i < n && blank(l[i]))
		i++;
	if (i < n)
		return dstext_fail(cu, (int)i + 1,
		    "unexpected text after the %s", what);
	if (v < lo || v > hi)
		return dstext_fail(cu, 1, "the %s must be %d to %d, not %ld",
		    what, lo, hi, v);
	*out = (int)v;
	return 0;
}

static int
cell(struct dstext *cu, struct game_dataset *ds, int r, int c,
    const char *l, size_t n, size_t *i, int count[2])
{
	static const char tokens[] = "EWBFP12";
	const char *k = strchr(tokens, l[*i]);
	int col = (int)*i + 1;

	if (l[*i] == '\0' || k == NULL) {
		if ((unsigned char)l[*i] > ' ' && (unsigned char)l[*i] < 127)
			return dstext_fail(cu, col, "expected one of W E B F "
			    "P1 1 2, not '%c'", l[*i]);
		return dstext_fail(cu, col, "expected one of W E B F P1 1 2, "
		    "not byte 0x%02x", (unsigned char)l[*i]);
	}
	ds->cell[r][c] = (unsigned char)(k - tokens);
	(*i)++;
	if (*k == 'P') {
		if (*i >= n || l[*i] < '0' || l[*i] > '9')
			return dstext_fail(cu, col + 1, "a gate 'P' takes a "
			    "digit, its first ability");
		ds->digit[r][c] = (unsigned char)(l[(*i)++] - '0');
	}
	if (*k == '1' || *k == '2')
		count[*k - '1']++;
	return 0;
}

static int
row(struct dstext *cu, struct game_dataset *ds, int r, const char *l,
    size_t n, int count[2])
{
	size_t i = 0;
	int c = 0;

	for (;;) {
		while (i < n && blank(l[i]))
			i++;
		if (i == n)
			break;
		if (c == ds->cols)
			return dstext_fail(cu, (int)i + 1, "row %d has more "
			    "than the %d columns", r + 1, ds->cols);
		if (cell(cu, ds, r, c++, l, n, &i, count) == -1)
			return -1;
	}
	if (c < ds->cols)
		return dstext_fail(cu, (int)i + 1,
		    "row %d has %d cells, not %d", r + 1, c, ds->cols);
	return 0;
}

/* One significant line: a header while fewer than 3 were read, then a
 * grid row. */
static int
line(struct dstext *cu, struct game_dataset *ds, int *seen, const char *l,
    size_t n, int count[2])
{
	int k = (*seen)++;

	if (k == 0)
		return header(cu, l, n, "number of steps", VT_MIN_STEPS,
		    VT_MAX_STEPS, &ds->steps);
	if (k == 1)
		return header(cu, l, n, "number of rows", 1, VT_MAX,
		    &ds->rows);
	if (k == 2)
		return header(cu, l, n, "number of columns", 1, VT_MAX,
		    &ds->cols);
	if (k - 3 >= ds->rows)
		return dstext_fail(cu, 1, "more rows than the %d stated",
		    ds->rows);
	return row(cu, ds, k - 3, l, n, count);
}

struct game_dataset *
vtmap_parse(const char *name, const char *text, size_t len, char *err,
    size_t errlen)
{
	struct game_dataset *ds = xcalloc(1, sizeof *ds);
	struct dstext cu;
	int seen = 0, count[2] = { 0, 0 };

	dstext_init(&cu, name, text, len, err, errlen);
	while (dstext_next_content(&cu, '#') == 0) {
		size_t i = 0;

		while (i < cu.llen && blank(cu.ls[i]))
			i++;
		if (i < cu.llen &&
		    line(&cu, ds, &seen, cu.ls, cu.llen, count) == -1)
			goto fail;
	}
	if (seen < 3) {
		dstext_fail(&cu, 1,
		    "the map ends before its three header lines");
		goto fail;
	}
	if (seen < 3 + ds->rows) {
		dstext_fail(&cu, 1, "the map ends after %d of its %d rows",
		    seen - 3, ds->rows);
		goto fail;
	}
	if (count[0] != 2 || count[1] != 2) {
		dstext_fail(&cu, 1, "a map has 2 players of each team ('1' and "
		    "'2'), this one %d and %d", count[0], count[1]);
		goto fail;
	}
	return ds;
fail:
	free(ds);
	return NULL;
}

void
vtmap_free(struct game_dataset *ds)
{
	free(ds);
}
