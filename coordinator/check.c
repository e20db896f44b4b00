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

static int
check_datasets(const struct spec *spec, const struct game *g, FILE *errors)
{
	int problems = 0;

	for (size_t i = 0; i < spec->ndatasets; i++) {
		const struct spec_dataset *d = &spec->datasets[i];
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
	/* Every format here plays two-seat matches. */
	if (g->min_seats > 2 || g->max_seats < 2) {
		fprintf(errors, "%s:%d:%d: game '%s' is not played by two\n",
		    spec->path, spec->game_pos.line, spec->game_pos.col,
		    spec->game);
		return 1;
	}
	return check_datasets(spec, g, errors);
}
