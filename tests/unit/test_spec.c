/*
 * Unit tests for common/spec: a full spec read field by field, defaults,
 * paths resolved against the spec's folder wherever the caller stands,
 * and every kind of problem with its exact position and wording
 * (fixtures in tests/data/spec/bad/). A last test loads every prefix of a
 * valid spec: spec_load must answer each without crashing, printing
 * problems exactly when it fails.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/spec.h"

static char *
fixture(const char *name)
{
	const char *src = getenv("ARENA_SOURCE_DIR");

	assert_non_null(src);
	return xasprintf("%s/tests/data/spec/%s", src, name);
}

static char *
real(const char *name)
{
	char *path = fixture(name), *r = realpath(path, NULL);

	assert_non_null(r);
	free(path);
	return r;
}

/* Loads path; returns what was printed to the error stream. */
static char *
load(const char *path, struct spec **spec, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *errors = open_memstream(&text, &len);

	assert_non_null(errors);
	*rc = spec_load(path, errors, spec);
	fclose(errors);
	return text;
}

static struct spec *
load_good(const char *name)
{
	char *path = fixture(name), *errors;
	struct spec *spec;
	int rc;

	errors = load(path, &spec, &rc);
	assert_string_equal(errors, "");
	assert_int_equal(rc, 0);
	assert_non_null(spec);
	free(errors);
	free(path);
	return spec;
}

static void
test_valid(void **state)
{
	struct spec *spec = load_good("valid.yaml");
	char *dir = real(""), *small = real("data/small.dc");
	char *big = real("data/big.dc"), *bots = real("bots");
	static const char *const names[] = { "alpha", "beta", "gamma.2",
	    "delta_x", "eps-1", "zeta", "eta", "theta" };

	(void)state;
	assert_string_equal(spec->dir, dir);
	assert_string_equal(spec->name, "Test Cup 2012");
	assert_string_equal(spec->game, "testgame");
	assert_int_equal(spec->game_pos.line, 3);
	assert_int_equal(spec->game_pos.col, 7);
	assert_int_equal(spec->seed, 2012);
	assert_int_equal(spec->ndatasets, 2);
	assert_string_equal(spec->datasets[0].name, "small.dc");
	assert_string_equal(spec->datasets[0].path, small);
	assert_int_equal(spec->datasets[0].pos.line, 6);
	assert_int_equal(spec->datasets[0].pos.col, 5);
	assert_string_equal(spec->datasets[1].name, "big.dc");
	assert_string_equal(spec->datasets[1].path, big);
	assert_int_equal(spec->nentries, 8);
	for (size_t i = 0; i < 8; i++) {
		assert_string_equal(spec->entries[i].name, names[i]);
		assert_string_equal(spec->entries[i].folder, bots);
		assert_int_equal(spec_entry_index(spec, names[i]), (int)i);
	}
	assert_int_equal(spec->entries[0].pos.line, 9);
	assert_int_equal(spec->entries[0].pos.col, 5);
	assert_string_equal(spec->entries[0].build, "cc -O2 -o alpha alpha.c");
	assert_string_equal(spec->entries[0].run, "./alpha");
	assert_null(spec->entries[1].build);
	assert_string_equal(spec->entries[1].run, "./beta --fast");
	assert_int_equal(spec->limits.call_ms, 500);
	assert_int_equal(spec->limits.game_ms, 20000);
	assert_int_equal(spec->limits.memory_mb, 1024);
	assert_int_equal(spec->limits.resident_mb, 128);
	assert_int_equal(spec->limits.clock, SPEC_CLOCK_CPU);
	assert_true(spec->limits.ponder);
	assert_int_equal(spec->nstages, 2);
	assert_string_equal(spec->stages[0].name, "groups");
	assert_int_equal(spec->stages[0].format, SPEC_ROUND_ROBIN);
	assert_int_equal(spec->stages[0].groups, 2);
	assert_int_equal(spec->stages[0].group_size, 0);
	assert_null(spec->stages[0].draw);
	assert_int_equal(spec->stages[0].advance, 2);
	assert_string_equal(spec->stages[1].name, "final");
	assert_int_equal(spec->stages[1].format, SPEC_FINAL);
	assert_int_equal(spec->stages[1].advance, 0);
	assert_int_equal(spec_stage_index(spec, "final"), 1);
	assert_int_equal(spec_stage_index(spec, "nope"), -1);
	assert_int_equal(spec_entry_index(spec, "nope"), -1);
	assert_int_equal(spec_stage_entrants(spec, 0), 8);
	assert_int_equal(spec_stage_entrants(spec, 1), 4);
	assert_int_equal(spec_stage_ngroups(spec, 0, 8), 2);
	assert_int_equal(spec_stage_matches(spec, 0), 12);
	assert_int_equal(spec_stage_matches(spec, 1), 6);
	assert_string_equal(spec_format_name(SPEC_FINAL), "final");
	spec_free(spec);
	free(dir);
	free(small);
	free(big);
	free(bots);
}

