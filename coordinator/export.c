/*
 * export: writes rows as text. Both row kinds are seen as a sheet of named
 * columns whose cells are strings, so each format is written once. The
 * block formats (table, md, html) split a sheet into one block per value
 * of its first two columns (stage, group) and show the rest.
 * export_open() is the shared start of `arena standings` and `arena
 * export`: which database, which tournament.
 */
#include "coordinator/export.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/log.h"
#include "common/spec.h"
#include "coordinator/pgembed.h"

/* Longest number cell: an int64 in decimal, sign and NUL. */
#define CELL_MAX 24

struct sheet {
	const char *const *cols;	/* column names, as in the CSV header */
	const bool *numeric;		/* unquoted in JSON, right-aligned */
	size_t ncols;
	size_t nrows;
	/* Cell (row, col): a field's own string, or a number in buf. */
	const char *(*cell)(const void *rows, size_t row, size_t col,
	    char buf[CELL_MAX]);
	const void *rows;
};

static const char *const standing_cols[] = { "stage", "group", "rank",
	"entry", "played", "won", "drawn", "lost", "points", "games_won",
	"net_points" };
static const bool standing_numeric[] = { false, false, true, false, true,
	true, true, true, true, true, true };

/* The last two only when a game has more than two seats. */
static const char *const game_cols[] = { "stage", "group", "match", "game",
	"dataset", "first", "second", "score_first", "score_second", "winner",
	"end_reason", "seats", "scores" };
static const bool game_numeric[] = { false, false, true, true, false, false,
	false, true, true, false, false, false, false };

static const char *
number(char buf[CELL_MAX], int64_t v)
{
	snprintf(buf, CELL_MAX, "%" PRId64, v);
	return buf;
}

static const char *
text(const char *s)
{
	return s ? s : "";
}

static const char *
standing_cell(const void *rows, size_t row, size_t col, char buf[CELL_MAX])
{
	const struct db_standing *s = (const struct db_standing *)rows + row;

	switch (col) {
	case 0: return text(s->stage);
	case 1: return text(s->group);
	case 2: return number(buf, s->rank);
	case 3: return text(s->entry);
	case 4: return number(buf, s->played);
	case 5: return number(buf, s->won);
	case 6: return number(buf, s->drawn);
	case 7: return number(buf, s->lost);
	case 8: return number(buf, s->points);
	case 9: return number(buf, s->games_won);
	default: return number(buf, s->net_points);
	}
}

static const char *
game_cell(const void *rows, size_t row, size_t col, char buf[CELL_MAX])
{
	const struct db_game_row *g = (const struct db_game_row *)rows + row;

	switch (col) {
	case 0: return text(g->stage);
	case 1: return text(g->group);
	case 2: return number(buf, g->match);
	case 3: return number(buf, g->game);
	case 4: return text(g->dataset);
	case 5: return text(g->first);
	case 6: return text(g->second);
	case 7: return number(buf, g->score_first);
	case 8: return number(buf, g->score_second);
	case 9: return text(g->winner);
	case 10: return text(g->end_reason);
	case 11: return text(g->seats);
	default: return text(g->scores);
	}
}

static const char *
cell(const struct sheet *sh, size_t row, size_t col, char buf[CELL_MAX])
{
	return sh->cell(sh->rows, row, col, buf);
}

