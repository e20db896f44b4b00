/* Unit tests for coordinator/export: exact CSV, and the shapes of the
 * table, Markdown, JSON and HTML forms, from hand-made rows (no database);
 * gauntlet tables with per-opponent columns, all_vs_all tables with
 * negative totals, n-seat games. */
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
	{ "groups", "A", 7, 41, "d1.txt", "P", "Q", 10, 4, "P", "board full",
	    "P,Q", "10,4", 2 },
	{ "groups", "A", 7, 42, "d1.txt", "Q", "P", 5, 5, "", "TO", "Q,P",
	    "5,5", 2 },
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

/* A gauntlet table as db_stage_table() gives it; a NULL cell (a match
 * not complete) is empty in CSV and null in JSON. */
static char *gauntlet_cells[] = {
	"eval", "A", "1", "B", "1", "5.000", "0", "40", "4", "1", "45.000",
	"eval", "A", "2", "A", NULL, NULL, "2", "0", "2", "2", "0",
};
static const char *const gauntlet_cols[] = { "stage", "group", "rank",
	"entry", "O1 lost", "O1 points", "O2 lost", "O2 points", "played",
	"lost", "points" };

static char *
capture_table(enum export_format f)
{
	struct db_rows t = { 2, 11, gauntlet_cells };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(export_table(out, f, "t2", &t, gauntlet_cols), 0);
	fclose(out);
	return buf;
}

static void
test_table_formats(void **state)
{
	char *csv = capture_table(EXPORT_CSV);
	char *json = capture_table(EXPORT_JSON);
	char *table = capture_table(EXPORT_TABLE);

	(void)state;
	assert_string_equal(csv,
	    "stage,group,rank,entry,O1 lost,O1 points,O2 lost,O2 points,"
	    "played,lost,points\n"
	    "eval,A,1,B,1,5.000,0,40,4,1,45.000\n"
	    "eval,A,2,A,,,2,0,2,2,0\n");
	assert_non_null(strstr(json, "{\"stage\": \"eval\", \"group\": "
	    "\"A\", \"rank\": 2, \"entry\": \"A\", \"O1 lost\": null, "
	    "\"O1 points\": null, \"O2 lost\": 2,"));
	assert_string_equal(table,
	    "t2\n\n"
	    "eval, group A\n"
	    "rank  entry  O1 lost  O1 points  O2 lost  O2 points  played  "
	    "lost  points\n"
	    "   1  B            1      5.000        0         40       4  "
	    "   1  45.000\n"
	    "   2  A                                2          0       2  "
	    "   2       0\n");
	free(csv);
	free(json);
	free(table);
}

/* An all_vs_all table as db_stage_table() gives it: totals and marks
 * with 3 decimals, negative ones too, are numbers in JSON and right
 * aligned in the table. */
static void
test_all_vs_all_table(void **state)
{
	static char *cells[] = {
		"ranking", "A", "1", "hunter", "4", "123.000", "10.000",
		"ranking", "A", "2", "kit-c", "4", "61.500", "5.000",
		"ranking", "A", "3", "drifter", "4", "-7.250", "-0.589",
	};
	static const char *const cols[] = { "stage", "group", "rank",
		"entry", "played", "total", "mark" };
	struct db_rows t = { 3, 7, cells };
	char *buf[3] = { NULL, NULL, NULL };
	size_t len;
	enum export_format f[3] = { EXPORT_CSV, EXPORT_JSON, EXPORT_TABLE };

	(void)state;
	for (int i = 0; i < 3; i++) {
		FILE *out = open_memstream(&buf[i], &len);

		assert_non_null(out);
		assert_int_equal(export_table(out, f[i], "sw", &t, cols), 0);
		fclose(out);
	}
	assert_string_equal(buf[0],
	    "stage,group,rank,entry,played,total,mark\n"
	    "ranking,A,1,hunter,4,123.000,10.000\n"
	    "ranking,A,2,kit-c,4,61.500,5.000\n"
	    "ranking,A,3,drifter,4,-7.250,-0.589\n");
	assert_non_null(strstr(buf[1], "\"entry\": \"drifter\", "
	    "\"played\": 4, \"total\": -7.250, \"mark\": -0.589}"));
	assert_string_equal(buf[2],
	    "sw\n\n"
	    "ranking, group A\n"
	    "rank  entry    played    total    mark\n"
	    "   1  hunter        4  123.000  10.000\n"
	    "   2  kit-c         4   61.500   5.000\n"
	    "   3  drifter       4   -7.250  -0.589\n");
	for (int i = 0; i < 3; i++)
		free(buf[i]);
}

/* Games with more than two seats add the seats and scores columns. */
static void
test_games_seats(void **state)
{
	struct db_game_row rows[] = {
		{ "koth", "A", 3, 9, "d", "a", "b", 0, 4, "", "end",
		    "a,b,d", "0,4,4", 3 },
	};
	char *buf = NULL, *plain = capture_games(EXPORT_CSV, 0);
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(out);
	assert_int_equal(export_games(out, EXPORT_CSV, rows, 1), 0);
	fclose(out);
	assert_string_equal(buf,
	    "stage,group,match,game,dataset,first,second,score_first,"
	    "score_second,winner,end_reason,seats,scores\n"
	    "koth,A,3,9,d,a,b,0,4,,end,\"a,b,d\",\"0,4,4\"\n");
	assert_null(strstr(plain, "seats"));
	free(buf);
	free(plain);
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
		cmocka_unit_test(test_table_formats),
		cmocka_unit_test(test_all_vs_all_table),
		cmocka_unit_test(test_games_seats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
