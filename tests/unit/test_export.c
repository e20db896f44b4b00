/* Unit tests for coordinator/export: exact CSV, and the shapes of the
 * table, Markdown, JSON and HTML forms, from hand-made rows (no database). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coordinator/export.h"

static struct db_standing standings[] = {
	{ "groups", "A", 1, "P", 3, 2, 1, 0, 7, 3, 26 },
	{ "groups", "A", 2, "Q,x", 3, 1, 1, 1, 4, 3, 10 },
	{ "groups", "B", 1, "say \"hi\"", 2, 0, 2, 0, 2, 0, 0 },
	{ "final", "A", 1, "<b>&", 1, 1, 0, 0, 3, 2, -5 },
};
#define NSTANDINGS (sizeof standings / sizeof standings[0])

static struct db_game_row games[] = {
	{ "groups", "A", 7, 41, "d1.txt", "P", "Q", 10, 4, "P", "board full" },
	{ "groups", "A", 7, 42, "d1.txt", "Q", "P", 5, 5, "", "TO" },
};

/* Runs fn into a memory buffer. Caller owns the result; free(). */
static char *
capture_standings(enum export_format f, const char *title)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(export_standings(out, f, title, standings,
	    NSTANDINGS), 0);
	fclose(out);
	return buf;
}

static char *
capture_games(enum export_format f, int want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(export_games(out, f, games, 2), want);
	fclose(out);
	return buf;
}

/* Not inlined: gcc 12 at -O2 then mistakes the strstr() result for a
 * pointer to the caller's freed buffer (-Wdangling-pointer). */
