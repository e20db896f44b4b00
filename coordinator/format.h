/*
 * format: the stage formats behind plan_expand(), private to coordinator/
 * plan.c and the format_*.c files. A format forms the groups of a stage,
 * then its matches and their games; format.c holds what they share: the
 * round-robin schedule, group names and seeds.
 */
#ifndef ARENA_FORMAT_H
#define ARENA_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "common/spec.h"
#include "coordinator/plan.h"

/* Fills ps->groups and ps->matches from entrants, or returns -1 after
 * logging why it cannot. */
typedef int format_fn(const struct spec *spec, size_t stage,
    const size_t *entrants, size_t nentrants, struct plan_stage *ps);

format_fn format_round_robin;
format_fn format_final;
format_fn format_gauntlet;
format_fn format_combinations;
format_fn format_all_vs_all;

/* A single round-robin in each group of ps (circle method), each match
 * playing every dataset twice, each side first once. */
void format_round_robin_matches(const struct spec *spec, struct plan_stage *ps);

/* Appends a match of n entries in group with ngames games, seeds set and
 * the rest zero, to ps->matches (allocated by the caller, large enough). */
struct plan_match *format_add_match(const struct spec *spec,
    struct plan_stage *ps, size_t group, const size_t *entries, size_t n,
    size_t ngames);

/* Gives ps its only group, "A", of the n entrants in their order. */
struct plan_group *format_one_group(struct plan_stage *ps,
    const size_t *entrants, size_t n);

/* Group names "A".."Z", "AA", "AB"... Caller owns the result; free(). */
char *format_group_name(size_t index);

/* A 64-bit hash step: the state of a chain after value. Chaining it over
 * (seed, stage, ...) derives independent seeds from one spec seed. */
uint64_t format_mix(uint64_t state, uint64_t value);

#endif
