/*
 * spec: reads a tournament spec (docs/spec.md) in three passes.
 *
 * 1. libyaml's events become a small tree of scalars, lists and mappings,
 *    each with its position. What a spec never needs is refused here with
 *    its position: anchors, aliases, tags, a second document, absurd
 *    nesting. Broken YAML stops everything (libyaml cannot go on after
 *    it); anything else marks the node NODE_BAD and reading goes on.
 * 2. The tree is walked against the schema, filling struct spec. Every
 *    problem is printed, each once: a node found wrong is not looked at
 *    again, and checks that need a broken part are skipped.
 * 3. Checks across stages: entrants per stage, group sizes, advance.
 *
 * The tree is freed before returning; struct spec owns copies.
 */
#include "common/spec.h"

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "common/log.h"

/* Far deeper than any spec; stops a hostile file from building a tree
 * whose walk would exhaust the stack. */
#define MAX_DEPTH 32

enum node_kind {
	NODE_BAD,		/* reported already: checks stay silent */
	NODE_SCALAR,
	NODE_LIST,
	NODE_MAP,
};

struct node {
	enum node_kind kind;
	struct spec_pos pos;	/* where the node starts */
	char *value;		/* scalar text */
	bool plain;		/* unquoted: may be a number or null */
	struct node *kids;	/* list items; map: key, value, key... */
	size_t nkids;
};

/* Positions the checks across stages point at. */
struct stage_marks {
	struct spec_pos groups;
	struct spec_pos group_size;
	struct spec_pos draw;
	struct spec_pos advance;
	bool ok;		/* the stage itself had no problem */
};

/* A problem found, printed once all are found, in file order. */
struct problem {
	struct spec_pos pos;
	size_t seq;		/* order found: keeps sorting stable */
	char *text;
};

struct loader {
	const char *path;	/* as given, for messages */
	const char *text;	/* the whole file, for reader error offsets */
	struct problem *problems;
	size_t nerrors;
	size_t cap;
	struct spec *spec;
	struct stage_marks *marks;	/* one per spec->stages */
	bool entries_listed;	/* "entries:" is a list: counts known */
};

