/*
 * spec: a tournament spec (YAML, docs/spec.md) read into plain structs.
 * spec_load() checks the file's own shape: unknown keys, types, ranges,
 * missing files, entry counts against the stages. What needs a game's
 * rules (the game name, seats, dataset contents) is checked by
 * coordinator/check.c, using the positions kept here.
 *
 * Every error is printed to the error stream as "file:line:col: message"
 * (line and column 1-based), all of them, not just the first.
 */
#ifndef ARENA_SPEC_H
#define ARENA_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct spec_pos {
	int line;		/* 1-based; 0 when unknown */
	int col;		/* 1-based */
};

struct spec_dataset {
	char *name;		/* file name without folders, unique */
	char *path;		/* resolved against the spec's folder */
	struct spec_pos pos;
};

struct spec_entry {
	char *name;		/* unique, [A-Za-z0-9_.-]+ */
	char *folder;		/* absolute, resolved against the spec's folder */
	char *build;		/* shell command run in a copy of folder; NULL */
	char *run;		/* shell command that starts the bot */
	struct spec_pos pos;
};

/* The clock the time limits are measured on; both are recorded. */
enum spec_clock {
	SPEC_CLOCK_WALL,	/* elapsed time, the default */
	SPEC_CLOCK_CPU,		/* CPU time of everything the bot runs */
};

struct spec_limits {
	int64_t call_ms;	/* per call; default 1000 */
	int64_t game_ms;	/* per game, per bot; default 30000 */
	int64_t memory_mb;	/* peak memory while computing; default 512 */
	int64_t resident_mb;	/* resident after a call; default 256 */
	enum spec_clock clock;	/* which clock decides; default wall */
	bool ponder;		/* may compute on the opponent's time;
				 * default false: frozen between calls */
};

enum spec_format {
	SPEC_ROUND_ROBIN,	/* groups, each a single round-robin */
	SPEC_FINAL,		/* round-robin of the previous stage's advancers */
};

struct spec_stage {
	char *name;		/* unique stage name, e.g. "groups", "final" */
	enum spec_format format;
	size_t groups;		/* number of groups (round_robin); 0 if unset */
	size_t group_size;	/* or the size of each group; 0 if unset */
	char ***draw;		/* given groups: draw[g] is a NULL-ended list of
				 * entry names; NULL: drawn by seed */
	size_t ndraw;		/* number of given groups */
	size_t advance;		/* top K of each group go on; 0 = none */
	struct spec_pos pos;
};

struct spec {
	char *path;		/* the spec file as given */
	char *dir;		/* the folder relative paths are resolved in */
	char *name;		/* "tournament:" */
	char *game;		/* "game:" */
	struct spec_pos game_pos;
	uint64_t seed;		/* "seed:"; default 0 */
	struct spec_dataset *datasets;
	size_t ndatasets;
	struct spec_entry *entries;
	size_t nentries;
	struct spec_limits limits;
	struct spec_stage *stages;
	size_t nstages;
};

/* Reads and checks path. Returns 0 and *out on success; -1 after printing
 * every problem found to errors. Caller owns *out; free with spec_free(). */
int spec_load(const char *path, FILE *errors, struct spec **out);
void spec_free(struct spec *spec);

/* Index of the entry or stage called name, or -1. */
int spec_entry_index(const struct spec *spec, const char *name);
int spec_stage_index(const struct spec *spec, const char *name);

/* The shape of a stage of a loaded (valid) spec, without expanding it.
 * Entrants: every entry for the first stage, else the previous stage's
 * groups * advance. Groups for nentrants: the draw's, `groups`,
 * ceil(nentrants / group_size), or 1. Sizes are as equal as possible: the
 * first nentrants % ngroups groups have one more. Matches: a single
 * round-robin in each group. */
size_t spec_stage_entrants(const struct spec *spec, size_t stage);
size_t spec_stage_ngroups(const struct spec *spec, size_t stage,
    size_t nentrants);
size_t spec_stage_group_size(const struct spec *spec, size_t stage,
    size_t nentrants, size_t group);
size_t spec_stage_matches(const struct spec *spec, size_t stage);
/* "round_robin" or "final". */
const char *spec_format_name(enum spec_format format);

#endif
