/*
 * spec_schema: pass 2 of spec_load(). Walks the tree spec.c read against
 * the schema of docs/spec.md, filling struct spec: unknown, repeated and
 * missing keys, types, ranges, files and folders that must exist, names
 * that must be unique, the draw. A node found wrong is reported once and
 * not looked at again.
 */
#include "common/spec.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/spec_node.h"


static bool
is_null(const struct spec_node *n)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };

	if (n->kind != SPEC_NODE_SCALAR || !n->plain)
		return false;
	for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
		if (strcmp(n->value, nulls[i]) == 0)
			return true;
	return false;
}

static const char *
kind_name(const struct spec_node *n)
{
	if (n->kind == SPEC_NODE_LIST)
		return "a list";
	if (n->kind == SPEC_NODE_MAP)
		return "a mapping";
	if (is_null(n))
		return "nothing";
	return n->plain ? "a plain value" : "a quoted string";
}

static size_t
min3(size_t x, size_t y, size_t z)
{
	size_t m = x < y ? x : y;

	return m < z ? m : z;
}

/* Edit distance counting a swap of neighbours as one edit, the commonest
 * typo in a key ("bulid"). */
static size_t
distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[33][33];

	if (la > 32 || lb > 32)
		return SIZE_MAX;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
			    d[i - 1][j - 1] + (a[i - 1] != b[j - 1]));
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[la][lb];
}

/* The name in a NULL-ended list a typo most likely meant, or NULL. */
static const char *
closest(const char *word, const char *const *names)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX, wl = strlen(word);

	for (size_t i = 0; names[i] != NULL; i++) {
		size_t d = distance(word, names[i]);

		if (wl >= 3 && strncmp(word, names[i], wl) == 0)
			d = 1;
		if (d < best_d && (d <= 1 || d * 3 <= wl)) {
			best = names[i];
			best_d = d;
		}
	}
	return best;
}

static void
unknown_key(struct spec_loader *ld, const struct spec_node *key,
    const char *what, const char *const *keys)
{
	const char *near = closest(key->value, keys);

	if (near != NULL)
		spec_report(ld, key->pos, "unknown key '%s' in %s "
		    "(did you mean '%s'?)", key->value, what, near);
	else
		spec_report(ld, key->pos, "unknown key '%s' in %s",
		    key->value, what);
}

static bool
want_kind(struct spec_loader *ld, const struct spec_node *n,
    enum spec_node_kind kind, const char *label)
{
	if (n->kind == kind)
		return true;
	if (n->kind == SPEC_NODE_SCALAR && !is_null(n))
		spec_report(ld, n->pos, "%s: expected %s, got '%.40s'", label,
		    kind == SPEC_NODE_LIST ? "a list" : "a mapping", n->value);
	else if (n->kind != SPEC_NODE_BAD)
		spec_report(ld, n->pos, "%s: expected %s, got %s", label,
		    kind == SPEC_NODE_LIST ? "a list" : "a mapping",
		    kind_name(n));
	return false;
}

/*
 * Fills vals[i] with the value of keys[i] in map, or NULL, reporting
 * unknown and repeated keys, and missing ones whose bit is set in
 * required. Returns false if map is not a mapping.
 */
static bool
fields(struct spec_loader *ld, const struct spec_node *map, const char *what,
    const char *const *keys, unsigned required, const struct spec_node **vals)
{
	size_t nkeys = 0;

	if (!want_kind(ld, map, SPEC_NODE_MAP, what))
		return false;
	while (keys[nkeys] != NULL)
		vals[nkeys++] = NULL;
	for (size_t i = 0; i + 1 < map->nkids; i += 2) {
		const struct spec_node *k = &map->kids[i];
		size_t j = 0;

		if (k->kind == SPEC_NODE_BAD)
			continue;
		if (k->kind != SPEC_NODE_SCALAR) {
			spec_report(ld, k->pos, "a key in %s must be a name, "
			    "not %s", what, kind_name(k));
			continue;
		}
		while (j < nkeys && strcmp(keys[j], k->value) != 0)
			j++;
		if (j == nkeys)
			unknown_key(ld, k, what, keys);
		else if (vals[j] != NULL)
			spec_report(ld, k->pos, "duplicate key '%s' in %s "
			    "(first at %d:%d)", k->value, what,
			    vals[j][-1].pos.line, vals[j][-1].pos.col);
		else
			vals[j] = &map->kids[i + 1];
	}
	for (size_t j = 0; j < nkeys; j++)
		if ((required & (1u << j)) && vals[j] == NULL)
			spec_report(ld, map->pos, "missing required key '%s' "
			    "in %s", keys[j], what);
	return true;
}

