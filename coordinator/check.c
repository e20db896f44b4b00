/* check: validates a loaded spec against its game's rules and datasets. */
#include "coordinator/check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "games/game.h"

int
check_read_file(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t size = 0, cap = 0, n;

	if (f == NULL)
		return log_errno("cannot open '%s'", path);
	do {
		if (size + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 8192;
			buf = xrealloc(buf, cap);
		}
		n = fread(buf + size, 1, cap - size - 1, f);
		size += n;
	} while (n > 0);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return log_errno("cannot read '%s'", path);
	}
	fclose(f);
	buf[size] = '\0';
	*text = buf;
	if (len)
		*len = size;
	return 0;
}

/* The datasets, then the spare datasets: each must parse as g's. */
static int
check_datasets(const struct spec *spec, const struct game *g, FILE *errors)
{
	int problems = 0;

	for (size_t i = 0; i < spec->ndatasets + spec->nspares; i++) {
		const struct spec_dataset *d = i < spec->ndatasets ?
		    &spec->datasets[i] : &spec->spares[i - spec->ndatasets];
		struct game_dataset *ds;
		char err[512];
		char *text;
		size_t len;

		if (check_read_file(d->path, &text, &len) < 0) {
			fprintf(errors, "%s:%d:%d: cannot read dataset '%s'\n",
			    spec->path, d->pos.line, d->pos.col, d->path);
			problems++;
			continue;
		}
		ds = g->dataset_parse(d->path, text, len, err, sizeof err);
		free(text);
		if (ds == NULL) {
			fprintf(errors, "%s\n", err);
			problems++;
			continue;
		}
		g->dataset_free(ds);
	}
	return problems;
}

/* Combinations seat `seats` (or the game's most) per game; every other
 * format two. */
static int
check_seats(const struct spec *spec, const struct game *g, FILE *errors)
{
	int problems = 0;

	for (size_t i = 0; i < spec->nstages; i++) {
		const struct spec_stage *s = &spec->stages[i];
		size_t k = s->format != SPEC_COMBINATIONS ? 2 :
		    s->seats > 0 ? s->seats : (size_t)g->max_seats;
		struct spec_pos pos = s->seats > 0 ? s->seats_pos : s->pos;

		if (k >= (size_t)g->min_seats && k <= (size_t)g->max_seats)
			continue;
		if (s->format == SPEC_COMBINATIONS)
			fprintf(errors, "%s:%d:%d: stage '%s' seats %zu per "
			    "game; game '%s' is played by %d to %d\n",
			    spec->path, pos.line, pos.col, s->name, k,
			    spec->game, g->min_seats, g->max_seats);
		else
			fprintf(errors, "%s:%d:%d: %s '%s' plays two-seat "
			    "games; game '%s' is played by %d to %d (use "
			    "format: combinations)\n", spec->path, pos.line,
			    pos.col, spec_format_name(s->format), s->name,
			    spec->game, g->min_seats, g->max_seats);
		problems++;
	}
	return problems;
}

int
check_spec(const struct spec *spec, FILE *errors)
{
	const struct game *g = games_find(spec->game);

	if (g == NULL) {
		fprintf(errors, "%s:%d:%d: unknown game '%s' (known: %s)\n",
		    spec->path, spec->game_pos.line, spec->game_pos.col,
		    spec->game, games_list());
		return 1;
	}
	return check_seats(spec, g, errors) + check_datasets(spec, g, errors);
}
