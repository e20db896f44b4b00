/*
 * Unit tests for coordinator/plan: group sizes, each pair once per group
 * with the earlier drawn first, rounds where nobody plays twice, every
 * dataset twice per match with each side first once, determinism (same
 * seed same plan, another seed another draw), given draws, finals,
 * entrant counts, and the printed plan (text and JSON) byte for byte
 * stable; gauntlet, combinations and all_vs_all expansions, game by
 * game. Specs come
 * from tests/data/spec/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/spec.h"
#include "coordinator/format.h"
#include "coordinator/plan.h"

static struct spec *
load_spec(const char *name)
{
	const char *src = getenv("ARENA_SOURCE_DIR");
	struct spec *spec;
	char *path;

	assert_non_null(src);
	path = xasprintf("%s/tests/data/spec/%s", src, name);
	assert_int_equal(spec_load(path, stderr, &spec), 0);
	free(path);
	return spec;
}

static struct plan_stage *
expand_all(const struct spec *spec)
{
	size_t *all = xcalloc(spec->nentries, sizeof *all);
	struct plan_stage *ps;

	for (size_t i = 0; i < spec->nentries; i++)
		all[i] = i;
	assert_int_equal(plan_expand(spec, 0, all, spec->nentries, &ps), 0);
	free(all);
	return ps;
}

static size_t
position(const struct plan_group *g, size_t entry)
{
	for (size_t k = 0; k < g->nmembers; k++)
		if (g->members[k] == entry)
			return k;
	fail_msg("entry %zu is not in group %s", entry, g->name);
	return 0;
}

/* Pairs, rounds and games of every group of an expanded stage. */
static void
check_round_robin(const struct spec *spec, const struct plan_stage *ps)
{
	size_t m = 0;

	for (size_t g = 0; g < ps->ngroups; g++) {
		const struct plan_group *grp = &ps->groups[g];
		size_t n = grp->nmembers, per_round = n / 2;
		unsigned char met[64][64] = { { 0 } };

		assert_true(n >= 2 && n <= 64);
		for (size_t k = 0; k < n * (n - 1) / 2; k++, m++) {
			const struct plan_match *pm = &ps->matches[m];
			size_t a = position(grp, pm->entries[0]);
			size_t b = position(grp, pm->entries[1]);

			assert_int_equal(pm->group, g);
			assert_int_equal(pm->nentries, 2);
			assert_true(a < b);
			assert_int_equal(met[a][b], 0);
			met[a][b] = 1;
			/* Circle method: within one round, nobody twice. */
			for (size_t j = m - k % per_round; j < m; j++) {
				const size_t *o = ps->matches[j].entries;

				assert_int_not_equal(o[0], pm->entries[0]);
				assert_int_not_equal(o[1], pm->entries[0]);
				assert_int_not_equal(o[0], pm->entries[1]);
				assert_int_not_equal(o[1], pm->entries[1]);
			}
			assert_int_equal(pm->ngames, 2 * spec->ndatasets);
			for (size_t d = 0; d < spec->ndatasets; d++) {
				const struct plan_game *x = &pm->games[2 * d];
				const struct plan_game *y;

				y = &pm->games[2 * d + 1];

				assert_int_equal(x->dataset, d);
				assert_int_equal(y->dataset, d);
				assert_int_equal(x->nseats, 2);
				assert_int_equal(y->nseats, 2);
				assert_int_equal(x->seats[0], pm->entries[0]);
				assert_int_equal(x->seats[1], pm->entries[1]);
				assert_int_equal(y->seats[0], pm->entries[1]);
				assert_int_equal(y->seats[1], pm->entries[0]);
			}
		}
	}
	assert_int_equal(m, ps->nmatches);
}

static void
test_groups(void **state)
{
	struct spec *spec = load_spec("group-size.yaml");
	struct plan_stage *ps = expand_all(spec);
	int seen[11] = { 0 };

	(void)state;
	assert_int_equal(ps->stage, 0);
	assert_int_equal(ps->ngroups, 3);
	assert_string_equal(ps->groups[0].name, "A");
	assert_string_equal(ps->groups[2].name, "C");
	assert_int_equal(ps->groups[0].nmembers, 4);
	assert_int_equal(ps->groups[1].nmembers, 4);
	assert_int_equal(ps->groups[2].nmembers, 3);
	for (size_t g = 0; g < 3; g++)
		for (size_t k = 0; k < ps->groups[g].nmembers; k++)
			seen[ps->groups[g].members[k]]++;
	for (size_t e = 0; e < 11; e++)
		assert_int_equal(seen[e], 1);
	assert_int_equal(ps->nmatches, 6 + 6 + 3);
	check_round_robin(spec, ps);
	plan_stage_free(ps);
	spec_free(spec);
}

