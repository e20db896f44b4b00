/*
 * format: what the stage formats (format_*.c) share: group names, the
 * hash that derives every seed from the spec's one seed, and the
 * round-robin schedule. All end up in the database and in printed plans,
 * so none may ever change.
 *
 * Round-robin by the circle method: members stand in draw order, the
 * first stays put and the others turn one place a round, so every pair
 * meets exactly once and nobody plays twice in a round (an odd group gets
 * a bye). A match lists the member drawn first first. Each game's seed is
 * a hash of (spec seed, stage, group, match, game): a game can be replayed
 * alone, and changing one stage never moves another's seeds.
 */
#include "coordinator/format.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

/* Game seeds stay below 2^53 so they survive JSON readers that hold
 * numbers in doubles, and PostgreSQL's signed bigint. */
#define SEED_MASK ((UINT64_C(1) << 53) - 1)

static uint64_t
splitmix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

uint64_t
format_mix(uint64_t state, uint64_t value)
{
	return splitmix64(state ^ splitmix64(value));
}

char *
format_group_name(size_t index)
{
	char buf[16];
	size_t i = sizeof buf - 1;

	/* Bijective base 26: A..Z, AA, AB, ... */
	buf[i] = '\0';
	do {
		buf[--i] = (char)('A' + index % 26);
		index = index / 26;
	} while (index-- > 0 && i > 0);
	return xstrdup(buf + i);
}

struct plan_group *
format_one_group(struct plan_stage *ps, const size_t *entrants, size_t n)
{
	struct plan_group *grp = ps->groups = xcalloc(1, sizeof *ps->groups);

	ps->ngroups = 1;
	grp->name = format_group_name(0);
	grp->members = xcalloc(n + 1, sizeof *grp->members);
	grp->nmembers = n;
	memcpy(grp->members, entrants, n * sizeof *entrants);
	return grp;
}

struct plan_match *
format_add_match(const struct spec *spec, struct plan_stage *ps, size_t group,
    const size_t *entries, size_t n, size_t ngames)
{
	struct plan_match *m = &ps->matches[ps->nmatches];
	uint64_t h = format_mix(spec->seed, ps->stage);

	h = format_mix(format_mix(h, group), ps->nmatches);
	m->group = group;
	memcpy(m->entries, entries, n * sizeof *entries);
	m->nentries = n;
	m->ngames = ngames;
	m->games = xcalloc(ngames + 1, sizeof *m->games);
	for (size_t k = 0; k < ngames; k++)
		m->games[k].seed = format_mix(h, k) & SEED_MASK;
	ps->nmatches++;
	return m;
}

static void
add_pair(const struct spec *spec, struct plan_stage *ps, size_t group,
    size_t x, size_t y)
{
	const struct plan_group *grp = &ps->groups[group];
	size_t pair[2] = { grp->members[x < y ? x : y],
	    grp->members[x < y ? y : x] };
	struct plan_match *m = format_add_match(spec, ps, group, pair, 2,
	    2 * spec->ndatasets);

	for (size_t k = 0; k < m->ngames; k++) {
		struct plan_game *g = &m->games[k];

		g->dataset = k / 2;
		g->nseats = 2;
		g->seats[0] = pair[k % 2];
		g->seats[1] = pair[1 - k % 2];
	}
}

/* The circle method over member positions; position n is the bye. */
static void
group_matches(const struct spec *spec, struct plan_stage *ps, size_t group)
{
	size_t n = ps->groups[group].nmembers, slots = n + n % 2;
	size_t *at = xcalloc(slots + 1, sizeof *at);

	for (size_t i = 0; i < slots; i++)
		at[i] = i;
	for (size_t round = 0; round + 1 < slots; round++) {
		size_t last = at[slots - 1];

		for (size_t i = 0; i < slots / 2; i++)
			if (at[i] < n && at[slots - 1 - i] < n)
				add_pair(spec, ps, group, at[i],
				    at[slots - 1 - i]);
		memmove(at + 2, at + 1, (slots - 2) * sizeof *at);
		at[1] = last;
	}
	free(at);
}

void
format_round_robin_matches(const struct spec *spec, struct plan_stage *ps)
{
	size_t total = 0;

	for (size_t g = 0; g < ps->ngroups; g++)
		total += ps->groups[g].nmembers * (ps->groups[g].nmembers - 1) /
		    2;
	ps->matches = xcalloc(total + 1, sizeof *ps->matches);
	for (size_t g = 0; g < ps->ngroups; g++)
		group_matches(spec, ps, g);
}