static void
csv_field(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void
write_csv(FILE *out, const struct sheet *sh)
{
	char buf[CELL_MAX];

	for (size_t c = 0; c < sh->ncols; c++)
		fprintf(out, "%s%s", c ? "," : "", sh->cols[c]);
	fputc('\n', out);
	for (size_t r = 0; r < sh->nrows; r++) {
		for (size_t c = 0; c < sh->ncols; c++) {
			if (c)
				fputc(',', out);
			csv_field(out, cell(sh, r, c, buf));
		}
		fputc('\n', out);
	}
}

static void
write_json(FILE *out, const struct sheet *sh)
{
	char buf[CELL_MAX];

	fputc('[', out);
	for (size_t r = 0; r < sh->nrows; r++) {
		fputs(r ? ",\n  {" : "\n  {", out);
		for (size_t c = 0; c < sh->ncols; c++) {
			const char *v = cell(sh, r, c, buf);

			fputs(c ? ", " : "", out);
			json_write_string(out, sh->cols[c]);
			fputs(": ", out);
			if (sh->numeric[c])
				fputs(*v ? v : "null", out);
			else
				json_write_string(out, v);
		}
		fputc('}', out);
	}
	fputs(sh->nrows ? "\n]\n" : "]\n", out);
}

/* Rows [start, *end) share stage and group: one block. */
static size_t
block_end(const struct sheet *sh, size_t start)
{
	char b1[CELL_MAX], b2[CELL_MAX];
	size_t end = start + 1;

	while (end < sh->nrows &&
	    strcmp(cell(sh, start, 0, b1), cell(sh, end, 0, b2)) == 0 &&
	    strcmp(cell(sh, start, 1, b1), cell(sh, end, 1, b2)) == 0)
		end++;
	return end;
}

static void
write_table_block(FILE *out, const struct sheet *sh, size_t start,
    size_t end)
{
	char buf[CELL_MAX], buf2[CELL_MAX];
	int width[16];

	fprintf(out, "%s, group %s\n", cell(sh, start, 0, buf),
	    cell(sh, start, 1, buf2));
	for (size_t c = 2; c < sh->ncols; c++) {
		width[c] = (int)strlen(sh->cols[c]);
		for (size_t r = start; r < end; r++) {
			int w = (int)strlen(cell(sh, r, c, buf));

			if (w > width[c])
				width[c] = w;
		}
	}
	for (size_t c = 2; c < sh->ncols; c++)
		fprintf(out, "%s%*s", c > 2 ? "  " : "",
		    sh->numeric[c] ? width[c] : -width[c], sh->cols[c]);
	fputc('\n', out);
	for (size_t r = start; r < end; r++) {
		for (size_t c = 2; c < sh->ncols; c++)
			fprintf(out, "%s%*s", c > 2 ? "  " : "",
			    sh->numeric[c] ? width[c] : -width[c],
			    cell(sh, r, c, buf));
		fputc('\n', out);
	}
}

static void
md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("|\\*_`[]<>#", *s))
			fputc('\\', out);
		fputc(*s == '\n' ? ' ' : *s, out);
	}
}

static void
write_md_block(FILE *out, const struct sheet *sh, size_t start, size_t end)
{
	char buf[CELL_MAX];

	fputs("### ", out);
	md_text(out, cell(sh, start, 0, buf));
	fputs(", group ", out);
	md_text(out, cell(sh, start, 1, buf));
	fputs("\n\n|", out);
	for (size_t c = 2; c < sh->ncols; c++)
		fprintf(out, " %s |", sh->cols[c]);
	fputs("\n|", out);
	for (size_t c = 2; c < sh->ncols; c++)
		fputs(sh->numeric[c] ? " ---: |" : " :--- |", out);
	fputc('\n', out);
	for (size_t r = start; r < end; r++) {
		fputc('|', out);
		for (size_t c = 2; c < sh->ncols; c++) {
			fputc(' ', out);
			md_text(out, cell(sh, r, c, buf));
			fputs(" |", out);
		}
		fputc('\n', out);
	}
}

static void
html_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
	}
}

