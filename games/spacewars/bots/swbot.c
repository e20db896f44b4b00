/*
 * swbot: input.txt parsing and field helpers for the Space Wars house
 * bots. A bot runs once per turn in its own folder, so everything it
 * remembers goes through a small state file there.
 */
#include "swbot.h"

#include <stdio.h>
#include <string.h>

const int swb_dr[4] = { -1, 0, 1, 0 };
const int swb_dc[4] = { 0, 1, 0, -1 };

bool
swb_is_ship(char ch)
{
	return ch != '\0' && strchr("urdl", ch) != NULL;
}

static int
read_rows(FILE *in, struct swb_view *v)
{
	char line[128];

	v->er = v->ec = -1;
	for (int r = 0; r < SWB_ROWS; r++) {
		size_t len;

		if (fgets(line, sizeof line, in) == NULL)
			return -1;
		len = strcspn(line, "\r\n");
		if (len != SWB_COLS)
			return -1;
		memcpy(v->f[r], line, SWB_COLS);
		for (int c = 0; c < SWB_COLS; c++)
			if (swb_is_ship(line[c]) && (r != v->r || c != v->c)) {
				v->er = r;
				v->ec = c;
			}
	}
	return 0;
}

/* The three header lines: turn, own position, own cargo symbol. */
static int
read_header(FILE *in, struct swb_view *v)
{
	char line[3][64], sym;

	for (int i = 0; i < 3; i++)
		if (fgets(line[i], sizeof line[i], in) == NULL)
			return -1;
	if (sscanf(line[0], "%d", &v->turn) != 1 ||
	    sscanf(line[1], "%d %d", &v->r, &v->c) != 2 ||
	    sscanf(line[2], " %c", &sym) != 1 || (sym != '1' && sym != '2'))
		return -1;
	v->me = sym;
	v->enemy = sym == '1' ? '2' : '1';
	return 0;
}

int
swb_read(struct swb_view *v)
{
	static const char letters[] = "urdl";
	FILE *in = fopen("input.txt", "r");
	int rc;

	if (in == NULL)
		return -1;
	rc = read_header(in, v) == 0 ? read_rows(in, v) : -1;
	fclose(in);
	if (rc == 0 && (!swb_on_field(v->r, v->c) ||
	    !swb_is_ship(v->f[v->r][v->c])))
		rc = -1;
	if (rc == 0)
		v->facing = (int)(strchr(letters, v->f[v->r][v->c]) - letters);
	return rc;
}

void
swb_write(char cmd)
{
	FILE *out = fopen("output.txt", "w");

	if (out == NULL)
		return;
	fprintf(out, "%c\n", cmd);
	fclose(out);
}

bool
swb_on_field(int r, int c)
{
	return r >= 0 && r < SWB_ROWS && c >= 0 && c < SWB_COLS;
}

bool
swb_blocked(const struct swb_view *v, int r, int c)
{
	if (!swb_on_field(r, c))
		return true;
	return strchr(" *o", v->f[r][c]) == NULL;
}

char
swb_first(const struct swb_view *v, int r, int c, int dir, int *dist)
{
	for (int k = 1;; k++) {
		int rr = r + k * swb_dr[dir], cc = c + k * swb_dc[dir];

		if (!swb_on_field(rr, cc))
			return ' ';
		if (swb_blocked(v, rr, cc)) {
			*dist = k;
			return v->f[rr][cc];
		}
	}
}

int
swb_load(const char *name, int *vals, int n)
{
	FILE *in = fopen(name, "r");
	int k = 0;

	if (in == NULL)
		return 0;
	while (k < n && fscanf(in, "%d", &vals[k]) == 1)
		k++;
	fclose(in);
	return k;
}

void
swb_save(const char *name, const int *vals, int n)
{
	FILE *out = fopen(name, "w");

	if (out == NULL)
		return;
	for (int k = 0; k < n; k++)
		fprintf(out, "%d%c", vals[k], k + 1 < n ? ' ' : '\n');
	fclose(out);
}