static void report(struct loader *ld, struct spec_pos pos, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

static void
report(struct loader *ld, struct spec_pos pos, const char *fmt, ...)
{
	struct problem *p;
	va_list ap;
	char *text;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		fatal("out of memory");
	va_end(ap);
	/* A quoted YAML string can hold anything; a problem stays one line. */
	for (char *c = text; *c != '\0'; c++)
		if ((unsigned char)*c < 0x20)
			*c = '?';
	if (ld->nerrors == ld->cap) {
		ld->cap = ld->cap ? ld->cap * 2 : 16;
		ld->problems = xrealloc(ld->problems,
		    ld->cap * sizeof *ld->problems);
	}
	p = &ld->problems[ld->nerrors];
	p->pos = pos;
	p->seq = ld->nerrors++;
	p->text = text;
}

static int
problem_cmp(const void *a, const void *b)
{
	const struct problem *x = a, *y = b;

	if (x->pos.line != y->pos.line)
		return x->pos.line < y->pos.line ? -1 : 1;
	if (x->pos.col != y->pos.col)
		return x->pos.col < y->pos.col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void
print_problems(struct loader *ld, FILE *errors)
{
	if (ld->nerrors > 0)
		qsort(ld->problems, ld->nerrors, sizeof *ld->problems,
		    problem_cmp);
	for (size_t i = 0; i < ld->nerrors; i++) {
		fprintf(errors, "%s:%d:%d: %s\n", ld->path,
		    ld->problems[i].pos.line, ld->problems[i].pos.col,
		    ld->problems[i].text);
		free(ld->problems[i].text);
	}
	free(ld->problems);
}

/* ---- pass 1: YAML events to a tree ---- */

static struct spec_pos
mark_pos(yaml_mark_t m)
{
	return (struct spec_pos){ (int)m.line + 1, (int)m.column + 1 };
}

/* Reader errors (bad encoding) only give a byte offset. */
static struct spec_pos
offset_pos(const char *text, size_t offset)
{
	struct spec_pos pos = { 1, 1 };

	for (size_t i = 0; i < offset && text[i] != '\0'; i++) {
		if (text[i] == '\n') {
			pos.line++;
			pos.col = 1;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80)
			pos.col++;
	}
	return pos;
}

static int
next_event(struct loader *ld, yaml_parser_t *p, yaml_event_t *ev)
{
	struct spec_pos pos, ctx;

	if (yaml_parser_parse(p, ev))
		return 0;
	if (p->error == YAML_MEMORY_ERROR)
		fatal("out of memory");
	if (p->error == YAML_READER_ERROR) {
		report(ld, offset_pos(ld->text, p->problem_offset),
		    "invalid YAML: %s", p->problem);
		return -1;
	}
	pos = mark_pos(p->problem_mark);
	ctx = mark_pos(p->context_mark);
	if (p->context != NULL)
		report(ld, pos, "invalid YAML: %s (%s that starts at %d:%d)",
		    p->problem ? p->problem : "error", p->context, ctx.line,
		    ctx.col);
	else
		report(ld, pos, "invalid YAML: %s",
		    p->problem ? p->problem : "error");
	return -1;
}

static void
node_release(struct node *n)
{
	for (size_t i = 0; i < n->nkids; i++)
		node_release(&n->kids[i]);
	free(n->kids);
	free(n->value);
}

static int read_node(struct loader *ld, yaml_parser_t *p, yaml_event_t *ev,
    struct node *n, int depth);

static int
read_kids(struct loader *ld, yaml_parser_t *p, yaml_event_type_t end,
    struct node *n, int depth)
{
	size_t cap = 0;

	for (;;) {
		yaml_event_t ev;
		int rc;

		if (next_event(ld, p, &ev) < 0)
			return -1;
		if (ev.type == end) {
			yaml_event_delete(&ev);
			return 0;
		}
		if (n->nkids == cap) {
			cap = cap ? cap * 2 : 8;
			n->kids = xrealloc(n->kids, cap * sizeof *n->kids);
		}
		memset(&n->kids[n->nkids], 0, sizeof *n->kids);
		rc = read_node(ld, p, &ev, &n->kids[n->nkids++], depth + 1);
		if (rc < 0)
			return -1;
	}
}

/* Anchors and tags would change what a value means; refuse them rather
 * than silently ignore them. Returns true if the node is refused. */
static bool
refuse_decorations(struct loader *ld, struct spec_pos pos,
    const yaml_char_t *anchor, const yaml_char_t *tag)
{
	if (anchor != NULL)
		report(ld, pos, "anchors are not supported ('&%s')",
		    (const char *)anchor);
	if (tag != NULL)
		report(ld, pos, "tags are not supported ('%s')",
		    (const char *)tag);
	return anchor != NULL || tag != NULL;
}

static int
read_scalar(struct loader *ld, const yaml_event_t *ev, struct node *n)
{
	const char *value = (const char *)ev->data.scalar.value;

	n->kind = NODE_SCALAR;
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	n->value = xstrdup(value);
	if (strlen(value) != ev->data.scalar.length) {
		report(ld, n->pos, "a string holds a NUL character");
		n->kind = NODE_BAD;
	}
	if (refuse_decorations(ld, n->pos, ev->data.scalar.anchor,
	    ev->data.scalar.tag))
		n->kind = NODE_BAD;
	return 0;
}

/* Takes ownership of *ev. */
static int
read_node(struct loader *ld, yaml_parser_t *p, yaml_event_t *ev,
    struct node *n, int depth)
{
	bool refused = false;
	int rc = 0;

	n->pos = mark_pos(ev->start_mark);
	if (depth > MAX_DEPTH) {
		report(ld, n->pos, "nesting deeper than %d levels",
		    MAX_DEPTH);
		yaml_event_delete(ev);
		return -1;
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		rc = read_scalar(ld, ev, n);
		break;
	case YAML_SEQUENCE_START_EVENT:
		n->kind = NODE_LIST;
		refused = refuse_decorations(ld, n->pos,
		    ev->data.sequence_start.anchor,
		    ev->data.sequence_start.tag);
		rc = read_kids(ld, p, YAML_SEQUENCE_END_EVENT, n, depth);
		break;
	case YAML_MAPPING_START_EVENT:
		n->kind = NODE_MAP;
		refused = refuse_decorations(ld, n->pos,
		    ev->data.mapping_start.anchor,
		    ev->data.mapping_start.tag);
		rc = read_kids(ld, p, YAML_MAPPING_END_EVENT, n, depth);
		break;
	case YAML_ALIAS_EVENT:
		report(ld, n->pos, "aliases are not supported ('*%s')",
		    (const char *)ev->data.alias.anchor);
		n->kind = NODE_BAD;
		break;
	default:
		report(ld, n->pos, "unexpected YAML event %d", ev->type);
		rc = -1;
		break;
	}
	if (refused)
		n->kind = NODE_BAD;
	yaml_event_delete(ev);
	return rc;
}

/* Skips an event that carries no content (stream or document marks). */
static int
expect_event(struct loader *ld, yaml_parser_t *p, yaml_event_type_t *type,
    struct spec_pos *pos)
{
	yaml_event_t ev;

	if (next_event(ld, p, &ev) < 0)
		return -1;
	*type = ev.type;
	*pos = mark_pos(ev.start_mark);
	yaml_event_delete(&ev);
	return 0;
}

static int
read_tree(struct loader *ld, size_t len, struct node *root)
{
	yaml_parser_t p;
	yaml_event_t ev;
	yaml_event_type_t type;
	struct spec_pos pos;
	int rc = -1;

	if (!yaml_parser_initialize(&p))
		fatal("out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)ld->text, len);
	if (expect_event(ld, &p, &type, &pos) < 0 ||
	    expect_event(ld, &p, &type, &pos) < 0)
		goto done;
	if (type == YAML_STREAM_END_EVENT) {
		report(ld, pos, "the spec is empty");
		goto done;
	}
	if (next_event(ld, &p, &ev) < 0 ||
	    read_node(ld, &p, &ev, root, 0) < 0)
		goto done;
	if (expect_event(ld, &p, &type, &pos) < 0 ||
	    expect_event(ld, &p, &type, &pos) < 0)
		goto done;
	if (type == YAML_DOCUMENT_START_EVENT) {
		report(ld, pos, "a spec is one YAML document; "
		    "this starts a second one");
		goto done;
	}
	rc = 0;
done:
	yaml_parser_delete(&p);
	return rc;
}

/* ---- pass 2: the tree against the schema ---- */

static bool
is_null(const struct node *n)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };

	if (n->kind != NODE_SCALAR || !n->plain)
		return false;
	for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
		if (strcmp(n->value, nulls[i]) == 0)
			return true;
	return false;
}

static const char *
kind_name(const struct node *n)
{
	if (n->kind == NODE_LIST)
		return "a list";
	if (n->kind == NODE_MAP)
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
unknown_key(struct loader *ld, const struct node *key, const char *what,
    const char *const *keys)
{
	const char *near = closest(key->value, keys);

	if (near != NULL)
		report(ld, key->pos, "unknown key '%s' in %s "
		    "(did you mean '%s'?)", key->value, what, near);
	else
		report(ld, key->pos, "unknown key '%s' in %s", key->value,
		    what);
}

static bool
want_kind(struct loader *ld, const struct node *n, enum node_kind kind,
    const char *label)
{
	if (n->kind == kind)
		return true;
	if (n->kind == NODE_SCALAR && !is_null(n))
		report(ld, n->pos, "%s: expected %s, got '%.40s'", label,
		    kind == NODE_LIST ? "a list" : "a mapping", n->value);
	else if (n->kind != NODE_BAD)
		report(ld, n->pos, "%s: expected %s, got %s", label,
		    kind == NODE_LIST ? "a list" : "a mapping", kind_name(n));
	return false;
}

/*
 * Fills vals[i] with the value of keys[i] in map, or NULL, reporting
 * unknown and repeated keys, and missing ones whose bit is set in
 * required. Returns false if map is not a mapping.
 */
static bool
fields(struct loader *ld, const struct node *map, const char *what,
    const char *const *keys, unsigned required, const struct node **vals)
{
	size_t nkeys = 0;

	if (!want_kind(ld, map, NODE_MAP, what))
		return false;
	while (keys[nkeys] != NULL)
		vals[nkeys++] = NULL;
	for (size_t i = 0; i + 1 < map->nkids; i += 2) {
		const struct node *k = &map->kids[i];
		size_t j = 0;

		if (k->kind == NODE_BAD)
			continue;
		if (k->kind != NODE_SCALAR) {
			report(ld, k->pos, "a key in %s must be a name, "
			    "not %s", what, kind_name(k));
			continue;
		}
		while (j < nkeys && strcmp(keys[j], k->value) != 0)
			j++;
		if (j == nkeys)
			unknown_key(ld, k, what, keys);
		else if (vals[j] != NULL)
			report(ld, k->pos, "duplicate key '%s' in %s "
			    "(first at %d:%d)", k->value, what,
			    vals[j][-1].pos.line, vals[j][-1].pos.col);
		else
			vals[j] = &map->kids[i + 1];
	}
	for (size_t j = 0; j < nkeys; j++)
		if ((required & (1u << j)) && vals[j] == NULL)
			report(ld, map->pos, "missing required key '%s' in %s",
			    keys[j], what);
	return true;
}

/* A non-empty string. n NULL (key absent) gives false, silently. */
static bool
want_string(struct loader *ld, const struct node *n, const char *label,
    char **out)
{
	if (n == NULL || n->kind == NODE_BAD)
		return false;
	if (n->kind != NODE_SCALAR || is_null(n)) {
		report(ld, n->pos, "%s: expected a string, got %s", label,
		    kind_name(n));
		return false;
	}
	if (n->value[0] == '\0') {
		report(ld, n->pos, "%s must not be empty", label);
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
want_int(struct loader *ld, const struct node *n, const char *label,
    int64_t min, int64_t *out)
{
	int64_t v;

	if (n == NULL || n->kind == NODE_BAD)
		return false;
	if (n->kind != NODE_SCALAR || !n->plain || is_null(n)) {
		report(ld, n->pos, "%s: expected an integer, got %s", label,
		    kind_name(n));
		return false;
	}
	if (!parse_int(n->value, &v)) {
		report(ld, n->pos, "%s: expected an integer, got '%s'", label,
		    n->value);
		return false;
	}
	if (v < min) {
		report(ld, n->pos, "%s must be %s, got %lld", label,
		    min > 0 ? "positive" : "zero or more", (long long)v);
		return false;
	}
	*out = v;
	return true;
}

static bool
want_count(struct loader *ld, const struct node *n, const char *label,
    int64_t min, size_t *out)
{
	int64_t v;

	if (!want_int(ld, n, label, min, &v))
		return false;
	*out = (size_t)v;
	return true;
}

static void
load_seed(struct loader *ld, const struct node *n)
{
	char *end;

	if (n == NULL || n->kind == NODE_BAD)
		return;
	if (n->kind != NODE_SCALAR || !n->plain || is_null(n)) {
		report(ld, n->pos, "'seed': expected an integer, got %s",
		    kind_name(n));
		return;
	}
	errno = 0;
	ld->spec->seed = strtoull(n->value, &end, 10);
	if (n->value[0] < '0' || n->value[0] > '9' || *end != '\0' ||
	    errno != 0)
		report(ld, n->pos, "'seed': expected an integer from 0 to "
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

static void
load_dataset(struct loader *ld, const struct node *n)
{
	struct spec *spec = ld->spec;
	struct spec_dataset *d;
	struct stat st;
	char *rel;

	if (!want_string(ld, n, "a dataset", &rel))
		return;
	d = &spec->datasets[spec->ndatasets++];
	d->pos = n->pos;
	d->name = xstrdup(base_name(rel));
	d->path = resolve(spec, rel);
	if (stat(d->path, &st) < 0)
		report(ld, n->pos, "cannot find dataset '%s': %s", rel,
		    strerror(errno));
	else if (!S_ISREG(st.st_mode))
		report(ld, n->pos, "dataset '%s' is not a file", rel);
	for (size_t i = 0; i + 1 < spec->ndatasets; i++) {
		if (strcmp(spec->datasets[i].name, d->name) == 0) {
			report(ld, n->pos, "duplicate dataset name '%s' "
			    "(first at %d:%d)", d->name,
			    spec->datasets[i].pos.line,
			    spec->datasets[i].pos.col);
			break;
		}
	}
	free(rel);
}

static void
load_datasets(struct loader *ld, const struct node *list)
{
	if (list == NULL || !want_kind(ld, list, NODE_LIST, "'datasets'"))
		return;
	if (list->nkids == 0)
		report(ld, list->pos, "'datasets' is empty: a match needs "
		    "at least one dataset");
	ld->spec->datasets = xcalloc(list->nkids + 1,
	    sizeof *ld->spec->datasets);
	for (size_t i = 0; i < list->nkids; i++)
		load_dataset(ld, &list->kids[i]);
}

static bool
valid_name(const char *s)
{
	return s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_.-")] == '\0';
}

static void
load_entry_name(struct loader *ld, const struct node *n, size_t index,
    const char *what)
{
	struct spec *spec = ld->spec;
	struct spec_entry *e = &spec->entries[index];
	char label[160];

	snprintf(label, sizeof label, "'name' in %s", what);
	if (!want_string(ld, n, label, &e->name))
		return;
	if (!valid_name(e->name))
		report(ld, n->pos, "entry name '%s' may only use letters, "
		    "digits, '_', '.' and '-'", e->name);
	for (size_t i = 0; i < index; i++) {
		if (spec->entries[i].name != NULL &&
		    strcmp(spec->entries[i].name, e->name) == 0) {
			report(ld, n->pos, "duplicate entry name '%s' "
			    "(first entry at %d:%d)", e->name,
			    spec->entries[i].pos.line,
			    spec->entries[i].pos.col);
			break;
		}
	}
}

static void
load_entry_folder(struct loader *ld, const struct node *n,
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
		report(ld, n->pos, "cannot find folder '%s': %s", rel,
		    strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		report(ld, n->pos, "folder '%s' is not a directory", rel);
	free(rel);
}

/* What messages call a list item: "entry 'a'", or "entry 3" when it has no
 * name to show. */
static void
describe(const struct node *n, const char *kind, size_t index, char *buf,
    size_t size)
{
	snprintf(buf, size, "%s %zu", kind, index + 1);
	if (n->kind != NODE_MAP)
		return;
	for (size_t i = 0; i + 1 < n->nkids; i += 2)
		if (n->kids[i].kind == NODE_SCALAR &&
		    strcmp(n->kids[i].value, "name") == 0 &&
		    n->kids[i + 1].kind == NODE_SCALAR &&
		    n->kids[i + 1].value[0] != '\0')
			snprintf(buf, size, "%s '%.64s'", kind,
			    n->kids[i + 1].value);
}

static void
load_entry(struct loader *ld, const struct node *n, size_t index)
{
	static const char *const keys[] = { "name", "folder", "build", "run",
	    NULL };
	struct spec_entry *e = &ld->spec->entries[index];
	const struct node *v[4];
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
load_entries(struct loader *ld, const struct node *list)
{
	struct spec *spec = ld->spec;

	if (list == NULL || !want_kind(ld, list, NODE_LIST, "'entries'"))
		return;
	ld->entries_listed = true;
	if (list->nkids == 0)
		report(ld, list->pos, "'entries' is empty");
	spec->entries = xcalloc(list->nkids + 1, sizeof *spec->entries);
	spec->nentries = list->nkids;
	for (size_t i = 0; i < list->nkids; i++)
		load_entry(ld, &list->kids[i], i);
}

static void
load_limits(struct loader *ld, const struct node *map)
{
	static const char *const keys[] = { "call_ms", "game_ms", "memory_mb",
	    "resident_mb", NULL };
	struct spec_limits *l = &ld->spec->limits;
	int64_t *dest[] = { &l->call_ms, &l->game_ms, &l->memory_mb,
	    &l->resident_mb };
	const struct node *v[4];
	char label[64];

	if (map == NULL || is_null(map) ||
	    !fields(ld, map, "'limits'", keys, 0, v))
		return;
	for (size_t i = 0; i < 4; i++) {
		snprintf(label, sizeof label, "'%s'", keys[i]);
		want_int(ld, v[i], label, 1, dest[i]);
	}
}

static const char *const format_names[] = { "round_robin", "final", NULL };

const char *
spec_format_name(enum spec_format format)
{
	return format_names[format];
}

static void
load_format(struct loader *ld, const struct node *n, struct spec_stage *s)
{
	const char *near;
	char *name;

	if (!want_string(ld, n, "stage 'format'", &name))
		return;
	for (size_t i = 0; format_names[i] != NULL; i++) {
		if (strcmp(name, format_names[i]) == 0) {
			s->format = (enum spec_format)i;
			free(name);
			return;
		}
	}
	near = closest(name, format_names);
	if (near != NULL)
		report(ld, n->pos, "unknown format '%s' (did you mean '%s'?)",
		    name, near);
	else
		report(ld, n->pos, "unknown format '%s' (known: round_robin, "
		    "final)", name);
	free(name);
}

/* One drawn group: a list of entry names; seen[e] is where entry e was
 * drawn first. */
static void
load_draw_group(struct loader *ld, const struct node *n, size_t g,
    struct spec_stage *s, struct spec_pos *seen)
{
	char **names;
	size_t k = 0;

	if (!want_kind(ld, n, NODE_LIST, "a group of 'draw'"))
		return;
	names = xcalloc(n->nkids + 1, sizeof *names);
	s->draw[g] = names;
	for (size_t i = 0; i < n->nkids; i++) {
		const struct node *item = &n->kids[i];
		int e;

		if (!want_string(ld, item, "an entry of 'draw'", &names[k]))
			continue;
		e = spec_entry_index(ld->spec, names[k]);
		if (e < 0)
			report(ld, item->pos, "unknown entry '%s' in the draw",
			    names[k]);
		else if (seen[e].line != 0)
			report(ld, item->pos, "entry '%s' is drawn twice "
			    "(first at %d:%d)", names[k], seen[e].line,
			    seen[e].col);
		else
			seen[e] = item->pos;
		k++;
	}
	if (n->nkids < 2)
		report(ld, n->pos, "group %zu of the draw has %zu entr%s; "
		    "a round-robin group needs at least 2", g + 1, n->nkids,
		    n->nkids == 1 ? "y" : "ies");
}

static void
load_draw(struct loader *ld, const struct node *n, size_t stage)
{
	struct spec *spec = ld->spec;
	struct spec_stage *s = &spec->stages[stage];
	struct spec_pos *seen;

	if (n == NULL || !want_kind(ld, n, NODE_LIST, "'draw'"))
		return;
	ld->marks[stage].draw = n->pos;
	s->draw = xcalloc(n->nkids + 1, sizeof *s->draw);
	s->ndraw = n->nkids;
	if (stage > 0) {
		report(ld, n->pos, "'draw' only applies to the first stage: "
		    "later entrants depend on results");
		return;
	}
	if (n->nkids == 0) {
		report(ld, n->pos, "'draw' is empty");
		return;
	}
	seen = xcalloc(spec->nentries + 1, sizeof *seen);
	for (size_t g = 0; g < n->nkids; g++)
		load_draw_group(ld, &n->kids[g], g, s, seen);
	for (size_t e = 0; e < spec->nentries; e++)
		if (seen[e].line == 0 && spec->entries[e].name != NULL)
			report(ld, n->pos, "the draw leaves out entry '%s'",
			    spec->entries[e].name);
	free(seen);
}

static void
load_stage_name(struct loader *ld, const struct node *n, size_t index)
{
	struct spec *spec = ld->spec;
	struct spec_stage *s = &spec->stages[index];

	if (!want_string(ld, n, "stage 'name'", &s->name))
		return;
	for (size_t i = 0; i < index; i++) {
		if (spec->stages[i].name != NULL &&
		    strcmp(spec->stages[i].name, s->name) == 0) {
			report(ld, n->pos, "duplicate stage name '%s' "
			    "(first stage at %d:%d)", s->name,
			    spec->stages[i].pos.line, spec->stages[i].pos.col);
			break;
		}
	}
}

static void
load_stage(struct loader *ld, const struct node *n, size_t index)
{
	static const char *const keys[] = { "name", "format", "groups",
	    "group_size", "draw", "advance", NULL };
	struct spec_stage *s = &ld->spec->stages[index];
	struct stage_marks *m = &ld->marks[index];
	size_t before = ld->nerrors;
	const struct node *v[6];
	char what[96];

	s->pos = n->pos;
	describe(n, "stage", index, what, sizeof what);
	if (!fields(ld, n, what, keys, 1u | 2u, v))
		return;
	load_stage_name(ld, v[0], index);
	load_format(ld, v[1], s);
	if (want_count(ld, v[2], "'groups'", 1, &s->groups))
		m->groups = v[2]->pos;
	if (want_count(ld, v[3], "'group_size'", 1, &s->group_size))
		m->group_size = v[3]->pos;
	load_draw(ld, v[4], index);
	if (want_count(ld, v[5], "'advance'", 0, &s->advance))
		m->advance = v[5]->pos;
	m->ok = ld->nerrors == before;
}

static void
load_stages(struct loader *ld, const struct node *list)
{
	struct spec *spec = ld->spec;

	if (list == NULL || !want_kind(ld, list, NODE_LIST, "'stages'"))
		return;
	if (list->nkids == 0)
		report(ld, list->pos, "'stages' is empty");
	spec->stages = xcalloc(list->nkids + 1, sizeof *spec->stages);
	ld->marks = xcalloc(list->nkids + 1, sizeof *ld->marks);
	spec->nstages = list->nkids;
	for (size_t i = 0; i < list->nkids; i++)
		load_stage(ld, &list->kids[i], i);
}

static void
load_top(struct loader *ld, const struct node *root)
{
	static const char *const keys[] = { "tournament", "game", "seed",
	    "datasets", "entries", "limits", "stages", NULL };
	struct spec *spec = ld->spec;
	const struct node *v[7];

	if (!fields(ld, root, "the spec", keys, 1u | 2u | 8u | 16u | 64u, v))
		return;
	want_string(ld, v[0], "'tournament'", &spec->name);
	if (want_string(ld, v[1], "'game'", &spec->game))
		spec->game_pos = v[1]->pos;
	load_seed(ld, v[2]);
	load_datasets(ld, v[3]);
	/* Entries before stages, whatever the file's order: draws name them. */
	load_entries(ld, v[4]);
	load_limits(ld, v[5]);
	load_stages(ld, v[6]);
}

/* ---- pass 3: across stages ---- */

/* Only one way of forming groups, and none for a final. */
static bool
check_grouping(struct loader *ld, size_t i)
{
	const struct spec_stage *s = &ld->spec->stages[i];
	const struct stage_marks *m = &ld->marks[i];
	const char *names[] = { "groups", "group_size", "draw" };
	bool given[] = { s->groups > 0, s->group_size > 0, s->draw != NULL };
	struct spec_pos pos[] = { m->groups, m->group_size, m->draw };
	const char *first = NULL;
	bool ok = true;

	for (size_t k = 0; k < 3; k++) {
		if (!given[k])
			continue;
		if (s->format == SPEC_FINAL) {
			report(ld, pos[k], "'%s' does not apply to a final, "
			    "which is one group of every entrant", names[k]);
			ok = false;
		} else if (first != NULL) {
			report(ld, pos[k], "'%s' conflicts with '%s': give one "
			    "of 'groups', 'group_size' and 'draw'", names[k],
			    first);
			ok = false;
		} else
			first = names[k];
	}
	return ok;
}

/* Never a loop over the groups: `groups` may be absurdly large here. */
static size_t
smallest_group(const struct spec *spec, size_t i, size_t n)
{
	const struct spec_stage *s = &spec->stages[i];
	size_t min = SIZE_MAX;

	if (s->format == SPEC_ROUND_ROBIN && s->draw != NULL) {
		for (size_t k = 0; k < s->ndraw; k++) {
			size_t size = spec_stage_group_size(spec, i, n, k);

			if (size < min)
				min = size;
		}
		return min;
	}
	return n / spec_stage_ngroups(spec, i, n);
}

/* Group sizes and advance for a stage of n entrants; false if wrong. */
static bool
check_sizes(struct loader *ld, size_t i, size_t n)
{
	const struct spec_stage *s = &ld->spec->stages[i];
	const struct stage_marks *m = &ld->marks[i];
	size_t g = spec_stage_ngroups(ld->spec, i, n);
	size_t min = smallest_group(ld->spec, i, n);
	struct spec_pos pos = s->group_size > 0 ? m->group_size :
	    s->groups > 0 ? m->groups : s->pos;

	if (s->format == SPEC_FINAL && n < 2) {
		report(ld, s->pos, "too few entrants: final '%s' has %zu; a "
		    "final needs at least 2", s->name, n);
		return false;
	}
	if (s->format == SPEC_ROUND_ROBIN && s->draw == NULL && min < 2) {
		if (g <= 1)
			report(ld, pos, "too few entrants: stage '%s' has %zu; "
			    "a round-robin group needs at least 2", s->name, n);
		else
			report(ld, pos, "too few entrants: stage '%s' puts %zu "
			    "in %zu groups; a round-robin group needs at least "
			    "2", s->name, n, g);
		return false;
	}
	if (s->advance > min) {
		report(ld, m->advance, "'advance' %zu is larger than the "
		    "smallest group of stage '%s' (%zu entrants)", s->advance,
		    s->name, min);
		return false;
	}
	return true;
}

static void
check_stages(struct loader *ld)
{
	const struct spec *spec = ld->spec;
	bool known = ld->entries_listed;
	size_t n = spec->nentries;

	for (size_t i = 0; i < spec->nstages; i++) {
		const struct spec_stage *s = &spec->stages[i];
		const struct spec_stage *prev = i ? &spec->stages[i - 1] : NULL;

		if (i > 0 && known)
			n = spec_stage_ngroups(spec, i - 1, n) * prev->advance;
		if (!ld->marks[i].ok) {
			known = false;
			continue;
		}
		if (s->advance > 0 && i + 1 == spec->nstages)
			report(ld, ld->marks[i].advance, "'advance' on the "
			    "last stage '%s': there is no next stage", s->name);
		if (i == 0 && s->format == SPEC_FINAL) {
			report(ld, s->pos, "final '%s' is the first stage: a "
			    "final plays the advancers of a stage before it",
			    s->name);
			known = false;
		} else if (i > 0 && ld->marks[i - 1].ok && prev->advance == 0) {
			report(ld, s->pos, "%s '%s' has no entrants: stage "
			    "'%s' before it has no 'advance'",
			    s->format == SPEC_FINAL ? "final" : "stage",
			    s->name, prev->name);
			known = false;
		}
		if (!check_grouping(ld, i))
			known = false;
		if (known && !check_sizes(ld, i, n))
			known = false;
	}
}

/* ---- the public side ---- */

static int
read_text(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 8192, n;
	char *buf;

	if (f == NULL)
		return -1;
	buf = xmalloc(cap);
	*len = 0;
	while ((n = fread(buf + *len, 1, cap - *len - 1, f)) > 0) {
		*len += n;
		if (cap - *len - 1 == 0)
			buf = xrealloc(buf, cap *= 2);
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[*len] = '\0';
	*text = buf;
	return 0;
}

static char *
spec_folder(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir, *real;

	if (slash == NULL)
		dir = xstrdup(".");
	else if (slash == path)
		dir = xstrdup("/");
	else
		dir = xasprintf("%.*s", (int)(slash - path), path);
	real = realpath(dir, NULL);
	if (real == NULL)
		return dir;
	free(dir);
	return real;
}

int
spec_load(const char *path, FILE *errors, struct spec **out)
{
	struct loader ld = { .path = path };
	struct node root = { 0 };
	struct spec *spec;
	char *text = NULL;
	size_t len;

	*out = NULL;
	spec = ld.spec = xcalloc(1, sizeof *spec);
	spec->path = xstrdup(path);
	spec->dir = spec_folder(path);
	spec->limits = (struct spec_limits){ 1000, 30000, 512, 256 };
	if (read_text(path, &text, &len) < 0) {
		fprintf(errors, "%s: cannot read: %s\n", path,
		    strerror(errno));
		spec_free(spec);
		return -1;
	}
	ld.text = text;
	if (read_tree(&ld, len, &root) == 0) {
		load_top(&ld, &root);
		check_stages(&ld);
	}
	node_release(&root);
	free(ld.marks);
	free(text);
	print_problems(&ld, errors);
	if (ld.nerrors > 0) {
		spec_free(spec);
		return -1;
	}
	*out = spec;
	return 0;
}

void
spec_free(struct spec *spec)
{
	if (spec == NULL)
		return;
	for (size_t i = 0; i < spec->ndatasets; i++) {
		free(spec->datasets[i].name);
		free(spec->datasets[i].path);
	}
	for (size_t i = 0; i < spec->nentries; i++) {
		free(spec->entries[i].name);
		free(spec->entries[i].folder);
		free(spec->entries[i].build);
		free(spec->entries[i].run);
	}
	for (size_t i = 0; i < spec->nstages; i++) {
		struct spec_stage *s = &spec->stages[i];

		for (size_t g = 0; g < s->ndraw; g++) {
			for (size_t k = 0; s->draw[g] && s->draw[g][k]; k++)
				free(s->draw[g][k]);
			free(s->draw[g]);
		}
		free(s->draw);
		free(s->name);
	}
	free(spec->datasets);
	free(spec->entries);
	free(spec->stages);
	free(spec->path);
	free(spec->dir);
	free(spec->name);
	free(spec->game);
	free(spec);
}

int
spec_entry_index(const struct spec *spec, const char *name)
{
	for (size_t i = 0; i < spec->nentries; i++)
		if (spec->entries[i].name != NULL &&
		    strcmp(spec->entries[i].name, name) == 0)
			return (int)i;
	return -1;
}

int
spec_stage_index(const struct spec *spec, const char *name)
{
	for (size_t i = 0; i < spec->nstages; i++)
		if (spec->stages[i].name != NULL &&
		    strcmp(spec->stages[i].name, name) == 0)
			return (int)i;
	return -1;
}

size_t
spec_stage_ngroups(const struct spec *spec, size_t stage, size_t nentrants)
{
	const struct spec_stage *s = &spec->stages[stage];

	if (s->format == SPEC_FINAL)
		return 1;
	if (s->draw != NULL)
		return s->ndraw;
	if (s->groups > 0)
		return s->groups;
	if (s->group_size > 0 && nentrants > s->group_size)
		return (nentrants + s->group_size - 1) / s->group_size;
	return 1;
}

size_t
spec_stage_group_size(const struct spec *spec, size_t stage,
    size_t nentrants, size_t group)
{
	const struct spec_stage *s = &spec->stages[stage];
	size_t g = spec_stage_ngroups(spec, stage, nentrants);
	size_t k = 0;

	if (s->format == SPEC_ROUND_ROBIN && s->draw != NULL) {
		while (s->draw[group] != NULL && s->draw[group][k] != NULL)
			k++;
		return k;
	}
	return nentrants / g + (group < nentrants % g);
}

size_t
spec_stage_entrants(const struct spec *spec, size_t stage)
{
	size_t n = spec->nentries;

	for (size_t i = 1; i <= stage; i++)
		n = spec_stage_ngroups(spec, i - 1, n) *
		    spec->stages[i - 1].advance;
	return n;
}

size_t
spec_stage_matches(const struct spec *spec, size_t stage)
{
	size_t n = spec_stage_entrants(spec, stage), total = 0;
	size_t g = spec_stage_ngroups(spec, stage, n);

	for (size_t k = 0; k < g; k++) {
		size_t size = spec_stage_group_size(spec, stage, n, k);

		total += size * (size - (size > 0)) / 2;
	}
	return total;
}
