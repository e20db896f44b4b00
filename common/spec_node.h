/*
 * spec_node: private to the spec module (common/spec*.c), not for other
 * modules. spec.c reads the YAML into a tree of positioned nodes (pass
 * 1); spec_schema.c walks the tree against the schema, filling struct
 * spec (pass 2); spec_stage.c checks across stages (pass 3). Each pass
 * reports problems through spec_report(), which keeps them until
 * spec_load() prints them all, in file order.
 */
#ifndef ARENA_SPEC_NODE_H
#define ARENA_SPEC_NODE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/spec.h"

enum spec_node_kind {
	SPEC_NODE_BAD,		/* reported already: checks stay silent */
	SPEC_NODE_SCALAR,
	SPEC_NODE_LIST,
	SPEC_NODE_MAP,
};

struct spec_node {
	enum spec_node_kind kind;
	struct spec_pos pos;	/* where the node starts */
	char *value;		/* scalar text */
	bool plain;		/* unquoted: may be a number or null */
	struct spec_node *kids;	/* list items; map: key, value, key... */
	size_t nkids;
};

/* Positions the checks across stages point at. */
struct spec_marks {
	struct spec_pos groups;
	struct spec_pos group_size;
	struct spec_pos draw;
	struct spec_pos advance;
	struct spec_pos games_per_side;
	struct spec_pos opponents;
	struct spec_pos rotation;
	struct spec_pos repeat;
	bool ok;		/* the stage itself had no problem */
};

/* A problem found, printed once all are found, in file order. */
struct spec_problem {
	struct spec_pos pos;
	size_t seq;		/* order found: keeps sorting stable */
	char *text;
};

struct spec_loader {
	const char *path;	/* as given, for messages */
	const char *text;	/* the whole file, for reader error offsets */
	struct spec_problem *problems;
	size_t nerrors;
	size_t cap;
	struct spec *spec;
	struct spec_marks *marks;	/* one per spec->stages */
	bool entries_listed;	/* "entries:" is a list: counts known */
};

/* Records a problem at pos; spec_load() prints it with the others. */
void spec_report(struct spec_loader *ld, struct spec_pos pos, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

/* Pass 2: fills ld->spec and ld->marks from the tree under root. */
void spec_schema_load(struct spec_loader *ld, const struct spec_node *root);

/* Pass 3: entrants, group sizes and advance across the stages. */
void spec_stage_check(struct spec_loader *ld);

#endif