static void
test_valid_two_datasets(void **state)
{
	struct spec *spec = load_spec("valid.yaml");
	struct plan_stage *ps = expand_all(spec);
	uint64_t seeds[12 * 4];
	size_t n = 0;

	(void)state;
	assert_int_equal(ps->ngroups, 2);
	assert_int_equal(ps->nmatches, 12);
	check_round_robin(spec, ps);
	/* Seeds differ from game to game and stay JSON-safe. */
	for (size_t m = 0; m < ps->nmatches; m++)
		for (size_t k = 0; k < ps->matches[m].ngames; k++)
			seeds[n++] = ps->matches[m].games[k].seed;
	assert_int_equal(n, 48);
	for (size_t i = 0; i < n; i++) {
		assert_true(seeds[i] < (UINT64_C(1) << 53));
		for (size_t j = 0; j < i; j++)
			assert_true(seeds[i] != seeds[j]);
	}
	plan_stage_free(ps);
	spec_free(spec);
}

static bool
same_stage(const struct plan_stage *x, const struct plan_stage *y)
{
	if (x->ngroups != y->ngroups || x->nmatches != y->nmatches)
		return false;
	for (size_t g = 0; g < x->ngroups; g++) {
		if (x->groups[g].nmembers != y->groups[g].nmembers ||
		    memcmp(x->groups[g].members, y->groups[g].members,
		    x->groups[g].nmembers * sizeof(size_t)) != 0)
			return false;
	}
	for (size_t m = 0; m < x->nmatches; m++) {
		const struct plan_match *a = &x->matches[m];
		const struct plan_match *b = &y->matches[m];

		if (a->nentries != b->nentries ||
		    memcmp(a->entries, b->entries, sizeof a->entries) != 0 ||
		    a->group != b->group ||
		    a->ngames != b->ngames ||
		    memcmp(a->games, b->games, a->ngames * sizeof *a->games))
			return false;
	}
	return true;
}

static void
test_deterministic(void **state)
{
	struct spec *spec = load_spec("valid.yaml");
	struct plan_stage *x = expand_all(spec), *y = expand_all(spec), *z;

	(void)state;
	assert_true(same_stage(x, y));
	spec->seed = 2013;
	z = expand_all(spec);
	assert_false(same_stage(x, z));
	/* Another draw, not just other game seeds. */
	assert_true(memcmp(x->groups[0].members, z->groups[0].members,
	    4 * sizeof(size_t)) != 0 || memcmp(x->groups[1].members,
	    z->groups[1].members, 4 * sizeof(size_t)) != 0);
	plan_stage_free(x);
	plan_stage_free(y);
	plan_stage_free(z);
	spec_free(spec);
}

static void
test_given_draw(void **state)
{
	struct spec *spec = load_spec("draw.yaml");
	struct plan_stage *ps = expand_all(spec);
	size_t wrong[] = { 0, 1, 2, 3 };

	(void)state;
	assert_int_equal(ps->ngroups, 2);
	assert_int_equal(ps->groups[0].nmembers, 2);
	assert_int_equal(ps->groups[0].members[0], 4);	/* e */
	assert_int_equal(ps->groups[0].members[1], 0);	/* a */
	assert_int_equal(ps->groups[1].nmembers, 3);
	assert_int_equal(ps->groups[1].members[0], 2);	/* c */
	assert_int_equal(ps->groups[1].members[1], 3);	/* d */
	assert_int_equal(ps->groups[1].members[2], 1);	/* b */
	assert_int_equal(ps->matches[0].entries[0], 4);
	assert_int_equal(ps->matches[0].entries[1], 0);
	assert_int_equal(ps->nmatches, 1 + 3);
	check_round_robin(spec, ps);
	plan_stage_free(ps);
	/* A draw naming someone who is not an entrant cannot be expanded. */
	assert_int_equal(plan_expand(spec, 0, wrong, 4, &ps), -1);
	assert_null(ps);
	spec_free(spec);
}