/* A non-empty string. n NULL (key absent) gives false, silently. */
static bool
want_string(struct spec_loader *ld, const struct spec_node *n,
    const char *label, char **out)
{
	if (n == NULL || n->kind == SPEC_NODE_BAD)
		return false;
	if (n->kind != SPEC_NODE_SCALAR || is_null(n)) {
		spec_report(ld, n->pos, "%s: expected a string, got %s", label,
		    kind_name(n));
		return false;
	}
	if (n->value[0] == '\0') {
		spec_report(ld, n->pos, "%s must not be empty", label);
		return false;
	}
	*out = xstrdup(n->value);
	return true;
}

/* Plain decimal digits with an optional sign; false on anything else. */
static bool
parse_int(const char *s, int64_t *out)
{
	const char *p = s + (*s == '-' || *s == '+');
	char *end;
	long long v;

	if (*p < '0' || *p > '9')
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return false;
	*out = v;
	return true;
}

static bool
want_int(struct spec_loader *ld, const struct spec_node *n, const char *label,
    int64_t min, int64_t *out)
{
	int64_t v;

	if (n == NULL || n->kind == SPEC_NODE_BAD)
		return false;
	if (n->kind != SPEC_NODE_SCALAR || !n->plain || is_null(n)) {
		spec_report(ld, n->pos, "%s: expected an integer, got %s",
		    label, kind_name(n));
		return false;
	}
	if (!parse_int(n->value, &v)) {
		spec_report(ld, n->pos, "%s: expected an integer, got '%s'",
		    label, n->value);
		return false;
	}
	if (v < min) {
		spec_report(ld, n->pos, "%s must be %s, got %lld", label,
		    min > 0 ? "positive" : "zero or more", (long long)v);
		return false;
	}
	*out = v;
	return true;
}

/* One of a NULL-ended list of words, by index; label names what it is
 * ("format") in "unknown format 'x'". */
static bool
want_word(struct spec_loader *ld, const struct spec_node *n,
    const char *label, const char *const *words, size_t *index)
{
	char known[256] = "", what[64];
	const char *near;
	char *word;

	snprintf(what, sizeof what, "'%s'", label);
	if (!want_string(ld, n, what, &word))
		return false;
	for (size_t i = 0; words[i] != NULL; i++) {
		if (strcmp(word, words[i]) == 0) {
			*index = i;
			free(word);
			return true;
		}
		snprintf(known + strlen(known), sizeof known - strlen(known),
		    "%s%s", i ? ", " : "", words[i]);
	}
	near = closest(word, words);
	if (near != NULL)
		spec_report(ld, n->pos, "unknown %s '%s' (did you mean '%s'?)",
		    label, word, near);
	else
		spec_report(ld, n->pos, "unknown %s '%s' (known: %s)", label,
		    word, known);
	free(word);
	return false;
}

/* YAML's plain true or false (a quoted "true" is a string). */
static bool
want_bool(struct spec_loader *ld, const struct spec_node *n,
    const char *label, bool *out)
{
	if (n == NULL || n->kind == SPEC_NODE_BAD)
		return false;
	if (n->kind == SPEC_NODE_SCALAR && n->plain &&
	    (strcmp(n->value, "true") == 0 || strcmp(n->value, "false") == 0)) {
		*out = n->value[0] == 't';
		return true;
	}
	if (n->kind == SPEC_NODE_SCALAR && !is_null(n))
		spec_report(ld, n->pos, "'%s': expected true or false, got "
		    "'%s'", label, n->value);
	else
		spec_report(ld, n->pos, "'%s': expected true or false, got %s",
		    label, kind_name(n));
	return false;
}