static __attribute__((noinline)) size_t
count(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void
test_format_parse(void **state)
{
	enum export_format f;

	(void)state;
	assert_int_equal(export_format_parse("md", &f), 0);
	assert_int_equal(f, EXPORT_MD);
	assert_int_equal(export_format_parse("html", &f), 0);
	assert_int_equal(f, EXPORT_HTML);
	assert_int_equal(export_format_parse("xml", &f), -1);
}

static void
test_standings_csv(void **state)
{
	char *s = capture_standings(EXPORT_CSV, "t1");

	(void)state;
	assert_string_equal(s,
	    "stage,group,rank,entry,played,won,drawn,lost,points,games_won,"
	    "net_points\n"
	    "groups,A,1,P,3,2,1,0,7,3,26\n"
	    "groups,A,2,\"Q,x\",3,1,1,1,4,3,10\n"
	    "groups,B,1,\"say \"\"hi\"\"\",2,0,2,0,2,0,0\n"
	    "final,A,1,<b>&,1,1,0,0,3,2,-5\n");
	free(s);
}

static void
test_games_csv(void **state)
{
	char *s = capture_games(EXPORT_CSV, 0);

	(void)state;
	assert_string_equal(s,
	    "stage,group,match,game,dataset,first,second,score_first,"
	    "score_second,winner,end_reason\n"
	    "groups,A,7,41,d1.txt,P,Q,10,4,P,board full\n"
	    "groups,A,7,42,d1.txt,Q,P,5,5,,TO\n");
	free(s);
	s = capture_games(EXPORT_HTML, -1);
	free(s);
}

static void
test_games_json(void **state)
{
	char *s = capture_games(EXPORT_JSON, 0);

	(void)state;
	assert_string_equal(s,
	    "[\n"
	    "  {\"stage\": \"groups\", \"group\": \"A\", \"match\": 7, "
	    "\"game\": 41, \"dataset\": \"d1.txt\", \"first\": \"P\", "
	    "\"second\": \"Q\", \"score_first\": 10, \"score_second\": 4, "
	    "\"winner\": \"P\", \"end_reason\": \"board full\"},\n"
	    "  {\"stage\": \"groups\", \"group\": \"A\", \"match\": 7, "
	    "\"game\": 42, \"dataset\": \"d1.txt\", \"first\": \"Q\", "
	    "\"second\": \"P\", \"score_first\": 5, \"score_second\": 5, "
	    "\"winner\": \"\", \"end_reason\": \"TO\"}\n"
	    "]\n");
	free(s);
}

static void
test_standings_json(void **state)
{
	char *s = capture_standings(EXPORT_JSON, NULL);
	char *empty = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	assert_true(s[0] == '[' && strcmp(s + strlen(s) - 2, "]\n") == 0);
	assert_int_equal(count(s, "{\"stage\": "), NSTANDINGS);
	assert_non_null(strstr(s, "\"entry\": \"say \\\"hi\\\"\""));
	assert_non_null(strstr(s, "\"net_points\": -5}"));
	assert_non_null(strstr(s, "\"rank\": 2, \"entry\": \"Q,x\", "
	    "\"played\": 3, \"won\": 1, \"drawn\": 1, \"lost\": 1, "
	    "\"points\": 4, \"games_won\": 3, \"net_points\": 10}"));
	free(s);
	out = open_memstream(&empty, &len);
	assert_int_equal(export_standings(out, EXPORT_JSON, NULL, NULL, 0), 0);
	fclose(out);
	assert_string_equal(empty, "[]\n");
	free(empty);
}

static void
test_standings_md(void **state)
{
	char *s = capture_standings(EXPORT_MD, "t1");

	(void)state;
	assert_int_equal(strncmp(s, "## t1\n\n### groups, group A\n\n", 28), 0);
	assert_int_equal(count(s, "### "), 3);	/* groups A, B; final A */
	assert_int_equal(count(s, "| rank | entry | played | won | drawn | "
	    "lost | points | games_won | net_points |\n"), 3);
	assert_int_equal(count(s, "| ---: | :--- | ---: |"), 3);
	assert_non_null(strstr(s, "| 1 | P | 3 | 2 | 1 | 0 | 7 | 3 | 26 |\n"));
	assert_non_null(strstr(s, "### final, group A\n"));
	free(s);
}

static void
test_standings_html(void **state)
{
	char *s = capture_standings(EXPORT_HTML, "t<1>");

	(void)state;
	assert_int_equal(strncmp(s, "<!DOCTYPE html>\n<html", 21), 0);
	assert_non_null(strstr(s, "<title>t&lt;1&gt;</title>"));
	assert_non_null(strstr(s, "<h1>t&lt;1&gt;</h1>"));
	assert_int_equal(count(s, "<table>"), 3);
	assert_int_equal(count(s, "</table>"), 3);
	assert_int_equal(count(s, "<tr>"), 3 + NSTANDINGS);
	assert_non_null(strstr(s, "<td>&lt;b&gt;&amp;</td>"));
	assert_non_null(strstr(s, "<td>say &quot;hi&quot;</td>"));
	assert_null(strstr(s, "<b>"));
	assert_int_equal(strcmp(s + strlen(s) - 16, "</body>\n</html>\n"), 0);
	free(s);
}

static void
test_standings_table(void **state)
{
	char *s = capture_standings(EXPORT_TABLE, "t1");

	(void)state;
	assert_string_equal(s,
	    "t1\n\n"
	    "groups, group A\n"
	    "rank  entry  played  won  drawn  lost  points  games_won  "
	    "net_points\n"
	    "   1  P           3    2      1     0       7          3  "
	    "        26\n"
	    "   2  Q,x         3    1      1     1       4          3  "
	    "        10\n"
	    "\n"
	    "groups, group B\n"
	    "rank  entry     played  won  drawn  lost  points  games_won  "
	    "net_points\n"
	    "   1  say \"hi\"       2    0      2     0       2          0  "
	    "         0\n"
	    "\n"
	    "final, group A\n"
	    "rank  entry  played  won  drawn  lost  points  games_won  "
	    "net_points\n"
	    "   1  <b>&        1    1      0     0       3          2  "
	    "        -5\n");
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_standings_csv),
		cmocka_unit_test(test_games_csv),
		cmocka_unit_test(test_games_json),
		cmocka_unit_test(test_standings_json),
		cmocka_unit_test(test_standings_md),
		cmocka_unit_test(test_standings_html),
		cmocka_unit_test(test_standings_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