static void
test_defaults(void **state)
{
	struct spec *spec = load_good("defaults.yaml");

	(void)state;
	assert_string_equal(spec->name, "Defaults");
	assert_int_equal(spec->seed, 0);
	assert_int_equal(spec->limits.call_ms, 1000);
	assert_int_equal(spec->limits.game_ms, 30000);
	assert_int_equal(spec->limits.memory_mb, 512);
	assert_int_equal(spec->limits.resident_mb, 256);
	assert_int_equal(spec->limits.clock, SPEC_CLOCK_WALL);
	assert_false(spec->limits.ponder);
	assert_int_equal(spec->ndatasets, 1);
	assert_int_equal(spec->nentries, 3);
	assert_null(spec->entries[2].build);
	assert_int_equal(spec->stages[0].advance, 0);
	assert_int_equal(spec->stages[0].groups, 0);
	assert_int_equal(spec_stage_ngroups(spec, 0, 3), 1);
	assert_int_equal(spec_stage_matches(spec, 0), 3);
	spec_free(spec);
}

static void
test_draw_and_sizes(void **state)
{
	struct spec *spec = load_good("draw.yaml");
	const struct spec_stage *s = &spec->stages[0];

	(void)state;
	assert_int_equal(s->ndraw, 2);
	assert_string_equal(s->draw[0][0], "e");
	assert_string_equal(s->draw[0][1], "a");
	assert_null(s->draw[0][2]);
	assert_string_equal(s->draw[1][2], "b");
	assert_null(s->draw[1][3]);
	assert_int_equal(spec_stage_group_size(spec, 0, 5, 1), 3);
	assert_int_equal(spec_stage_entrants(spec, 1), 2);
	spec_free(spec);

	/* 11 in groups of at most 4: 4, 4, 3; top 3 of each: 9 in 3. */
	spec = load_good("group-size.yaml");
	assert_int_equal(spec_stage_ngroups(spec, 0, 11), 3);
	assert_int_equal(spec_stage_group_size(spec, 0, 11, 0), 4);
	assert_int_equal(spec_stage_group_size(spec, 0, 11, 1), 4);
	assert_int_equal(spec_stage_group_size(spec, 0, 11, 2), 3);
	assert_int_equal(spec_stage_matches(spec, 0), 15);
	assert_int_equal(spec_stage_entrants(spec, 1), 9);
	assert_int_equal(spec_stage_entrants(spec, 2), 3);
	assert_int_equal(spec_stage_matches(spec, 2), 3);
	spec_free(spec);
}

/* A relative spec path: files are found next to the spec, not in the
 * current folder. */
static void
test_relative_path(void **state)
{
	char *dir = real(""), *bots = real("bots"), *cwd, *errors;
	struct spec *spec;
	int rc;

	(void)state;
	cwd = getcwd(NULL, 0);
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(chdir(".."), 0);
	errors = load("spec/valid.yaml", &spec, &rc);
	assert_string_equal(errors, "");
	assert_int_equal(rc, 0);
	assert_string_equal(spec->path, "spec/valid.yaml");
	assert_string_equal(spec->dir, dir);
	assert_string_equal(spec->entries[1].folder, bots);
	assert_int_equal(chdir(cwd), 0);
	spec_free(spec);
	free(errors);
	free(cwd);
	free(dir);
	free(bots);
}

static void
test_unreadable(void **state)
{
	struct spec *spec = (struct spec *)1;
	char *errors;
	int rc;

	(void)state;
	errors = load("/nonexistent/spec.yaml", &spec, &rc);
	assert_int_equal(rc, -1);
	assert_null(spec);
	assert_string_equal(errors, "/nonexistent/spec.yaml: cannot read: "
	    "No such file or directory\n");
	free(errors);
}