static bool
want_count(struct spec_loader *ld, const struct spec_node *n, const char *label,
    int64_t min, size_t *out)
{
	int64_t v;

	if (!want_int(ld, n, label, min, &v))
		return false;
	*out = (size_t)v;
	return true;
}

static void
load_seed(struct spec_loader *ld, const struct spec_node *n)
{
	char *end;

	if (n == NULL || n->kind == SPEC_NODE_BAD)
		return;
	if (n->kind != SPEC_NODE_SCALAR || !n->plain || is_null(n)) {
		spec_report(ld, n->pos, "'seed': expected an integer, got %s",
		    kind_name(n));
		return;
	}
	errno = 0;
	ld->spec->seed = strtoull(n->value, &end, 10);
	if (n->value[0] < '0' || n->value[0] > '9' || *end != '\0' ||
	    errno != 0)
		spec_report(ld, n->pos, "'seed': expected an integer from 0 to "
		    "%llu, got '%s'", (unsigned long long)UINT64_MAX, n->value);
}

/* Relative paths are relative to the spec's folder, not to the current
 * one, so a spec works from anywhere. The result is absolute when the
 * path exists. Caller owns the result. */
static char *
resolve(const struct spec *spec, const char *rel)
{
	char *joined, *real;

	if (rel[0] == '/')
		joined = xstrdup(rel);
	else
		joined = xasprintf("%s/%s", spec->dir, rel);
	real = realpath(joined, NULL);
	if (real == NULL)
		return joined;
	free(joined);
	return real;
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The dataset named name in list (n of them), or NULL. */
static const struct spec_dataset *
find_dataset(const struct spec_dataset *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i].name, name) == 0)
			return &list[i];
	return NULL;
}

/* Appends one dataset (or spare dataset) to list, *n long so far; names
 * are unique across both lists. */
static void
load_dataset(struct spec_loader *ld, const struct spec_node *n,
    struct spec_dataset *list, size_t *count)
{
	struct spec *spec = ld->spec;
	const struct spec_dataset *first;
	struct spec_dataset *d;
	struct stat st;
	char *rel;

	if (!want_string(ld, n, "a dataset", &rel))
		return;
	d = &list[(*count)++];
	d->pos = n->pos;
	d->name = xstrdup(base_name(rel));
	d->path = resolve(spec, rel);
	if (stat(d->path, &st) < 0)
		spec_report(ld, n->pos, "cannot find dataset '%s': %s", rel,
		    strerror(errno));
	else if (!S_ISREG(st.st_mode))
		spec_report(ld, n->pos, "dataset '%s' is not a file", rel);
	first = find_dataset(list, *count - 1, d->name);
	if (first == NULL && list == spec->spares)
		first = find_dataset(spec->datasets, spec->ndatasets, d->name);
	if (first != NULL)
		spec_report(ld, n->pos, "duplicate dataset name '%s' "
		    "(first at %d:%d)", d->name, first->pos.line,
		    first->pos.col);
	free(rel);
}

static void
load_datasets(struct spec_loader *ld, const struct spec_node *list)
{
	if (list == NULL || !want_kind(ld, list, SPEC_NODE_LIST, "'datasets'"))
		return;
	if (list->nkids == 0)
		spec_report(ld, list->pos, "'datasets' is empty: a match needs "
		    "at least one dataset");
	ld->spec->datasets = xcalloc(list->nkids + 1,
	    sizeof *ld->spec->datasets);
	for (size_t i = 0; i < list->nkids; i++)
		load_dataset(ld, &list->kids[i], ld->spec->datasets,
		    &ld->spec->ndatasets);
}

/* After the datasets, so a name used by both is reported here. */
static void
load_spares(struct spec_loader *ld, const struct spec_node *list)
{
	struct spec *spec = ld->spec;

	if (list == NULL || is_null(list) || !want_kind(ld, list,
	    SPEC_NODE_LIST, "'spare_datasets'"))
		return;
	spec->spares = xcalloc(list->nkids + 1, sizeof *spec->spares);
	for (size_t i = 0; i < list->nkids; i++)
		load_dataset(ld, &list->kids[i], spec->spares, &spec->nspares);
}

