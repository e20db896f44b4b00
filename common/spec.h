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
	SPEC_GAUNTLET,		/* each entrant against listed opponents */
	SPEC_COMBINATIONS,	/* every k-subset of the entrants plays */
	SPEC_ALL_VS_ALL,	/* every pair, both sides, repeat times;
				 * scores summed */
};

/* A gauntlet opponent: a spec entry every ranked entrant plays, scored
 * either proportionally, weight * (games - lost) / games, or from a table
 * of points by games lost (points[lost], games + 1 of them). */
struct spec_opponent {
	char *entry;		/* entry name */
	int64_t weight;		/* when points is NULL */
	int64_t *points;	/* or points[lost]; NULL for weight */
	size_t npoints;
	struct spec_pos pos;	/* the opponent */
	struct spec_pos points_pos;
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
	size_t games_per_side;	/* gauntlet: games per colour, dataset and
				 * opponent; default 5 */
	struct spec_opponent *opponents;	/* gauntlet */
	size_t nopponents;
	size_t seats;		/* combinations: k; 0 = the game's most */
	struct spec_pos seats_pos;
	bool rotation;		/* combinations: each subset in all k
				 * rotations of seats (default), or once
				 * in list order */
	size_t repeat;		/* all_vs_all: games per pair, dataset and
				 * side; default 1 */
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
	/* "spare_datasets:", in order: an undecided game is played again on
	 * the next one (docs/spec.md); names unique with the datasets'. */
	struct spec_dataset *spares;
	size_t nspares;
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
 * first nentrants % ngroups groups have one more; a gauntlet,
 * combinations or all_vs_all stage is one group. Matches: a single
 * round-robin in each group; a gauntlet, ranked entrants * opponents;
 * combinations, the k-subsets (0 when k is the game's, unknown here);
 * all_vs_all, the pairs. */
size_t spec_stage_entrants(const struct spec *spec, size_t stage);
size_t spec_stage_ngroups(const struct spec *spec, size_t stage,
    size_t nentrants);
size_t spec_stage_group_size(const struct spec *spec, size_t stage,
    size_t nentrants, size_t group);
size_t spec_stage_matches(const struct spec *spec, size_t stage);
/* Games a gauntlet entrant plays against each opponent:
 * 2 * games_per_side * datasets. */
size_t spec_gauntlet_games(const struct spec *spec, size_t stage);
/* Games each pair of an all_vs_all stage plays: 2 * repeat * datasets. */
size_t spec_pair_games(const struct spec *spec, size_t stage);
/* Whether entry e is an opponent of gauntlet stage (never ranked there). */
bool spec_is_opponent(const struct spec *spec, size_t stage, size_t e);
/* n choose k, saturating at SIZE_MAX. */
size_t spec_choose(size_t n, size_t k);
/* "round_robin", "final", "gauntlet", "combinations" or "all_vs_all". */
const char *spec_format_name(enum spec_format format);

#endif