/* Every problem of a bad fixture, exactly, without the path prefix. */
static void
check_bad(const char *name, const char *expected)
{
	char *path = fixture(name), *errors, *prefix, *stripped, *out;
	struct spec *spec = (struct spec *)1;
	size_t plen;
	int rc;

	errors = load(path, &spec, &rc);
	assert_int_equal(rc, -1);
	assert_null(spec);
	prefix = xasprintf("%s:", path);
	plen = strlen(prefix);
	stripped = out = xcalloc(strlen(errors) + 1, 1);
	for (char *line = errors; *line != '\0';) {
		char *end = strchr(line, '\n');

		assert_non_null(end);
		assert_memory_equal(line, prefix, plen);
		memcpy(out, line + plen, (size_t)(end + 1 - line) - plen);
		out += end + 1 - line - plen;
		line = end + 1;
	}
	assert_string_equal(stripped, expected);
	free(stripped);
	free(prefix);
	free(errors);
	free(path);
}

#define BAD(fn, file, expected) \
static void \
fn(void **state) \
{ \
	(void)state; \
	check_bad(file, expected); \
}

BAD(test_bad_advance, "bad/advance.yaml",
    "15:14: 'advance' 3 is larger than the smallest group of stage"
    " 'groups' (2 entrants)\n"
    "18:14: 'advance' on the last stage 'final': there is no next"
    " stage\n")
BAD(test_bad_broken, "bad/broken.yaml",
    "5:8: invalid YAML: did not find expected ',' or ']' (while"
    " parsing a flow sequence that starts at 4:11)\n")
BAD(test_bad_conflict, "bad/conflict.yaml",
    "14:17: 'group_size' conflicts with 'groups': give one of"
    " 'groups', 'group_size' and 'draw'\n"
    "18:13: 'groups' does not apply to a final, which is one group"
    " of every entrant\n"
    "21:11: 'draw' only applies to the first stage: later entrants"
    " depend on results\n")
BAD(test_bad_all_vs_all, "bad/all-vs-all.yaml",
    "7:5: duplicate dataset name 'small.dc' (first at 4:12)\n"
    "8:5: cannot find dataset '../other/nowhere.dc': No such file or"
    " directory\n"
    "9:5: duplicate dataset name 'spare.dc' (first at 6:5)\n"
    "17:13: 'repeat' must be positive, got 0\n"
    "23:5: 'repeat' only applies to a all_vs_all stage\n")
BAD(test_bad_all_vs_all_sizes, "bad/all-vs-all-sizes.yaml",
    "5:17: 'spare_datasets': expected a list, got '../other/spare.dc'\n"
    "13:13: stage 'ranking': 'repeat' 2501 makes more than 10000 games"
    " per pair\n"
    "14:14: 'advance' on the last stage 'ranking': there is no next"
    " stage\n")
BAD(test_bad_combinations, "bad/combinations.yaml",
    "12:12: 'seats' is 4 but stage 'koth' has only 3 entrants\n"
    "16:12: 'seats' is 9; a game has at most 8\n"
    "17:15: 'rotation': expected true or false, got 'maybe'\n"
    "18:5: 'games_per_side' only applies to a gauntlet stage\n"
    "21:17: 'group_size' does not apply to a combinations stage, which"
    " is one group of every entrant\n")
BAD(test_bad_combinations_many, "bad/combinations-many.yaml",
    "69:12: stage 'koth': 60 entrants in subsets of 8 make more than"
    " 1000000 matches\n")
BAD(test_bad_deep, "bad/deep.yaml",
    "2:45: nesting deeper than 32 levels\n")
BAD(test_bad_draw, "bad/draw.yaml",
    "15:7: the draw leaves out entry 'd'\n"
    "15:16: unknown entry 'zed' in the draw\n"
    "16:13: entry 'a' is drawn twice (first at 15:10)\n"
    "17:9: group 3 of the draw has 1 entry; a round-robin group"
    " needs at least 2\n")
BAD(test_bad_duplicates, "bad/duplicates.yaml",
    "4:1: duplicate key 'game' in the spec (first at 3:1)\n"
    "7:5: duplicate dataset name 'small.dc' (first at 6:5)\n"
    "11:12: duplicate entry name 'a' (first entry at 9:5)\n"
    "12:12: entry name 'bad name' may only use letters, digits,"
    " '_', '.' and '-'\n"
    "15:12: duplicate stage name 'league' (first stage at 14:5)\n")
