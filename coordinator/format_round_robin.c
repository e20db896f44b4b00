/*
 * format_round_robin: the groups of a round-robin stage. Given a draw, the
 * groups are the draw's. Otherwise the entrants are shuffled by a
 * xoshiro256** generator seeded from the spec seed and the stage index
 * (never rand(): the draw must be the same on every machine and libc) and
 * dealt in order into groups whose sizes differ by at most one, the
 * larger groups first. Then a single round-robin in each group
 * (format.c).
 */
#include "coordinator/format.h"

#include <stdlib.h>
#include <string.h>

#include "common/log.h"

struct rng {
	uint64_t s[4];
};

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t
rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* A uniform index below bound, without the bias of a bare modulo. */
static size_t
rng_below(struct rng *r, size_t bound)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound, x;

	do
		x = rng_next(r);
	while (x >= limit);
	return (size_t)(x % bound);
}

static void
shuffle(size_t *v, size_t n, uint64_t seed)
{
	struct rng r;

	/* The "draw" constant keeps draw seeds apart from game seeds. */
	for (int i = 0; i < 4; i++)
		r.s[i] = format_mix(format_mix(seed, 0x64726177), (uint64_t)i);
	for (size_t i = n; i > 1; i--) {
		size_t j = rng_below(&r, i), t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

static bool
is_entrant(const size_t *entrants, size_t n, size_t e)
{
	for (size_t i = 0; i < n; i++)
		if (entrants[i] == e)
			return true;
	return false;
}

static int
given_groups(const struct spec *spec, size_t stage, const size_t *entrants,
    size_t n, struct plan_stage *ps)
{
	const struct spec_stage *s = &spec->stages[stage];
	size_t total = 0;

	ps->groups = xcalloc(s->ndraw, sizeof *ps->groups);
	ps->ngroups = s->ndraw;
	for (size_t g = 0; g < s->ndraw; g++) {
		struct plan_group *grp = &ps->groups[g];
		size_t k = 0;

		while (s->draw[g][k] != NULL)
			k++;
		grp->name = format_group_name(g);
		grp->members = xcalloc(k + 1, sizeof *grp->members);
		for (k = 0; s->draw[g][k] != NULL; k++) {
			int e = spec_entry_index(spec, s->draw[g][k]);

			if (e < 0 || !is_entrant(entrants, n, (size_t)e))
				return log_error("stage '%s': '%s' in the draw "
				    "is not an entrant", s->name,
				    s->draw[g][k]);
			grp->members[grp->nmembers++] = (size_t)e;
		}
		total += k;
	}
	if (total != n)
		return log_error("stage '%s': the draw has %zu entries for %zu "
		    "entrants", s->name, total, n);
	return 0;
}

static int
drawn_groups(const struct spec *spec, size_t stage, const size_t *entrants,
    size_t n, struct plan_stage *ps)
{
	const struct spec_stage *s = &spec->stages[stage];
	size_t ngroups, next = 0;
	size_t *order;

	ngroups = spec_stage_ngroups(spec, stage, n);
	if (n / ngroups < 2)
		return log_error("stage '%s': %zu entrants cannot make %zu "
		    "groups of at least 2", s->name, n, ngroups);
	order = xcalloc(n, sizeof *order);
	memcpy(order, entrants, n * sizeof *order);
	shuffle(order, n, format_mix(spec->seed, stage));
	ps->groups = xcalloc(ngroups, sizeof *ps->groups);
	ps->ngroups = ngroups;
	for (size_t g = 0; g < ngroups; g++) {
		struct plan_group *grp = &ps->groups[g];
		size_t size = spec_stage_group_size(spec, stage, n, g);

		grp->name = format_group_name(g);
		grp->members = xcalloc(size, sizeof *grp->members);
		grp->nmembers = size;
		memcpy(grp->members, order + next, size * sizeof *order);
		next += size;
	}
	free(order);
	return 0;
}

int
format_round_robin(const struct spec *spec, size_t stage,
    const size_t *entrants, size_t n, struct plan_stage *ps)
{
	int rc = spec->stages[stage].draw != NULL ?
	    given_groups(spec, stage, entrants, n, ps) :
	    drawn_groups(spec, stage, entrants, n, ps);

	if (rc == 0)
		format_round_robin_matches(spec, ps);
	return rc;
}