static void
test_final(void **state)
{
	struct spec *spec = load_spec("valid.yaml");
	size_t advancers[] = { 6, 2, 0, 5 };
	struct plan_stage *ps;

	(void)state;
	assert_int_equal(plan_stage_entrants(spec, 0), 8);
	assert_int_equal(plan_stage_entrants(spec, 1), 4);
	assert_int_equal(plan_expand(spec, 1, advancers, 4, &ps), 0);
	assert_int_equal(ps->stage, 1);
	assert_int_equal(ps->ngroups, 1);
	assert_string_equal(ps->groups[0].name, "A");
	assert_memory_equal(ps->groups[0].members, advancers,
	    sizeof advancers);
	assert_int_equal(ps->nmatches, 6);
	check_round_robin(spec, ps);
	plan_stage_free(ps);
	assert_int_equal(plan_expand(spec, 1, advancers, 1, &ps), -1);
	assert_int_equal(plan_expand(spec, 2, advancers, 4, &ps), -1);
	spec_free(spec);
}

static void
test_group_names(void **state)
{
	static const struct {
		size_t index;
		const char *name;
	} cases[] = { { 0, "A" }, { 25, "Z" }, { 26, "AA" }, { 27, "AB" },
	    { 701, "ZZ" }, { 702, "AAA" } };

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *name = format_group_name(cases[i].index);

		assert_string_equal(name, cases[i].name);
		free(name);
	}
}

static char *
print(const struct spec *spec, bool json)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	assert_int_equal(json ? plan_print_json(spec, out) :
	    plan_print(spec, out), 0);
	fclose(out);
	return text;
}

static void
test_print(void **state)
{
	struct spec *spec = load_spec("valid.yaml");
	char *a = print(spec, false), *b = print(spec, false);
	char *j = print(spec, true), *k = print(spec, true);

	(void)state;
	assert_string_equal(a, b);
	assert_string_equal(j, k);
	assert_non_null(strstr(a, "tournament 'Test Cup 2012', game testgame, "
	    "seed 2012\ndatasets: small.dc, big.dc\n"));
	assert_non_null(strstr(a, "\nstage 'groups' (round_robin): 8 "
	    "entrants, 2 groups, top 2 advance, 12 matches, 48 games\n"
	    "  group A: "));
	assert_non_null(strstr(a, "\nstage 'final' (final): entrants: top 2 "
	    "of each group of 'groups' (4 entrants), 6 matches, 24 games; "
	    "expanded when 'groups' is done\n"));
	assert_non_null(strstr(a, "\n    game 48: big.dc, A "));
	assert_null(strstr(a, "game 49"));
	assert_non_null(strstr(j, "\"name\": \"final\", \"format\": "
	    "\"final\", \"entrants\": 4, \"ngroups\": 1, \"advance\": 0, "
	    "\"nmatches\": 6, \"ngames\": 24, \"expanded\": false"));
	assert_non_null(strstr(j, "{\"game\": 48, \"dataset\": \"big.dc\""));
	free(a);
	free(b);
	free(j);
	free(k);
	spec_free(spec);
}

static void
test_json_escapes(void **state)
{
	struct spec *spec = load_spec("quoted.yaml");
	char *j = print(spec, true);

	(void)state;
	assert_non_null(strstr(j, "{\"tournament\": \"Cup \\\"2012\\\" \\\\ "
	    "tab\\there, na\xc3\xafve\",\n"));
	free(j);
	spec_free(spec);
}

/* Entries (spec order): ai1 p q ai2 r; opponents ai1 (weight) and ai2
 * (points); games_per_side 2 and 2 datasets: 8 games per opponent. */
