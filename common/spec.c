/*
 * spec: reads a tournament spec (docs/spec.md) in three passes.
 *
 * 1. Here, libyaml's events become a small tree of scalars, lists and
 *    mappings, each with its position. What a spec never needs is
 *    refused here with its position: anchors, aliases, tags, a second
 *    document, absurd nesting. Broken YAML stops everything (libyaml
 *    cannot go on after it); anything else marks the node SPEC_NODE_BAD
 *    and reading goes on.
 * 2. spec_schema.c walks the tree against the schema, filling struct
 *    spec. Every problem is printed, each once: a node found wrong is not
 *    looked at again, and checks that need a broken part are skipped.
 * 3. spec_stage.c checks across stages: entrants per stage, group sizes,
 *    advance.
 *
 * The tree is freed before returning; struct spec owns copies. This is
 * the only file that sees libyaml.
 */
#include "common/spec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "common/log.h"
#include "common/spec_node.h"

/* Far deeper than any spec; stops a hostile file from building a tree
 * whose walk would exhaust the stack. */
#define MAX_DEPTH 32

void
spec_report(struct spec_loader *ld, struct spec_pos pos, const char *fmt, ...)
{
	struct spec_problem *p;
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
	const struct spec_problem *x = a, *y = b;

	if (x->pos.line != y->pos.line)
		return x->pos.line < y->pos.line ? -1 : 1;
	if (x->pos.col != y->pos.col)
		return x->pos.col < y->pos.col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void
print_problems(struct spec_loader *ld, FILE *errors)
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
next_event(struct spec_loader *ld, yaml_parser_t *p, yaml_event_t *ev)
{
	struct spec_pos pos, ctx;

	if (yaml_parser_parse(p, ev))
		return 0;
	if (p->error == YAML_MEMORY_ERROR)
		fatal("out of memory");
	if (p->error == YAML_READER_ERROR) {
		spec_report(ld, offset_pos(ld->text, p->problem_offset),
		    "invalid YAML: %s", p->problem);
		return -1;
	}
	pos = mark_pos(p->problem_mark);
	ctx = mark_pos(p->context_mark);
	if (p->context != NULL)
		spec_report(ld, pos, "invalid YAML: %s (%s that starts at "
		    "%d:%d)", p->problem ? p->problem : "error", p->context,
		    ctx.line, ctx.col);
	else
		spec_report(ld, pos, "invalid YAML: %s",
		    p->problem ? p->problem : "error");
	return -1;
}

static void
node_release(struct spec_node *n)
{
	for (size_t i = 0; i < n->nkids; i++)
		node_release(&n->kids[i]);
	free(n->kids);
	free(n->value);
}

static int read_node(struct spec_loader *ld, yaml_parser_t *p, yaml_event_t *ev,
    struct spec_node *n, int depth);

static int
read_kids(struct spec_loader *ld, yaml_parser_t *p, yaml_event_type_t end,
    struct spec_node *n, int depth)
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
refuse_decorations(struct spec_loader *ld, struct spec_pos pos,
    const yaml_char_t *anchor, const yaml_char_t *tag)
{
	if (anchor != NULL)
		spec_report(ld, pos, "anchors are not supported ('&%s')",
		    (const char *)anchor);
	if (tag != NULL)
		spec_report(ld, pos, "tags are not supported ('%s')",
		    (const char *)tag);
	return anchor != NULL || tag != NULL;
}

static int
read_scalar(struct spec_loader *ld, const yaml_event_t *ev, struct spec_node *n)
{
	const char *value = (const char *)ev->data.scalar.value;

	n->kind = SPEC_NODE_SCALAR;
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	n->value = xstrdup(value);
	if (strlen(value) != ev->data.scalar.length) {
		spec_report(ld, n->pos, "a string holds a NUL character");
		n->kind = SPEC_NODE_BAD;
	}
	if (refuse_decorations(ld, n->pos, ev->data.scalar.anchor,
	    ev->data.scalar.tag))
		n->kind = SPEC_NODE_BAD;
	return 0;
}

/* Takes ownership of *ev. */
static int
read_node(struct spec_loader *ld, yaml_parser_t *p, yaml_event_t *ev,
    struct spec_node *n, int depth)
{
	bool refused = false;
	int rc = 0;

	n->pos = mark_pos(ev->start_mark);
	if (depth > MAX_DEPTH) {
		spec_report(ld, n->pos, "nesting deeper than %d levels",
		    MAX_DEPTH);
		yaml_event_delete(ev);
		return -1;
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		rc = read_scalar(ld, ev, n);
		break;
	case YAML_SEQUENCE_START_EVENT:
		n->kind = SPEC_NODE_LIST;
		refused = refuse_decorations(ld, n->pos,
		    ev->data.sequence_start.anchor,
		    ev->data.sequence_start.tag);
		rc = read_kids(ld, p, YAML_SEQUENCE_END_EVENT, n, depth);
		break;
	case YAML_MAPPING_START_EVENT:
		n->kind = SPEC_NODE_MAP;
		refused = refuse_decorations(ld, n->pos,
		    ev->data.mapping_start.anchor,
		    ev->data.mapping_start.tag);
		rc = read_kids(ld, p, YAML_MAPPING_END_EVENT, n, depth);
		break;
	case YAML_ALIAS_EVENT:
		spec_report(ld, n->pos, "aliases are not supported ('*%s')",
		    (const char *)ev->data.alias.anchor);
		n->kind = SPEC_NODE_BAD;
		break;
	default:
		spec_report(ld, n->pos, "unexpected YAML event %d", ev->type);
		rc = -1;
		break;
	}
	if (refused)
		n->kind = SPEC_NODE_BAD;
	yaml_event_delete(ev);
	return rc;
}

/* Skips an event that carries no content (stream or document marks). */
static int
expect_event(struct spec_loader *ld, yaml_parser_t *p, yaml_event_type_t *type,
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
read_tree(struct spec_loader *ld, size_t len, struct spec_node *root)
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
		spec_report(ld, pos, "the spec is empty");
		goto done;
	}
	if (next_event(ld, &p, &ev) < 0 ||
	    read_node(ld, &p, &ev, root, 0) < 0)
		goto done;
	if (expect_event(ld, &p, &type, &pos) < 0 ||
	    expect_event(ld, &p, &type, &pos) < 0)
		goto done;
	if (type == YAML_DOCUMENT_START_EVENT) {
		spec_report(ld, pos, "a spec is one YAML document; "
		    "this starts a second one");
		goto done;
	}
	rc = 0;
done:
	yaml_parser_delete(&p);
	return rc;
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
	struct spec_loader ld = { .path = path };
	struct spec_node root = { 0 };
	struct spec *spec;
	char *text = NULL;
	size_t len;

	*out = NULL;
	spec = ld.spec = xcalloc(1, sizeof *spec);
	spec->path = xstrdup(path);
	spec->dir = spec_folder(path);
	spec->limits = (struct spec_limits){ .call_ms = 1000, .game_ms = 30000,
	    .memory_mb = 512, .resident_mb = 256, .clock = SPEC_CLOCK_WALL };
	if (read_text(path, &text, &len) < 0) {
		fprintf(errors, "%s: cannot read: %s\n", path,
		    strerror(errno));
		spec_free(spec);
		return -1;
	}
	ld.text = text;
	if (read_tree(&ld, len, &root) == 0) {
		spec_schema_load(&ld, &root);
		spec_stage_check(&ld);
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
	for (size_t i = 0; i < spec->nspares; i++) {
		free(spec->spares[i].name);
		free(spec->spares[i].path);
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
		for (size_t k = 0; k < s->nopponents; k++) {
			free(s->opponents[k].entry);
			free(s->opponents[k].points);
		}
		free(s->opponents);
	}
	free(spec->datasets);
	free(spec->spares);
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

