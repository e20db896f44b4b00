/*
 * plan: expands one stage of a spec into groups, matches and games. Pure
 * and deterministic: the same spec, stage and entrants always give the same
 * groups, pairings, sides and per-game seeds, so a plan can be diffed and a
 * game replayed exactly. Each format is one file (format_*.c) and one row
 * of the table in plan.c; it forms the groups, the matches and their games.
 *
 * A match is 2 to PROTO_MAX_SEATS entries that meet; a game seats one of
 * them per seat, seat 0 moving first. In a round-robin (and a final) every
 * match plays every dataset twice, each entry playing first once: games 2d
 * and 2d+1 are dataset d with entries[0] first, then entries[1] first.
 * A gauntlet match is (ranked entry, opponent), games_per_side games with
 * each first on each dataset; a combinations match is one k-subset of the
 * entrants, in each rotation of seats (or once) on each dataset; an
 * all_vs_all match is one pair, each first `repeat` times on each dataset
 * (game (d * repeat + r) * 2 + side).
 */
#ifndef ARENA_PLAN_H
#define ARENA_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/proto.h"
#include "common/spec.h"

struct plan_game {
	size_t dataset;		/* index into spec->datasets */
	size_t seats[PROTO_MAX_SEATS];	/* entry index per seat; seat 0
					 * (A) moves first */
	size_t nseats;
	uint64_t seed;		/* derived from the spec's seed and position */
};

struct plan_match {
	size_t group;		/* index into plan_stage.groups */
	size_t entries[PROTO_MAX_SEATS];	/* entry indexes that meet:
					 * round-robin, drawn first first;
					 * gauntlet, ranked then opponent */
	size_t nentries;
	struct plan_game *games;
	size_t ngames;
};

struct plan_group {
	char *name;		/* "A", "B", ... */
	size_t *members;	/* entry indexes, in draw order */
	size_t nmembers;
};

struct plan_stage {
	size_t stage;		/* index into spec->stages */
	struct plan_group *groups;
	size_t ngroups;
	struct plan_match *matches;	/* in play order (round-robin: by
					 * group, then round) */
	size_t nmatches;
};

/* Expands spec->stages[stage] for entrants (entry indexes; for the first
 * stage every entry in spec order, for a final the advancers in the order
 * db_stage_advancers() gives). Returns 0 and *out, or -1 after logging why
 * the stage cannot be expanded. Caller owns *out; free with
 * plan_stage_free(). */
int plan_expand(const struct spec *spec, size_t stage, const size_t *entrants,
    size_t nentrants, struct plan_stage **out);
void plan_stage_free(struct plan_stage *ps);

/* Number of entrants a stage will have, from the stage before it:
 * the first stage has every entry, a final groups * advance. */
size_t plan_stage_entrants(const struct spec *spec, size_t stage);
/* Seats of a combinations stage's games: `seats`, or its game's most
 * (games_find()); 2 for the other formats. */
size_t plan_stage_seats(const struct spec *spec, size_t stage);
/* Matches and games stage will have (without expanding it). */
void plan_stage_size(const struct spec *spec, size_t stage, size_t *nmatches,
    size_t *ngames);

/* Writes the whole plan of spec: the first stage expanded, later stages
 * described by where their entrants come from. Text for people, or one
 * JSON document. Returns 0 or -1. */
int plan_print(const struct spec *spec, FILE *out);
int plan_print_json(const struct spec *spec, FILE *out);

#endif