static void
test_gauntlet(void **state)
{
	struct spec *spec = load_spec("gauntlet.yaml");
	struct plan_stage *ps = expand_all(spec), *again = expand_all(spec);
	const size_t ranked[] = { 1, 2, 4 }, opp[] = { 0, 3 };
	size_t advancers[] = { 4, 1 }, nmatches, ngames;
	struct plan_stage *fin;

	(void)state;
	assert_true(same_stage(ps, again));
	assert_int_equal(ps->ngroups, 1);
	assert_int_equal(ps->groups[0].nmembers, 3);
	assert_memory_equal(ps->groups[0].members, ranked, sizeof ranked);
	/* 3 ranked * 2 opponents, each match 2 sides * 2 * 2 datasets. */
	assert_int_equal(ps->nmatches, 6);
	plan_stage_size(spec, 0, &nmatches, &ngames);
	assert_int_equal(nmatches, 6);
	assert_int_equal(ngames, 48);
	for (size_t m = 0; m < 6; m++) {
		const struct plan_match *pm = &ps->matches[m];

		assert_int_equal(pm->group, 0);
		assert_int_equal(pm->nentries, 2);
		assert_int_equal(pm->entries[0], ranked[m / 2]);
		assert_int_equal(pm->entries[1], opp[m % 2]);
		assert_int_equal(pm->ngames, 8);
		/* Games 0-3 small.dc, 4-7 big.dc; the entrant first in
		 * the even games, the opponent in the odd ones. */
		for (size_t k = 0; k < 8; k++) {
			const struct plan_game *g = &pm->games[k];

			assert_int_equal(g->dataset, k / 4);
			assert_int_equal(g->nseats, 2);
			assert_int_equal(g->seats[0], pm->entries[k % 2]);
			assert_int_equal(g->seats[1], pm->entries[1 - k % 2]);
			assert_true(g->seed < (UINT64_C(1) << 53));
		}
	}
	/* The final is a round-robin of the advancers. */
	assert_int_equal(plan_expand(spec, 1, advancers, 2, &fin), 0);
	assert_int_equal(fin->nmatches, 1);
	assert_int_equal(fin->matches[0].entries[0], 4);
	plan_stage_free(fin);
	/* Opponents among later entrants are not ranked. */
	advancers[1] = 3;
	spec->stages[1].format = SPEC_GAUNTLET;
	spec->stages[1].opponents = spec->stages[0].opponents;
	spec->stages[1].nopponents = 2;
	spec->stages[1].games_per_side = 1;
	assert_int_equal(plan_expand(spec, 1, advancers, 2, &fin), 0);
	assert_int_equal(fin->groups[0].nmembers, 1);
	assert_int_equal(fin->groups[0].members[0], 4);
	assert_int_equal(fin->nmatches, 2);
	assert_int_equal(fin->matches[0].ngames, 4);
	plan_stage_free(fin);
	advancers[0] = 0;
	assert_int_equal(plan_expand(spec, 1, advancers, 2, &fin), -1);
	spec->stages[1].opponents = NULL;
	spec->stages[1].nopponents = 0;
	plan_stage_free(ps);
	plan_stage_free(again);
	spec_free(spec);
}

/* Is the k-subset sub (entry indexes) seated in g, rotated by r? */
static void
check_rotation(const struct plan_game *g, const size_t *sub, size_t k,
    size_t r)
{
	assert_int_equal(g->nseats, k);
	for (size_t i = 0; i < k; i++)
		assert_int_equal(g->seats[i], sub[(i + r) % k]);
}

/* 6 entries a..f, k = 4, 2 datasets: C(6, 4) = 15 subsets, with rotation
 * 4 games per dataset (15 * 4 * 2 = 120), without 1 (15 * 2 = 30). */
