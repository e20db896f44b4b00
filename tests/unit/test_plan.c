/*
 * Unit tests for coordinator/plan: group sizes, each pair once per group
 * with the earlier drawn first, rounds where nobody plays twice, every
 * dataset twice per match with each side first once, determinism (same
 * seed same plan, another seed another draw), given draws, finals,
 * entrant counts, and the printed plan (text and JSON) byte for byte
 * stable. Specs come from tests/data/spec/.
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
			size_t a = position(grp, pm->a);
			size_t b = position(grp, pm->b);

			assert_int_equal(pm->group, g);
			assert_true(a < b);
			assert_int_equal(met[a][b], 0);
			met[a][b] = 1;
			/* Circle method: within one round, nobody twice. */
			for (size_t j = m - k % per_round; j < m; j++) {
				assert_int_not_equal(ps->matches[j].a, pm->a);
				assert_int_not_equal(ps->matches[j].b, pm->a);
				assert_int_not_equal(ps->matches[j].a, pm->b);
				assert_int_not_equal(ps->matches[j].b, pm->b);
			}
			assert_int_equal(pm->ngames, 2 * spec->ndatasets);
			for (size_t d = 0; d < spec->ndatasets; d++) {
				const struct plan_game *x = &pm->games[2 * d];
				const struct plan_game *y;

				y = &pm->games[2 * d + 1];

				assert_int_equal(x->dataset, d);
				assert_int_equal(y->dataset, d);
				assert_int_equal(x->first, pm->a);
				assert_int_equal(x->second, pm->b);
				assert_int_equal(y->first, pm->b);
				assert_int_equal(y->second, pm->a);
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

		if (a->a != b->a || a->b != b->b || a->group != b->group ||
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
	assert_int_equal(ps->matches[0].a, 4);
	assert_int_equal(ps->matches[0].b, 0);
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