static void
write_html_block(FILE *out, const struct sheet *sh, size_t start,
    size_t end)
{
	char buf[CELL_MAX];

	fputs("<h2>", out);
	html_text(out, cell(sh, start, 0, buf));
	fputs(", group ", out);
	html_text(out, cell(sh, start, 1, buf));
	fputs("</h2>\n<table>\n<thead><tr>", out);
	for (size_t c = 2; c < sh->ncols; c++)
		fprintf(out, "<th>%s</th>", sh->cols[c]);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t r = start; r < end; r++) {
		fputs("<tr>", out);
		for (size_t c = 2; c < sh->ncols; c++) {
			fputs(sh->numeric[c] ? "<td class=\"n\">" : "<td>", out);
			html_text(out, cell(sh, r, c, buf));
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

static void
write_html(FILE *out, const struct sheet *sh, const char *title)
{
	const char *t = title ? title : "standings";

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>", out);
	html_text(out, t);
	fputs("</title>\n<style>\n"
	    "body { font-family: sans-serif; margin: 2em; }\n"
	    "table { border-collapse: collapse; margin-bottom: 2em; }\n"
	    "th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; }\n"
	    "td.n { text-align: right; }\n"
	    "</style>\n</head>\n<body>\n<h1>", out);
	html_text(out, t);
	fputs("</h1>\n", out);
	for (size_t r = 0; r < sh->nrows; r = block_end(sh, r))
		write_html_block(out, sh, r, block_end(sh, r));
	fputs("</body>\n</html>\n", out);
}

static void
write_blocks(FILE *out, const struct sheet *sh, enum export_format format,
    const char *title)
{
	if (title && format == EXPORT_MD) {
		fputs("## ", out);
		md_text(out, title);
		fputs("\n\n", out);
	} else if (title) {
		fprintf(out, "%s\n\n", title);
	}
	for (size_t r = 0; r < sh->nrows; r = block_end(sh, r)) {
		if (r)
			fputc('\n', out);
		if (format == EXPORT_MD)
			write_md_block(out, sh, r, block_end(sh, r));
		else
			write_table_block(out, sh, r, block_end(sh, r));
	}
}

static int
finish(FILE *out)
{
	if (fflush(out) != 0 || ferror(out))
		return log_errno("cannot write the output");
	return 0;
}

int
export_format_parse(const char *name, enum export_format *out)
{
	static const char *const names[] = { "table", "csv", "md", "json",
		"html" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strcmp(name, names[i]) == 0) {
			*out = (enum export_format)i;
			return 0;
		}
	}
	return log_error("unknown format '%s' (known: table, csv, md, json, "
	    "html)", name);
}

/* sh in format: csv, json, html, or text and markdown blocks. */
static void
write_sheet(FILE *out, const struct sheet *sh, enum export_format format,
    const char *title)
{
	switch (format) {
	case EXPORT_CSV:
		write_csv(out, sh);
		break;
	case EXPORT_JSON:
		write_json(out, sh);
		break;
	case EXPORT_HTML:
		write_html(out, sh, title);
		break;
	default:
		write_blocks(out, sh, format, title);
		break;
	}
}

int
export_standings(FILE *out, enum export_format format, const char *title,
    const struct db_standing *rows, size_t n)
{
	const struct sheet sh = { standing_cols, standing_numeric,
	    sizeof standing_cols / sizeof standing_cols[0], n, standing_cell,
	    rows };

	write_sheet(out, &sh, format, title);
	return finish(out);
}

static const char *
table_cell(const void *rows, size_t row, size_t col, char buf[CELL_MAX])
{
	const struct db_rows *t = rows;

	(void)buf;
	return db_rows_cell(t, row, col);
}

int
export_table(FILE *out, enum export_format format, const char *title,
    const struct db_rows *t, const char *const *cols)
{
	bool *numeric = xcalloc(t->ncols + 1, sizeof *numeric);
	const struct sheet sh = { cols, numeric, t->ncols, t->nrows,
	    table_cell, t };

	/* stage, group, rank, entry, then numbers only. */
	for (size_t c = 2; c < t->ncols; c++)
		numeric[c] = c != 3;
	write_sheet(out, &sh, format, title);
	free(numeric);
	return finish(out);
}

int
export_games(FILE *out, enum export_format format,
    const struct db_game_row *rows, size_t n)
{
	struct sheet sh = { game_cols, game_numeric,
	    sizeof game_cols / sizeof game_cols[0] - 2, n, game_cell, rows };

	for (size_t i = 0; i < n; i++)
		if (rows[i].nseats > 2)
			sh.ncols = sizeof game_cols / sizeof game_cols[0];

	if (format == EXPORT_CSV)
		write_csv(out, &sh);
	else if (format == EXPORT_JSON)
		write_json(out, &sh);
	else
		return log_error("games export only as csv or json");
	return finish(out);
}

int
export_open(const char *spec_path, const char *name, const char *db_url,
    const char *data_dir, struct db **db, int64_t *id, char **title)
{
	struct spec *spec = NULL;
	int found;

	*db = NULL;
	if (spec_path) {
		if (spec_load(spec_path, stderr, &spec) < 0)
			goto fail;
		name = spec->name;
	}
	if ((*db = pgembed_connect(db_url, data_dir)) == NULL)
		goto fail;
	found = db_tournament_find(*db, name, id);
	if (found == 0 && name)
		log_error("no tournament '%s' in the database", name);
	else if (found == 0)
		log_error("no tournament in the database yet");
	if (found <= 0 || db_tournament_name(*db, *id, title) < 0)
		goto fail;
	spec_free(spec);
	return 0;
fail:
	spec_free(spec);
	db_free(*db);
	*db = NULL;
	return -1;
}
