/*
 * dcdata: parses a Dream City dataset file. The format is line-based:
 *
 *	dreamcity-dataset 1
 *	size W H
 *	zones
 *	H rows of W zone characters
 *	buildings N
 *	N times: "building ID W H TYPE" then H rows of W mask characters
 *
 * Lines starting with ';' are comments; a '\r' before a newline is
 * ignored; nothing else is tolerated. The parser reads the text through a
 * cursor that knows the current line, so every error names its line and
 * column; it never reads past len, whatever the bytes.
 */
#include "games/dreamcity/dcdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/dstext.h"

#define MAX_WORDS	6

struct words {
	int n;
	const char *w[MAX_WORDS];
	size_t len[MAX_WORDS];
	int col[MAX_WORDS];	/* 1-based */
};

/* Moves to the next line that is not a comment; what names the expected
 * content for the end-of-file message. */
static int
next_line(struct dstext *c, const char *what)
{
	if (dstext_next_content(c, ';') == 1)
		return dstext_fail(c, 1, "unexpected end of file, expected %s",
		    what);
	return 0;
}

static int
is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* Splits the current line into exactly n words; what describes them. */
static int
split(struct dstext *c, struct words *w, int n, const char *what)
{
	size_t i = 0;

	w->n = 0;
	for (;;) {
		while (i < c->llen && is_blank(c->ls[i]))
			i++;
		if (i == c->llen)
			break;
		if (w->n == n)
			return dstext_fail(c, (int)i + 1,
			    "unexpected text after %s", what);
		w->w[w->n] = c->ls + i;
		w->col[w->n] = (int)i + 1;
		while (i < c->llen && !is_blank(c->ls[i]))
			i++;
		w->len[w->n] = (size_t)(c->ls + i - w->w[w->n]);
		w->n++;
	}
	if (w->n < n)
		return dstext_fail(c, (int)c->llen + 1, "expected %s", what);
	return 0;
}

static int
word_is(const struct words *w, int i, const char *s)
{
	return w->len[i] == strlen(s) && memcmp(w->w[i], s, w->len[i]) == 0;
}

static int
keyword(struct dstext *c, struct words *w, const char *kw)
{
	if (!word_is(w, 0, kw))
		return dstext_fail(c, w->col[0], "expected '%s'", kw);
	return 0;
}

/* Reads word i as a decimal integer in lo..hi; what names it. */
static int
number(struct dstext *c, const struct words *w, int i, long lo, long hi,
    const char *what, int *out)
{
	long v = 0;

	if (w->len[i] > 9)
		return dstext_fail(c, w->col[i], "%s out of range %ld..%ld",
		    what, lo, hi);
	for (size_t k = 0; k < w->len[i]; k++) {
		if (w->w[i][k] < '0' || w->w[i][k] > '9')
			return dstext_fail(c, w->col[i] + (int)k,
			    "%s is not a number", what);
		v = v * 10 + (w->w[i][k] - '0');
	}
	if (v < lo || v > hi)
		return dstext_fail(c, w->col[i],
		    "%s %ld out of range %ld..%ld", what, v, lo, hi);
	*out = (int)v;
	return 0;
}

/* Reads one grid row of exactly width characters from alphabet, storing
 * each character's index in alphabet. */
static int
grid_row(struct dstext *c, int width, const char *alphabet, const char *what,
    unsigned char *out)
{
	if (next_line(c, what) == -1)
		return -1;
	for (size_t i = 0; i < c->llen && i < (size_t)width; i++) {
		const char *hit = c->ls[i] ? strchr(alphabet, c->ls[i]) : NULL;

		if (hit == NULL)
			return dstext_fail(c, (int)i + 1,
			    "bad character in %s (expected one of \"%s\")",
			    what, alphabet);
		out[i] = (unsigned char)(hit - alphabet);
	}
	if (c->llen != (size_t)width)
		return dstext_fail(c, (int)(c->llen < (size_t)width ? c->llen :
		    (size_t)width) + 1, "%s has %zu characters, expected %d",
		    what, c->llen, width);
	return 0;
}

/* Zone characters in enum dc_zone order. */
static const char zone_chars[] = "#.LBI";