static bool
valid_name(const char *s)
{
	return s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_.-")] == '\0';
}

static void
load_entry_name(struct spec_loader *ld, const struct spec_node *n, size_t index,
    const char *what)
{
	struct spec *spec = ld->spec;
	struct spec_entry *e = &spec->entries[index];
	char label[160];

	snprintf(label, sizeof label, "'name' in %s", what);
	if (!want_string(ld, n, label, &e->name))
		return;
	if (!valid_name(e->name))
		spec_report(ld, n->pos, "entry name '%s' may only use letters, "
		    "digits, '_', '.' and '-'", e->name);
	for (size_t i = 0; i < index; i++) {
		if (spec->entries[i].name != NULL &&
		    strcmp(spec->entries[i].name, e->name) == 0) {
			spec_report(ld, n->pos, "duplicate entry name '%s' "
			    "(first entry at %d:%d)", e->name,
			    spec->entries[i].pos.line,
			    spec->entries[i].pos.col);
			break;
		}
	}
}

static void
load_entry_folder(struct spec_loader *ld, const struct spec_node *n,
    struct spec_entry *e, const char *what)
{
	struct stat st;
	char label[160];
	char *rel;

	snprintf(label, sizeof label, "'folder' in %s", what);
	if (!want_string(ld, n, label, &rel))
		return;
	e->folder = resolve(ld->spec, rel);
	if (stat(e->folder, &st) < 0)
		spec_report(ld, n->pos, "cannot find folder '%s': %s", rel,
		    strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		spec_report(ld, n->pos, "folder '%s' is not a directory", rel);
	free(rel);
}

/* What messages call a list item: "entry 'a'", or "entry 3" when it has no
 * name to show. */
static void
describe(const struct spec_node *n, const char *kind, size_t index, char *buf,
    size_t size)
{
	snprintf(buf, size, "%s %zu", kind, index + 1);
	if (n->kind != SPEC_NODE_MAP)
		return;
	for (size_t i = 0; i + 1 < n->nkids; i += 2)
		if (n->kids[i].kind == SPEC_NODE_SCALAR &&
		    strcmp(n->kids[i].value, "name") == 0 &&
		    n->kids[i + 1].kind == SPEC_NODE_SCALAR &&
		    n->kids[i + 1].value[0] != '\0')
			snprintf(buf, size, "%s '%.64s'", kind,
			    n->kids[i + 1].value);
}

static void
load_entry(struct spec_loader *ld, const struct spec_node *n, size_t index)
{
	static const char *const keys[] = { "name", "folder", "build", "run",
	    NULL };
	struct spec_entry *e = &ld->spec->entries[index];
	const struct spec_node *v[4];
	char what[128];

	char label[160];

	e->pos = n->pos;
	describe(n, "entry", index, what, sizeof what);
	if (!fields(ld, n, what, keys, 1u | 2u | 8u, v))
		return;
	load_entry_name(ld, v[0], index, what);
	load_entry_folder(ld, v[1], e, what);
	snprintf(label, sizeof label, "'build' in %s", what);
	if (v[2] != NULL && !is_null(v[2]))
		want_string(ld, v[2], label, &e->build);
	snprintf(label, sizeof label, "'run' in %s", what);
	want_string(ld, v[3], label, &e->run);
}

static void
load_entries(struct spec_loader *ld, const struct spec_node *list)
{
	struct spec *spec = ld->spec;

	if (list == NULL || !want_kind(ld, list, SPEC_NODE_LIST, "'entries'"))
		return;
	ld->entries_listed = true;
	if (list->nkids == 0)
		spec_report(ld, list->pos, "'entries' is empty");
	spec->entries = xcalloc(list->nkids + 1, sizeof *spec->entries);
	spec->nentries = list->nkids;
	for (size_t i = 0; i < list->nkids; i++)
		load_entry(ld, &list->kids[i], i);
}

static void
load_limits(struct spec_loader *ld, const struct spec_node *map)
{
	static const char *const keys[] = { "call_ms", "game_ms", "memory_mb",
	    "resident_mb", "clock", "ponder", NULL };
	static const char *const clocks[] = { "wall", "cpu", NULL };
	struct spec_limits *l = &ld->spec->limits;
	int64_t *dest[] = { &l->call_ms, &l->game_ms, &l->memory_mb,
	    &l->resident_mb };
	const struct spec_node *v[6];
	char label[64];
	size_t clock;

	if (map == NULL || is_null(map) ||
	    !fields(ld, map, "'limits'", keys, 0, v))
		return;
	for (size_t i = 0; i < 4; i++) {
		snprintf(label, sizeof label, "'%s'", keys[i]);
		want_int(ld, v[i], label, 1, dest[i]);
	}
	if (v[4] != NULL && want_word(ld, v[4], "clock", clocks, &clock))
		l->clock = (enum spec_clock)clock;
	if (v[5] != NULL)
		want_bool(ld, v[5], "ponder", &l->ponder);
}

static const char *const format_names[] = { "round_robin", "final",
	"gauntlet", "combinations", "all_vs_all", NULL };

const char *
spec_format_name(enum spec_format format)
{
	return format_names[format];
}

static bool
load_format(struct spec_loader *ld, const struct spec_node *n,
    struct spec_stage *s)
{
	size_t i;