BAD(test_bad_empty_lists, "bad/empty-lists.yaml",
    "4:11: 'datasets' is empty: a match needs at least one dataset\n"
    "5:10: 'entries' is empty\n"
    "6:9: 'stages' is empty\n")
BAD(test_bad_empty, "bad/empty.yaml",
    "2:1: the spec is empty\n")
BAD(test_bad_features, "bad/features.yaml",
    "2:13: tags are not supported ('tag:yaml.org,2002:str')\n"
    "4:11: anchors are not supported ('&sets')\n"
    "7:37: aliases are not supported ('*sets')\n"
    "9:5: tags are not supported ('!custom')\n")
BAD(test_bad_files, "bad/files.yaml",
    "6:5: cannot find dataset '../data/nowhere.dc': No such file"
    " or directory\n"
    "7:5: dataset '../data' is not a file\n"
    "10:13: cannot find folder '../nowhere': No such file or"
    " directory\n"
    "13:13: folder '../bots/README' is not a directory\n")
BAD(test_bad_final_first, "bad/final-first.yaml",
    "9:5: final 'final' is the first stage: a final plays the"
    " advancers of a stage before it\n")
BAD(test_bad_final_one, "bad/final-one.yaml",
    "11:5: too few entrants: final 'final' has 1; a final needs at"
    " least 2\n")
BAD(test_bad_gauntlet, "bad/gauntlet.yaml",
    "15:5: 'seats' only applies to a combinations stage\n"
    "18:17: unknown opponent 'nobody': not an entry of the spec\n"
    "19:17: opponent 'ai1' is listed twice (first at 17:17)\n"
    "21:9: opponent 'b' needs 'weight' or 'points'\n"
    "22:31: 'points' conflicts with 'weight': give one of them\n"
    "23:17: opponent 'ai2' is listed twice (first at 20:17)\n"
    "23:30: 'weight' must be zero or more, got -1\n"
    "24:5: gauntlet 'again' needs 'opponents'\n"
    "28:5: 'rotation' only applies to a combinations stage\n")
BAD(test_bad_gauntlet_nobody, "bad/gauntlet-nobody.yaml",
    "9:5: gauntlet 'eval' ranks nobody: every entrant is an opponent\n"
    "12:30: 'points' has 4 values; it needs 11, one for each number of"
    " games lost from 0 to 10 (2 sides * 5 games_per_side * 1"
    " datasets)\n")
BAD(test_bad_gauntlet_games, "bad/gauntlet-games.yaml",
    "11:21: stage 'eval': 'games_per_side' 6000 makes more than 10000"
    " games per opponent\n")
BAD(test_bad_gauntlet_advance, "bad/gauntlet-advance.yaml",
    "14:14: 'advance' 3 is larger than the 2 ranked entrants of stage"
    " 'eval'\n"
    "16:13: unknown format 'gantlet' (did you mean 'gauntlet'?)\n")
BAD(test_bad_latin1, "bad/latin1.yaml",
    "2:16: invalid YAML: incomplete UTF-8 octet sequence\n")
BAD(test_bad_limits, "bad/limits.yaml",
    "9:12: 'call_ms' must be positive, got 0\n"
    "10:12: 'game_ms' must be positive, got -5\n"
    "11:14: 'memory_mb': expected an integer, got '1.5'\n"
    "12:16: 'resident_mb': expected an integer, got"
    " '99999999999999999999'\n"
    "13:10: unknown clock 'cpy' (did you mean 'cpu'?)\n"
    "14:11: 'ponder': expected true or false, got 'maybe'\n"
    "16:28: unknown format 'round_robbin' (did you mean"
    " 'round_robin'?)\n"
    "16:51: 'advance' must be zero or more, got -1\n"
    "17:25: unknown format 'knockout' (known: round_robin, final, gauntlet,"
    " combinations, all_vs_all)\n")
BAD(test_bad_missing, "bad/missing.yaml",
    "2:1: missing required key 'game' in the spec\n"
    "5:5: missing required key 'run' in entry 'a'\n"
    "11:5: missing required key 'format' in stage 'league'\n")
BAD(test_bad_no_advance, "bad/no-advance.yaml",
    "10:5: final 'final' has no entrants: stage 'league' before it"
    " has no 'advance'\n")
