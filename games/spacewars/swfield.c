/*
 * swfield: parses a Space Wars field file:
 *
 *	; comment lines, only before the header
 *	spacewars-field 1
 *	40 rows of up to 50 characters
 *
 * A row is what input.txt shows on turn 1: ' ' empty, '#' asteroid, and
 * the ships on their fixed start cells ('1' '2' cargo, 'd' 'u' the
 * battleships). A row shorter than 50 characters is padded with spaces,
 * because editors strip trailing blanks; a '\r' before a newline is
 * ignored. The field must be point-symmetric and keep asteroids off the
 * start cells and their neighbours. Every error names its line and column.
 */
#include "games/spacewars/swfield.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/dstext.h"

const int sw_cargo_start[SW_CARGO][2] = {
	{ 1, 1 }, { 1, 3 }, { 1, 5 }, { 3, 1 }, { 3, 3 }, { 3, 5 },
	{ 5, 1 }, { 5, 3 }, { 5, 5 },
};
const int sw_ship_start[2] = { 7, 7 };

char
swfield_start_symbol(int r, int c)
{
	for (int p = 0; p < 2; p++) {
		int rr = p ? sw_mirror_row(r) : r;
		int cc = p ? sw_mirror_col(c) : c;

		if (rr == sw_ship_start[0] && cc == sw_ship_start[1])
			return "du"[p];
		for (int k = 0; k < SW_CARGO; k++)
			if (rr == sw_cargo_start[k][0] &&
			    cc == sw_cargo_start[k][1])
				return "12"[p];
	}
	return ' ';
}

bool
swfield_near_start(int r, int c)
{
	for (int dr = -1; dr <= 1; dr++)
		for (int dc = -1; dc <= 1; dc++)
			if (swfield_start_symbol(r + dr, c + dc) != ' ')
				return true;
	return false;
}

static const char *
printable(char ch, char *buf, size_t len)
{
	if (ch >= 0x20 && ch <= 0x7e)
		snprintf(buf, len, "'%c'", ch);
	else
		snprintf(buf, len, "byte 0x%02x", (unsigned char)ch);
	return buf;
}

static int
parse_cell(struct dstext *c, struct game_dataset *ds, int r, int col)
{
	char ch = (size_t)col < c->llen ? c->ls[col] : ' ';
	char want = swfield_start_symbol(r, col), buf[16];

	if (want != ' ' && ch != want)
		return dstext_fail(c, col + 1, "expected '%c' (a start cell),"
		    " found %s", want, printable(ch, buf, sizeof buf));
	if (want != ' ')
		return 0;
	if (strchr("12du", ch) != NULL)
		return dstext_fail(c, col + 1, "'%c' is not on its start"
		    " cell", ch);
	if (ch != ' ' && ch != '#')
		return dstext_fail(c, col + 1, "unexpected %s (expected"
		    " ' ' or '#')", printable(ch, buf, sizeof buf));
	if (ch == '#' && swfield_near_start(r, col))
		return dstext_fail(c, col + 1, "asteroid on or next to a"
		    " ship's start cell");
	ds->asteroid[r][col] = ch == '#';
	ds->nasteroids += ch == '#';
	return 0;
}

static int
parse_rows(struct dstext *c, struct game_dataset *ds, int *lines)
{
	for (int r = 0; r < SW_ROWS; r++) {
		if (dstext_next(c) == 1)
			return dstext_fail(c, 1, "unexpected end of file,"
			    " expected field row %d of %d", r + 1, SW_ROWS);
		lines[r] = c->line;
		if (c->llen > SW_COLS)
			return dstext_fail(c, SW_COLS + 1, "row longer than"
			    " %d characters", SW_COLS);
		for (int col = 0; col < SW_COLS; col++)
			if (parse_cell(c, ds, r, col) == -1)
				return -1;
	}
	if (dstext_next(c) == 0)
		return dstext_fail(c, 1, "unexpected text after the %d"
		    " field rows", SW_ROWS);
	return 0;
}

static int
check_symmetry(struct dstext *c, const struct game_dataset *ds,
    const int *lines)
{
	for (int r = 0; r < SW_ROWS; r++) {
		for (int col = 0; col < SW_COLS; col++) {
			int mr = sw_mirror_row(r), mc = sw_mirror_col(col);

			if (ds->asteroid[r][col] && !ds->asteroid[mr][mc])
				return dstext_fail_at(c, lines[r], col + 1,
				    "asteroid without its mirror image at "
				    "line %d, column %d", lines[mr], mc + 1);
		}
	}
	return 0;
}

struct game_dataset *
swfield_parse(const char *name, const char *text, size_t len, char *err,
    size_t errlen)
{
	struct game_dataset *ds = xcalloc(1, sizeof *ds);
	struct dstext c;
	int lines[SW_ROWS];

	dstext_init(&c, name, text, len, err, errlen);
	if (dstext_next_content(&c, ';') == 1) {
		dstext_fail(&c, 1, "unexpected end of file, expected '%s'",
		    SW_FIELD_HEADER);
		goto fail;
	}
	if (c.llen != strlen(SW_FIELD_HEADER) ||
	    memcmp(c.ls, SW_FIELD_HEADER, c.llen) != 0) {
		dstext_fail(&c, 1, "expected '%s'", SW_FIELD_HEADER);
		goto fail;
	}
	if (parse_rows(&c, ds, lines) == -1 ||
	    check_symmetry(&c, ds, lines) == -1)
		goto fail;
	return ds;
fail:
	swfield_free(ds);
	return NULL;
}

void
swfield_free(struct game_dataset *ds)
{
	free(ds);
}