	if (!want_word(ld, n, "format", format_names, &i))
		return false;
	s->format = (enum spec_format)i;
	return true;
}

/* One drawn group: a list of entry names; seen[e] is where entry e was
 * drawn first. */
static void
load_draw_group(struct spec_loader *ld, const struct spec_node *n, size_t g,
    struct spec_stage *s, struct spec_pos *seen)
{
	char **names;
	size_t k = 0;

	if (!want_kind(ld, n, SPEC_NODE_LIST, "a group of 'draw'"))
		return;
	names = xcalloc(n->nkids + 1, sizeof *names);
	s->draw[g] = names;
	for (size_t i = 0; i < n->nkids; i++) {
		const struct spec_node *item = &n->kids[i];
		int e;

		if (!want_string(ld, item, "an entry of 'draw'", &names[k]))
			continue;
		e = spec_entry_index(ld->spec, names[k]);
		if (e < 0)
			spec_report(ld, item->pos, "unknown entry '%s' in the "
			    "draw", names[k]);
		else if (seen[e].line != 0)
			spec_report(ld, item->pos, "entry '%s' is drawn twice "
			    "(first at %d:%d)", names[k], seen[e].line,
			    seen[e].col);
		else
			seen[e] = item->pos;
		k++;
	}
	if (n->nkids < 2)
		spec_report(ld, n->pos, "group %zu of the draw has %zu entr%s; "
		    "a round-robin group needs at least 2", g + 1, n->nkids,
		    n->nkids == 1 ? "y" : "ies");
}

static void
load_draw(struct spec_loader *ld, const struct spec_node *n, size_t stage)
{
	struct spec *spec = ld->spec;
	struct spec_stage *s = &spec->stages[stage];
	struct spec_pos *seen;

	if (n == NULL || !want_kind(ld, n, SPEC_NODE_LIST, "'draw'"))
		return;
	ld->marks[stage].draw = n->pos;
	s->draw = xcalloc(n->nkids + 1, sizeof *s->draw);
	s->ndraw = n->nkids;
	if (stage > 0) {
		spec_report(ld, n->pos, "'draw' only applies to the first "
		    "stage: later entrants depend on results");
		return;
	}
	if (n->nkids == 0) {
		spec_report(ld, n->pos, "'draw' is empty");
		return;
	}
	seen = xcalloc(spec->nentries + 1, sizeof *seen);
	for (size_t g = 0; g < n->nkids; g++)
		load_draw_group(ld, &n->kids[g], g, s, seen);
	for (size_t e = 0; e < spec->nentries; e++)
		if (seen[e].line == 0 && spec->entries[e].name != NULL)
			spec_report(ld, n->pos, "the draw leaves out entry "
			    "'%s'", spec->entries[e].name);
	free(seen);
}

static void
load_stage_name(struct spec_loader *ld, const struct spec_node *n, size_t index)
{
	struct spec *spec = ld->spec;
	struct spec_stage *s = &spec->stages[index];

	if (!want_string(ld, n, "stage 'name'", &s->name))
		return;
	for (size_t i = 0; i < index; i++) {
		if (spec->stages[i].name != NULL &&
		    strcmp(spec->stages[i].name, s->name) == 0) {
			spec_report(ld, n->pos, "duplicate stage name '%s' "
			    "(first stage at %d:%d)", s->name,
			    spec->stages[i].pos.line, spec->stages[i].pos.col);
			break;
		}
	}
}

/* A table of points by games lost: a list of integers. */
static void
load_points(struct spec_loader *ld, const struct spec_node *n,
    struct spec_opponent *o)
{
	if (!want_kind(ld, n, SPEC_NODE_LIST, "'points'"))
		return;
	o->points_pos = n->pos;
	o->points = xcalloc(n->nkids + 1, sizeof *o->points);
	o->npoints = n->nkids;
	if (n->nkids == 0)
		spec_report(ld, n->pos, "'points' is empty");
	for (size_t i = 0; i < n->nkids; i++)
		want_int(ld, &n->kids[i], "an entry of 'points'", 0,
		    &o->points[i]);
}

/* One opponent: {entry: NAME, weight: W} or {entry: NAME, points: [...]};
 * seen[e] is where entry e was listed first. */
static void
load_opponent(struct spec_loader *ld, const struct spec_node *n,
    struct spec_opponent *o, struct spec_pos *seen)
{
	static const char *const keys[] = { "entry", "weight", "points",
	    NULL };
	const struct spec_node *v[3];
	int e;

