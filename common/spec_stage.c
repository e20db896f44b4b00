/*
 * spec_stage: the shape of each stage (entrants, groups, matches) and
 * pass 3 of spec_load(), which checks it across stages: how groups are
 * formed, that every group can play, that advance fits. Stages are never
 * expanded here, so absurd numbers cost nothing.
 */
#include "common/spec.h"

#include <stdint.h>
#include <string.h>

#include "common/spec_node.h"


/* Only one way of forming groups, and none for a final. */
static bool
check_grouping(struct spec_loader *ld, size_t i)
{
	const struct spec_stage *s = &ld->spec->stages[i];
	const struct spec_marks *m = &ld->marks[i];
	const char *names[] = { "groups", "group_size", "draw" };
	bool given[] = { s->groups > 0, s->group_size > 0, s->draw != NULL };
	struct spec_pos pos[] = { m->groups, m->group_size, m->draw };
	const char *first = NULL;
	bool ok = true;

	for (size_t k = 0; k < 3; k++) {
		if (!given[k])
			continue;
		if (s->format != SPEC_ROUND_ROBIN) {
			spec_report(ld, pos[k], "'%s' does not apply to a "
			    "%s%s, which is one group of every entrant",
			    names[k], spec_format_name(s->format),
			    s->format == SPEC_FINAL ? "" : " stage");
			ok = false;
		} else if (first != NULL) {
			spec_report(ld, pos[k], "'%s' conflicts with '%s': "
			    "give one of 'groups', 'group_size' and 'draw'",
			    names[k], first);
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

/* Games one gauntlet match may have, so a typo cannot fill the database
 * (and a points table of that many values is already absurd). */
#define SPEC_MAX_GAMES 10000

/* Ranked entrants of a gauntlet stage of n: the first stage's are known
 * (every entry but the opponents); a later one's depend on results. */
static size_t
gauntlet_ranked(const struct spec *spec, size_t i, size_t n)
{
	size_t ranked = n;

	if (i > 0)
		return n;
	for (size_t e = 0; e < spec->nentries; e++)
		if (spec_is_opponent(spec, i, e))
			ranked--;
	return ranked;
}

/* A stage of one group: it cannot send on more than its n entrants
 * (what, e.g. " ranked", says which). */
static bool
advance_fits(struct spec_loader *ld, size_t i, size_t n, const char *what)
{
	const struct spec_stage *s = &ld->spec->stages[i];

	if (s->advance <= n)
		return true;
	spec_report(ld, ld->marks[i].advance, "'advance' %zu is larger than "
	    "the %zu%s entrants of stage '%s'", s->advance, n, what, s->name);
	return false;
}

static bool
check_gauntlet(struct spec_loader *ld, size_t i, size_t n)
{
	const struct spec_stage *s = &ld->spec->stages[i];
	size_t games = spec_gauntlet_games(ld->spec, i);
	size_t ranked = gauntlet_ranked(ld->spec, i, n);
	bool ok = true;

	/* games_per_side first: 2 * it * datasets could wrap. */
	if (s->games_per_side > SPEC_MAX_GAMES || games > SPEC_MAX_GAMES) {
		spec_report(ld, ld->marks[i].games_per_side, "stage '%s': "
		    "'games_per_side' %zu makes more than %d games per "
		    "opponent", s->name, s->games_per_side, SPEC_MAX_GAMES);
		return false;
	}
	for (size_t k = 0; k < s->nopponents; k++) {
		const struct spec_opponent *o = &s->opponents[k];

		if (o->points != NULL && o->npoints != games + 1) {
			spec_report(ld, o->points_pos, "'points' has %zu "
			    "values; it needs %zu, one for each number of "
			    "games lost from 0 to %zu (2 sides * %zu "
			    "games_per_side * %zu datasets)", o->npoints,
			    games + 1, games, s->games_per_side,
			    ld->spec->ndatasets);
			ok = false;
		}
	}
	if (ranked == 0) {
		spec_report(ld, s->pos, "gauntlet '%s' ranks nobody: every "
		    "entrant is an opponent", s->name);
		return false;
	}
	return advance_fits(ld, i, ranked, " ranked") && ok;
}

/* A bound on the games one stage may plan, so a typo cannot fill the
 * database: 6 of 40 entrants is already 3.8 million subsets. */
#define SPEC_MAX_MATCHES 1000000

static bool
check_combinations(struct spec_loader *ld, size_t i, size_t n)
{
	const struct spec_stage *s = &ld->spec->stages[i];
	size_t k = s->seats;

	if (n < 2) {
		spec_report(ld, s->pos, "too few entrants: stage '%s' has "
		    "%zu; combinations need at least 2", s->name, n);
		return false;
	}
	if (k > n) {
		spec_report(ld, s->seats_pos, "'seats' is %zu but stage '%s' "
		    "has only %zu entrants", k, s->name, n);
		return false;
	}
	if (k > 0 && spec_choose(n, k) > SPEC_MAX_MATCHES) {
		spec_report(ld, s->seats_pos, "stage '%s': %zu entrants in "
		    "subsets of %zu make more than %d matches", s->name, n, k,
		    SPEC_MAX_MATCHES);
		return false;
	}
	return advance_fits(ld, i, n, "");
}

static bool
check_all_vs_all(struct spec_loader *ld, size_t i, size_t n)
{
	const struct spec_stage *s = &ld->spec->stages[i];

	if (n < 2) {
		spec_report(ld, s->pos, "too few entrants: stage '%s' has "
		    "%zu; all_vs_all needs at least 2", s->name, n);
		return false;
	}
	/* repeat first: 2 * it * datasets could wrap. */
	if (s->repeat > SPEC_MAX_GAMES ||
	    spec_pair_games(ld->spec, i) > SPEC_MAX_GAMES) {
		spec_report(ld, ld->marks[i].repeat.line ? ld->marks[i].repeat :
		    s->pos, "stage '%s': 'repeat' "
		    "%zu makes more than %d games per pair", s->name,
		    s->repeat, SPEC_MAX_GAMES);
		return false;
	}
	if (spec_choose(n, 2) > SPEC_MAX_MATCHES) {
		spec_report(ld, s->pos, "stage '%s': %zu entrants make more "
		    "than %d pairs", s->name, n, SPEC_MAX_MATCHES);
		return false;
	}
	return advance_fits(ld, i, n, "");
}

/* Group sizes and advance for a stage of n entrants; false if wrong. */
static bool
check_sizes(struct spec_loader *ld, size_t i, size_t n)
{
	const struct spec_stage *s = &ld->spec->stages[i];
	const struct spec_marks *m = &ld->marks[i];
	size_t g = spec_stage_ngroups(ld->spec, i, n);
	size_t min = smallest_group(ld->spec, i, n);
	struct spec_pos pos = s->group_size > 0 ? m->group_size :
	    s->groups > 0 ? m->groups : s->pos;

	if (s->format == SPEC_GAUNTLET)
		return check_gauntlet(ld, i, n);
	if (s->format == SPEC_COMBINATIONS)
		return check_combinations(ld, i, n);
	if (s->format == SPEC_ALL_VS_ALL)
		return check_all_vs_all(ld, i, n);
	if (s->format == SPEC_FINAL && n < 2) {
		spec_report(ld, s->pos, "too few entrants: final '%s' has "
		    "%zu; a final needs at least 2", s->name, n);
		return false;
	}
	if (s->format == SPEC_ROUND_ROBIN && s->draw == NULL && min < 2) {
		if (g <= 1)
			spec_report(ld, pos, "too few entrants: stage '%s' "
			    "has %zu; a round-robin group needs at least 2",
			    s->name, n);
		else
			spec_report(ld, pos, "too few entrants: stage '%s' "
			    "puts %zu in %zu groups; a round-robin group needs "
			    "at least 2", s->name, n, g);
		return false;
	}
	if (s->advance > min) {
		spec_report(ld, m->advance, "'advance' %zu is larger than the "
		    "smallest group of stage '%s' (%zu entrants)", s->advance,
		    s->name, min);
		return false;
	}
	return true;
}

void
spec_stage_check(struct spec_loader *ld)
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
			spec_report(ld, ld->marks[i].advance, "'advance' on "
			    "the last stage '%s': there is no next stage",
			    s->name);
		if (i == 0 && s->format == SPEC_FINAL) {
			spec_report(ld, s->pos, "final '%s' is the first "
			    "stage: a final plays the advancers of a stage "
			    "before it",
			    s->name);
			known = false;
		} else if (i > 0 && ld->marks[i - 1].ok && prev->advance == 0) {
			spec_report(ld, s->pos, "%s '%s' has no entrants: "
			    "stage '%s' before it has no 'advance'",
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

size_t
spec_stage_ngroups(const struct spec *spec, size_t stage, size_t nentrants)
{
	const struct spec_stage *s = &spec->stages[stage];

	if (s->format != SPEC_ROUND_ROBIN)
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
	if (s->format == SPEC_GAUNTLET)
		return gauntlet_ranked(spec, stage, nentrants);
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
	const struct spec_stage *s = &spec->stages[stage];
	size_t n = spec_stage_entrants(spec, stage), total = 0;
	size_t g = spec_stage_ngroups(spec, stage, n);

	if (s->format == SPEC_GAUNTLET)
		return gauntlet_ranked(spec, stage, n) * s->nopponents;
	if (s->format == SPEC_COMBINATIONS)
		return s->seats > 0 ? spec_choose(n, s->seats) : 0;
	if (s->format == SPEC_ALL_VS_ALL)
		return spec_choose(n, 2);

	for (size_t k = 0; k < g; k++) {
		size_t size = spec_stage_group_size(spec, stage, n, k);

		total += size * (size - (size > 0)) / 2;
	}
	return total;
}

size_t
spec_gauntlet_games(const struct spec *spec, size_t stage)
{
	return 2 * spec->stages[stage].games_per_side * spec->ndatasets;
}

size_t
spec_pair_games(const struct spec *spec, size_t stage)
{
	return 2 * spec->stages[stage].repeat * spec->ndatasets;
}

bool
spec_is_opponent(const struct spec *spec, size_t stage, size_t e)
{
	const struct spec_stage *s = &spec->stages[stage];

	if (s->format != SPEC_GAUNTLET || e >= spec->nentries)
		return false;
	for (size_t k = 0; k < s->nopponents; k++)
		if (s->opponents[k].entry != NULL &&
		    strcmp(s->opponents[k].entry, spec->entries[e].name) == 0)
			return true;
	return false;
}

size_t
spec_choose(size_t n, size_t k)
{
	size_t r = 1;

	if (k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	/* Exact: r is C(n, i), and C(n, i) * (n - i) is
	 * C(n, i + 1) * (i + 1). */
	for (size_t i = 0; i < k; i++) {
		if (r > SIZE_MAX / (n - i))
			return SIZE_MAX;
		r = r * (n - i) / (i + 1);
	}
	return r;
}