static int
parse_map(struct dstext *c, struct game_dataset *ds)
{
	struct words w;

	if (next_line(c, "'dreamcity-dataset 1'") == -1 ||
	    split(c, &w, 2, "'dreamcity-dataset 1'") == -1 ||
	    keyword(c, &w, "dreamcity-dataset") == -1)
		return -1;
	if (!word_is(&w, 1, "1"))
		return dstext_fail(c, w.col[1], "unsupported format version");
	if (next_line(c, "'size W H'") == -1 ||
	    split(c, &w, 3, "'size W H'") == -1 ||
	    keyword(c, &w, "size") == -1 ||
	    number(c, &w, 1, 1, DC_MAX_SIDE, "map width", &ds->w) == -1 ||
	    number(c, &w, 2, 1, DC_MAX_SIDE, "map height", &ds->h) == -1)
		return -1;
	if (next_line(c, "'zones'") == -1 || split(c, &w, 1, "'zones'") == -1 ||
	    keyword(c, &w, "zones") == -1)
		return -1;
	ds->zone = xmalloc((size_t)ds->w * (size_t)ds->h);
	for (int y = 0; y < ds->h; y++)
		if (grid_row(c, ds->w, zone_chars, "zone row",
		    ds->zone + (size_t)y * (size_t)ds->w) == -1)
			return -1;
	for (int i = 0; i < ds->w * ds->h; i++)
		if (ds->zone[i] >= DC_LIVING)
			ds->colour_cells[ds->zone[i] - DC_LIVING]++;
	return 0;
}

static int
parse_type(struct dstext *c, const struct words *w, int *type)
{
	for (int t = DC_HOUSE; t <= DC_FACTORY; t++) {
		if (word_is(w, 4, dcdata_type_word(t))) {
			*type = t;
			return 0;
		}
	}
	return dstext_fail(c, w->col[4],
	    "unknown building type (expected house, market or factory)");
}

static int
parse_building(struct dstext *c, struct game_dataset *ds, int k)
{
	struct dc_building *b = &ds->b[k];
	struct words w;
	int line;

	if (next_line(c, "'building ID W H TYPE'") == -1 ||
	    split(c, &w, 5, "'building ID W H TYPE'") == -1 ||
	    keyword(c, &w, "building") == -1 ||
	    number(c, &w, 1, 0, DC_MAX_ID, "building id", &b->id) == -1 ||
	    number(c, &w, 2, 1, DC_MAX_SIDE, "building width", &b->w) == -1 ||
	    number(c, &w, 3, 1, DC_MAX_SIDE, "building height", &b->h) == -1 ||
	    parse_type(c, &w, &b->type) == -1)
		return -1;
	for (int i = 0; i < k; i++)
		if (ds->b[i].id == b->id)
			return dstext_fail(c, w.col[1],
			    "duplicate building id %d", b->id);
	line = c->line;
	b->mask = xmalloc((size_t)b->w * (size_t)b->h);
	for (int y = 0; y < b->h; y++)
		if (grid_row(c, b->w, ".X", "mask row",
		    b->mask + (size_t)y * (size_t)b->w) == -1)
			return -1;
	for (int i = 0; i < b->w * b->h; i++)
		b->area += b->mask[i];
	if (b->area == 0)
		return dstext_fail_at(c, line, 1, "building %d has no cells",
		    b->id);
	ds->total_area += b->area;
	return 0;
}

struct game_dataset *
dcdata_parse(const char *name, const char *text, size_t len, char *err,
    size_t errlen)
{
	struct game_dataset *ds = xcalloc(1, sizeof *ds);
	struct dstext c;
	struct words w;

	dstext_init(&c, name, text, len, err, errlen);

	if (parse_map(&c, ds) == -1)
		goto fail;
	if (next_line(&c, "'buildings N'") == -1 ||
	    split(&c, &w, 2, "'buildings N'") == -1 ||
	    keyword(&c, &w, "buildings") == -1 ||
	    number(&c, &w, 1, 1, DC_MAX_BUILDINGS, "building count",
	    &ds->nbuildings) == -1)
		goto fail;
	ds->b = xcalloc((size_t)ds->nbuildings, sizeof *ds->b);
	for (int k = 0; k < ds->nbuildings; k++)
		if (parse_building(&c, ds, k) == -1)
			goto fail;
	/* Only comments may follow; next_line() fails at the end. */
	if (c.p < c.end && next_line(&c, "") == 0) {
		dstext_fail(&c, 1, "unexpected text after the last building");
		goto fail;
	}
	if (errlen > 0)
		err[0] = '\0';
	return ds;
fail:
	dcdata_free(ds);
	return NULL;
}

void
dcdata_free(struct game_dataset *ds)
{
	if (ds == NULL)
		return;
	for (int k = 0; ds->b != NULL && k < ds->nbuildings; k++)
		free(ds->b[k].mask);
	free(ds->b);
	free(ds->zone);
	free(ds);
}

char
dcdata_zone_char(int zone)
{
	return zone_chars[zone];
}

const char *
dcdata_type_word(int type)
{
	static const char *const words[] = { "house", "market", "factory" };

	return words[type - DC_LIVING];
}