BAD(test_bad_not_a_map, "bad/not-a-map.yaml",
    "2:1: the spec: expected a mapping, got a list\n")
BAD(test_bad_too_few, "bad/too-few.yaml",
    "8:5: too few entrants: stage 'league' has 1; a round-robin"
    " group needs at least 2\n")
BAD(test_bad_too_many_groups, "bad/too-many-groups.yaml",
    "14:13: too few entrants: stage 'groups' puts 5 in 3 groups; a"
    " round-robin group needs at least 2\n")
BAD(test_bad_two_docs, "bad/two-docs.yaml",
    "4:1: a spec is one YAML document; this starts a second one\n")
BAD(test_bad_types, "bad/types.yaml",
    "2:13: 'tournament': expected a string, got a list\n"
    "4:7: 'seed': expected an integer from 0 to"
    " 18446744073709551615, got 'abc'\n"
    "5:11: 'datasets': expected a list, got '../data/small.dc'\n"
    "7:5: entry 1: expected a mapping, got 'just-a-name'\n"
    "10:10: 'run' in entry 'b': expected a string, got a mapping\n"
    "12:12: 'call_ms': expected an integer, got a quoted string\n"
    "13:11: 'game_ms': expected an integer, got nothing\n"
    "15:3: 'stages': expected a list, got a mapping\n")
BAD(test_bad_unknown_key, "bad/unknown-key.yaml",
    "4:1: unknown key 'seeds' in the spec (did you mean 'seed'?)\n"
    "5:1: unknown key 'colour' in the spec\n"
    "8:42: unknown key 'bulid' in entry 'a' (did you mean"
    " 'build'?)\n"
    "11:3: unknown key 'call' in 'limits' (did you mean"
    " 'call_ms'?)\n"
    "15:5: unknown key 'grups' in stage 'league' (did you mean"
    " 'groups'?)\n")

/* Every prefix of a valid spec: never a crash or a leak (run it under
 * -DSANITIZE=ON), and problems printed exactly when loading fails. */
static void
test_truncated(void **state)
{
	char *src = fixture("valid.yaml"), *text, *errors;
	char tmpl[] = "/tmp/arena-spec-XXXXXX";
	char *dir = mkdtemp(tmpl), *path, *link;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(dir);
	f = fopen(src, "r");
	assert_non_null(f);
	text = xcalloc(1 << 16, 1);
	len = fread(text, 1, (1 << 16) - 1, f);
	fclose(f);
	/* The spec's relative paths must resolve in the copy's folder. */
	for (int i = 0; i < 2; i++) {
		const char *sub = i ? "bots" : "data";
		char *target = real(sub);

		link = xasprintf("%s/%s", dir, sub);
		assert_int_equal(symlink(target, link), 0);
		free(link);
		free(target);
	}
	path = xasprintf("%s/spec.yaml", dir);
	for (size_t cut = 0; cut <= len; cut += 3) {
		struct spec *spec;
		int rc;

		f = fopen(path, "w");
		assert_non_null(f);
		fwrite(text, 1, cut, f);
		fclose(f);
		errors = load(path, &spec, &rc);
		if (rc == 0) {
			assert_string_equal(errors, "");
			assert_non_null(spec);
		} else {
			assert_true(strlen(errors) > 0);
			assert_null(spec);
		}
		spec_free(spec);
		free(errors);
	}
	unlink(path);
	for (int i = 0; i < 2; i++) {
		link = xasprintf("%s/%s", dir, i ? "bots" : "data");
		unlink(link);
		free(link);
	}
	rmdir(dir);
	free(path);
	free(text);
	free(src);
}

/* tests/data/spec/gauntlet.yaml, combinations.yaml and all-vs-all.yaml,
 * key by key. */
