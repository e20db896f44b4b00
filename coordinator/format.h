/*
 * format: the stage formats behind plan_expand(), private to coordinator/
 * plan.c and the format_*.c files. A format only forms the groups of a
 * stage; plan.c then plays a single round-robin in each group and derives
 * the games, so every format schedules matches the same way. format.c
 * holds what they share.
 */
#ifndef ARENA_FORMAT_H
#define ARENA_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "common/spec.h"
#include "coordinator/plan.h"

/* Fills ps->groups and ps->ngroups from entrants, or returns -1 after
 * logging why it cannot. */
typedef int format_groups_fn(const struct spec *spec, size_t stage,
    const size_t *entrants, size_t nentrants, struct plan_stage *ps);

format_groups_fn format_round_robin_groups;
format_groups_fn format_final_groups;

/* Group names "A".."Z", "AA", "AB"... Caller owns the result; free(). */
char *format_group_name(size_t index);

/* A 64-bit hash step: the state of a chain after value. Chaining it over
 * (seed, stage, ...) derives independent seeds from one spec seed. */
uint64_t format_mix(uint64_t state, uint64_t value);

#endif