static void
test_combinations(void **state)
{
	struct spec *spec = load_spec("combinations.yaml");
	struct plan_stage *ps = expand_all(spec), *again = expand_all(spec);
	unsigned seen[64] = { 0 }, seat_count[6][4] = { { 0 } };
	size_t total = 0, nmatches, ngames;

	(void)state;
	assert_true(same_stage(ps, again));
	assert_int_equal(ps->ngroups, 1);
	assert_int_equal(ps->groups[0].nmembers, 6);
	assert_int_equal(ps->nmatches, 15);
	plan_stage_size(spec, 0, &nmatches, &ngames);
	assert_int_equal(nmatches, 15);
	assert_int_equal(ngames, 120);
	/* Lexicographic: first {a,b,c,d}, then {a,b,c,e}, last {c,d,e,f}. */
	assert_int_equal(ps->matches[0].entries[3], 3);
	assert_int_equal(ps->matches[1].entries[3], 4);
	assert_int_equal(ps->matches[14].entries[0], 2);
	for (size_t m = 0; m < 15; m++) {
		const struct plan_match *pm = &ps->matches[m];
		unsigned mask = 0;

		assert_int_equal(pm->nentries, 4);
		assert_int_equal(pm->ngames, 8);
		for (size_t i = 0; i < 4; i++)
			mask |= 1u << pm->entries[i];
		assert_int_equal(__builtin_popcount(mask), 4);
		seen[mask]++;
		for (size_t k = 0; k < 8; k++) {
			const struct plan_game *g = &pm->games[k];

			assert_int_equal(g->dataset, k / 4);
			check_rotation(g, pm->entries, 4, k % 4);
			for (size_t i = 0; i < 4; i++)
				seat_count[g->seats[i]][i]++;
			total++;
		}
	}
	assert_int_equal(total, 120);
	for (unsigned mask = 0; mask < 64; mask++)
		assert_int_equal(seen[mask], __builtin_popcount(mask) == 4);
	/* Each entry is in C(5, 3) = 10 subsets, each seat once per
	 * rotation and dataset: 20 games in every seat. */
	for (size_t e = 0; e < 6; e++)
		for (size_t i = 0; i < 4; i++)
			assert_int_equal(seat_count[e][i], 20);
	plan_stage_free(ps);
	plan_stage_free(again);

	spec->stages[0].rotation = false;
	ps = expand_all(spec);
	assert_int_equal(ps->nmatches, 15);
	plan_stage_size(spec, 0, &nmatches, &ngames);
	assert_int_equal(ngames, 30);
	for (size_t m = 0; m < 15; m++) {
		assert_int_equal(ps->matches[m].ngames, 2);
		check_rotation(&ps->matches[m].games[0],
		    ps->matches[m].entries, 4, 0);
		check_rotation(&ps->matches[m].games[1],
		    ps->matches[m].entries, 4, 0);
		assert_int_equal(ps->matches[m].games[1].dataset, 1);
	}
	plan_stage_free(ps);
	/* k = 2 is a single round of pairs: C(6, 2) = 15 again. */
	spec->stages[0].seats = 2;
	ps = expand_all(spec);
	assert_int_equal(ps->nmatches, 15);
	plan_stage_free(ps);
	spec->stages[0].seats = 7;
	{
		size_t all[] = { 0, 1, 2, 3, 4, 5 };

		assert_int_equal(plan_expand(spec, 0, all, 6, &ps), -1);
	}
	spec_free(spec);
}

/* 4 entries a..d, 2 datasets, repeat 3: C(4, 2) = 6 pairs, each
 * 2 * 3 * 2 = 12 games: per dataset 3 repetitions, each first once. */
static void
test_all_vs_all(void **state)
{
	struct spec *spec = load_spec("all-vs-all.yaml");
	struct plan_stage *ps = expand_all(spec), *again = expand_all(spec);
	unsigned met[4][4] = { { 0 } }, first[4][4][2] = { { { 0 } } };
	uint64_t seeds[72];
	size_t nseeds = 0, nmatches, ngames;

	(void)state;
	assert_true(same_stage(ps, again));
	assert_int_equal(ps->ngroups, 1);
	assert_int_equal(ps->groups[0].nmembers, 4);
	assert_int_equal(ps->nmatches, 6);
	plan_stage_size(spec, 0, &nmatches, &ngames);
	assert_int_equal(nmatches, 6);
	assert_int_equal(ngames, 72);
	/* Pairs in order of positions: ab, ac, ad, bc, bd, cd. */
	assert_int_equal(ps->matches[0].entries[1], 1);
	assert_int_equal(ps->matches[2].entries[1], 3);
	assert_int_equal(ps->matches[3].entries[0], 1);
	assert_int_equal(ps->matches[5].entries[0], 2);
	for (size_t m = 0; m < 6; m++) {
		const struct plan_match *pm = &ps->matches[m];
		size_t x = pm->entries[0], y = pm->entries[1];

		assert_int_equal(pm->nentries, 2);
		assert_true(x < y);
		met[x][y]++;
		assert_int_equal(pm->ngames, 12);
		for (size_t k = 0; k < 12; k++) {
			const struct plan_game *g = &pm->games[k];

			assert_int_equal(g->nseats, 2);
			assert_int_equal(g->dataset, k / 6);
			assert_int_equal(g->seats[0], k % 2 ? y : x);
			assert_int_equal(g->seats[1], k % 2 ? x : y);
			first[x][y][g->dataset] += g->seats[0] == x;
			for (size_t i = 0; i < nseeds; i++)
				assert_true(seeds[i] != g->seed);
			seeds[nseeds++] = g->seed;
		}
	}
	for (size_t x = 0; x < 4; x++)
		for (size_t y = 0; y < 4; y++) {
			assert_int_equal(met[x][y], x < y);
			/* Each first 3 times on each dataset. */
			for (size_t d = 0; d < 2; d++)
				assert_int_equal(first[x][y][d], x < y ? 3 : 0);
		}
	plan_stage_free(ps);
	plan_stage_free(again);
	/* Another seed, other seeds; the same pairs and sides. */
	spec->seed++;
	ps = expand_all(spec);
	assert_int_equal(ps->nmatches, 6);
	assert_true(ps->matches[0].games[0].seed != seeds[0]);
	assert_int_equal(ps->matches[0].games[1].seats[0], 1);
	plan_stage_free(ps);
	spec->stages[0].repeat = 1;
	ps = expand_all(spec);
	plan_stage_size(spec, 0, &nmatches, &ngames);
	assert_int_equal(ngames, 24);
	assert_int_equal(ps->matches[5].ngames, 4);
	assert_int_equal(ps->matches[5].games[2].dataset, 1);
	assert_int_equal(ps->matches[5].games[3].seats[0], 3);
	plan_stage_free(ps);
	{
		size_t one[] = { 2 };

		assert_int_equal(plan_expand(spec, 0, one, 1, &ps), -1);
	}
	spec_free(spec);
}