static void
test_formats(void **state)
{
	struct spec *g = load_good("gauntlet.yaml");
	struct spec *c = load_good("combinations.yaml");
	const struct spec_stage *s = &g->stages[0];

	(void)state;
	assert_int_equal(s->format, SPEC_GAUNTLET);
	assert_string_equal(spec_format_name(s->format), "gauntlet");
	assert_int_equal(s->games_per_side, 2);
	assert_int_equal(s->nopponents, 2);
	assert_string_equal(s->opponents[0].entry, "ai1");
	assert_int_equal(s->opponents[0].weight, 10);
	assert_null(s->opponents[0].points);
	assert_string_equal(s->opponents[1].entry, "ai2");
	assert_int_equal(s->opponents[1].npoints, 9);
	assert_int_equal(s->opponents[1].points[0], 40);
	assert_int_equal(s->opponents[1].points[8], 0);
	assert_int_equal(s->opponents[1].points_pos.line, 30);
	assert_int_equal(s->opponents[1].points_pos.col, 30);
	assert_int_equal(spec_gauntlet_games(g, 0), 8);
	assert_true(spec_is_opponent(g, 0, 0));
	assert_false(spec_is_opponent(g, 0, 1));
	assert_true(spec_is_opponent(g, 0, 3));
	assert_false(spec_is_opponent(g, 1, 0));	/* a final */
	/* 3 ranked (p q r) * 2 opponents; the final gets the top 2. */
	assert_int_equal(spec_stage_matches(g, 0), 6);
	assert_int_equal(spec_stage_entrants(g, 1), 2);
	assert_int_equal(g->stages[1].games_per_side, 5);	/* default */
	s = &c->stages[0];
	assert_int_equal(s->format, SPEC_COMBINATIONS);
	assert_int_equal(s->seats, 4);
	assert_int_equal(s->seats_pos.line, 18);
	assert_true(s->rotation);				/* default */
	assert_int_equal(spec_stage_matches(c, 0), 15);
	assert_int_equal(spec_choose(6, 4), 15);
	assert_int_equal(spec_choose(60, 8), 2558620845ULL);
	assert_int_equal(spec_choose(3, 4), 0);
	assert_int_equal(c->nspares, 0);
	assert_null(c->spares);
	assert_int_equal(c->stages[0].repeat, 1);		/* default */
	spec_free(g);
	spec_free(c);
	c = load_good("all-vs-all.yaml");
	s = &c->stages[0];
	assert_int_equal(s->format, SPEC_ALL_VS_ALL);
	assert_string_equal(spec_format_name(s->format), "all_vs_all");
	assert_int_equal(s->repeat, 3);
	assert_int_equal(spec_pair_games(c, 0), 12);
	assert_int_equal(spec_stage_matches(c, 0), 6);
	assert_int_equal(spec_stage_ngroups(c, 0, 4), 1);
	assert_int_equal(spec_stage_entrants(c, 1), 2);
	assert_int_equal(c->ndatasets, 2);
	assert_int_equal(c->nspares, 1);
	assert_string_equal(c->spares[0].name, "spare.dc");
	assert_non_null(strstr(c->spares[0].path, "/other/spare.dc"));
	assert_int_equal(c->spares[0].pos.line, 10);
	assert_int_equal(c->spares[0].pos.col, 5);
	spec_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_draw_and_sizes),
		cmocka_unit_test(test_relative_path),
		cmocka_unit_test(test_unreadable),
		cmocka_unit_test(test_bad_advance),
		cmocka_unit_test(test_bad_broken),
		cmocka_unit_test(test_bad_conflict),
		cmocka_unit_test(test_bad_all_vs_all),
		cmocka_unit_test(test_bad_all_vs_all_sizes),
		cmocka_unit_test(test_bad_combinations),
		cmocka_unit_test(test_bad_combinations_many),
		cmocka_unit_test(test_bad_gauntlet),
		cmocka_unit_test(test_bad_gauntlet_nobody),
		cmocka_unit_test(test_bad_gauntlet_games),
		cmocka_unit_test(test_bad_gauntlet_advance),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_bad_deep),
		cmocka_unit_test(test_bad_draw),
		cmocka_unit_test(test_bad_duplicates),
		cmocka_unit_test(test_bad_empty_lists),
		cmocka_unit_test(test_bad_empty),
		cmocka_unit_test(test_bad_features),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_bad_final_first),
		cmocka_unit_test(test_bad_final_one),
		cmocka_unit_test(test_bad_latin1),
		cmocka_unit_test(test_bad_limits),
		cmocka_unit_test(test_bad_missing),
		cmocka_unit_test(test_bad_no_advance),
		cmocka_unit_test(test_bad_not_a_map),
		cmocka_unit_test(test_bad_too_few),
		cmocka_unit_test(test_bad_too_many_groups),
		cmocka_unit_test(test_bad_two_docs),
		cmocka_unit_test(test_bad_types),
		cmocka_unit_test(test_bad_unknown_key),
		cmocka_unit_test(test_truncated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