	o->pos = n->pos;
	if (!fields(ld, n, "an opponent", keys, 1u, v) ||
	    !want_string(ld, v[0], "opponent 'entry'", &o->entry))
		return;
	e = spec_entry_index(ld->spec, o->entry);
	if (e < 0)
		spec_report(ld, v[0]->pos, "unknown opponent '%s': not an "
		    "entry of the spec", o->entry);
	else if (seen[e].line != 0)
		spec_report(ld, v[0]->pos, "opponent '%s' is listed twice "
		    "(first at %d:%d)", o->entry, seen[e].line, seen[e].col);
	else
		seen[e] = v[0]->pos;
	if (v[1] != NULL && v[2] != NULL)
		spec_report(ld, v[2][-1].pos, "'points' conflicts with "
		    "'weight': give one of them");
	else if (v[1] == NULL && v[2] == NULL)
		spec_report(ld, n->pos, "opponent '%s' needs 'weight' or "
		    "'points'", o->entry);
	else if (v[1] != NULL)
		want_int(ld, v[1], "'weight'", 0, &o->weight);
	else
		load_points(ld, v[2], o);
}

static void
load_opponents(struct spec_loader *ld, const struct spec_node *n,
    size_t stage)
{
	struct spec_stage *s = &ld->spec->stages[stage];
	struct spec_pos *seen;

	if (n == NULL || !want_kind(ld, n, SPEC_NODE_LIST, "'opponents'"))
		return;
	ld->marks[stage].opponents = n->pos;
	if (n->nkids == 0) {
		spec_report(ld, n->pos, "'opponents' is empty");
		return;
	}
	s->opponents = xcalloc(n->nkids + 1, sizeof *s->opponents);
	s->nopponents = n->nkids;
	seen = xcalloc(ld->spec->nentries + 1, sizeof *seen);
	for (size_t i = 0; i < n->nkids; i++)
		load_opponent(ld, &n->kids[i], &s->opponents[i], seen);
	free(seen);
}

/* Keys of one format only, given on another stage. */
static void
check_format_keys(struct spec_loader *ld, const struct spec_node *const *v,
    const struct spec_stage *s)
{
	static const char *const names[] = { "games_per_side", "opponents",
	    "seats", "rotation", "repeat" };
	static const enum spec_format owner[] = { SPEC_GAUNTLET,
	    SPEC_GAUNTLET, SPEC_COMBINATIONS, SPEC_COMBINATIONS,
	    SPEC_ALL_VS_ALL };

	for (size_t k = 0; k < 5; k++)
		if (v[k] != NULL && s->format != owner[k])
			spec_report(ld, v[k][-1].pos, "'%s' only applies to a "
			    "%s stage", names[k], format_names[owner[k]]);
	if (s->format == SPEC_GAUNTLET && v[1] == NULL)
		spec_report(ld, s->pos, "gauntlet '%s' needs 'opponents'",
		    s->name ? s->name : "");
}

/* The gauntlet, combinations and all_vs_all keys; known: the format
 * is. */
static void
load_stage_extra(struct spec_loader *ld, const struct spec_node *const *v,
    size_t index, bool known)
{
	struct spec_stage *s = &ld->spec->stages[index];
	struct spec_marks *m = &ld->marks[index];

	s->games_per_side = 5;
	s->rotation = true;
	s->repeat = 1;
	if (known)
		check_format_keys(ld, v, s);
	if (want_count(ld, v[0], "'games_per_side'", 1, &s->games_per_side))
		m->games_per_side = v[0]->pos;
	load_opponents(ld, v[1], index);
	if (want_count(ld, v[2], "'seats'", 2, &s->seats)) {
		s->seats_pos = v[2]->pos;
		if (s->seats > 8) {
			spec_report(ld, v[2]->pos, "'seats' is %zu; a game has "
			    "at most 8", s->seats);
			s->seats = 0;
		}
	}
	if (v[3] != NULL && want_bool(ld, v[3], "rotation", &s->rotation))
		m->rotation = v[3]->pos;
	if (want_count(ld, v[4], "'repeat'", 1, &s->repeat))
		m->repeat = v[4]->pos;
}

static void
load_stage(struct spec_loader *ld, const struct spec_node *n, size_t index)
{
	static const char *const keys[] = { "name", "format", "groups",
	    "group_size", "draw", "advance", "games_per_side", "opponents",
	    "seats", "rotation", "repeat", NULL };
	struct spec_stage *s = &ld->spec->stages[index];
	struct spec_marks *m = &ld->marks[index];
	size_t before = ld->nerrors;
	const struct spec_node *v[11];
	char what[96];
	bool known;

	s->pos = n->pos;
	describe(n, "stage", index, what, sizeof what);
	if (!fields(ld, n, what, keys, 1u | 2u, v))
		return;
	load_stage_name(ld, v[0], index);
	known = load_format(ld, v[1], s);
	if (want_count(ld, v[2], "'groups'", 1, &s->groups))
		m->groups = v[2]->pos;
	if (want_count(ld, v[3], "'group_size'", 1, &s->group_size))
		m->group_size = v[3]->pos;
	load_draw(ld, v[4], index);
	if (want_count(ld, v[5], "'advance'", 0, &s->advance))
		m->advance = v[5]->pos;
	load_stage_extra(ld, v + 6, index, known);
	m->ok = ld->nerrors == before;
}

static void
load_stages(struct spec_loader *ld, const struct spec_node *list)
{
	struct spec *spec = ld->spec;

	if (list == NULL || !want_kind(ld, list, SPEC_NODE_LIST, "'stages'"))
		return;
	if (list->nkids == 0)
		spec_report(ld, list->pos, "'stages' is empty");
	spec->stages = xcalloc(list->nkids + 1, sizeof *spec->stages);
	ld->marks = xcalloc(list->nkids + 1, sizeof *ld->marks);
	spec->nstages = list->nkids;
	for (size_t i = 0; i < list->nkids; i++)
		load_stage(ld, &list->kids[i], i);
}

void
spec_schema_load(struct spec_loader *ld, const struct spec_node *root)
{
	static const char *const keys[] = { "tournament", "game", "seed",
	    "datasets", "entries", "limits", "stages", "spare_datasets",
	    NULL };
	struct spec *spec = ld->spec;
	const struct spec_node *v[8];

	if (!fields(ld, root, "the spec", keys, 1u | 2u | 8u | 16u | 64u, v))
		return;
	want_string(ld, v[0], "'tournament'", &spec->name);
	if (want_string(ld, v[1], "'game'", &spec->game))
		spec->game_pos = v[1]->pos;
	load_seed(ld, v[2]);
	load_datasets(ld, v[3]);
	load_spares(ld, v[7]);
	/* Entries before stages, whatever the file's order: draws name them. */
	load_entries(ld, v[4]);
	load_limits(ld, v[5]);
	load_stages(ld, v[6]);
}