static void
test_print_formats(void **state)
{
	struct spec *g = load_spec("gauntlet.yaml");
	struct spec *c = load_spec("combinations.yaml");
	char *a = print(g, false), *b = print(c, false), *j = print(c, true);

	(void)state;
	assert_non_null(strstr(a, "\nstage 'evaluation' (gauntlet): 5 "
	    "entrants, opponents ai1, ai2, top 2 advance, 6 matches, 48 "
	    "games\n"));
	assert_non_null(strstr(a, "  match 1, group A: p vs ai1\n"
	    "    game 1: small.dc, A p, B ai1, seed "));
	assert_non_null(strstr(a, "\n    game 2: small.dc, A ai1, B p, "));
	assert_non_null(strstr(b, "\nstage 'koth' (combinations): 6 "
	    "entrants, 4 seats, rotated, 15 matches, 120 games\n"));
	assert_non_null(strstr(b, "  match 1, group A: a vs b vs c vs d\n"
	    "    game 1: small.dc, A a, B b, C c, D d, seed "));
	assert_non_null(strstr(b, "\n    game 2: small.dc, A b, B c, C d, "
	    "D a, seed "));
	assert_non_null(strstr(j, "\"entries\": [\"a\", \"b\", \"c\", "
	    "\"d\"]"));
	assert_non_null(strstr(j, "\"seats\": [\"b\", \"c\", \"d\", "
	    "\"a\"]"));
	free(a);
	free(b);
	free(j);
	spec_free(g);
	spec_free(c);
	c = load_spec("all-vs-all.yaml");
	b = print(c, false);
	j = print(c, true);
	assert_non_null(strstr(b, "\nstage 'ranking' (all_vs_all): 4 "
	    "entrants, every pair 3 times per dataset and side, top 2 "
	    "advance, 6 matches, 72 games\n"));
	assert_non_null(strstr(b, "  match 1, group A: a vs b\n"
	    "    game 1: small.dc, A a, B b, seed "));
	assert_non_null(strstr(b, "\n    game 2: small.dc, A b, B a, "));
	assert_non_null(strstr(b, "\n    game 7: big.dc, A a, B b, "));
	assert_non_null(strstr(j, "\"format\": \"all_vs_all\", "));
	assert_non_null(strstr(j, "\"repeat\": 3"));
	assert_non_null(strstr(b, "\ndatasets: small.dc, big.dc\n"
	    "spare datasets (for undecided games): spare.dc\nentries: a, "));
	assert_non_null(strstr(j, "\"datasets\": [\"small.dc\", "
	    "\"big.dc\"],\n \"spare_datasets\": [\"spare.dc\"],\n "
	    "\"entries\": "));
	free(b);
	free(j);
	spec_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_valid_two_datasets),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_given_draw),
		cmocka_unit_test(test_final),
		cmocka_unit_test(test_group_names),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_json_escapes),
		cmocka_unit_test(test_gauntlet),
		cmocka_unit_test(test_combinations),
		cmocka_unit_test(test_all_vs_all),
		cmocka_unit_test(test_print_formats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
