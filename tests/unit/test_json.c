/* Unit tests for common/json: each escape, and what passes through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "common/json.h"

/* Checks that json_write_string(in) writes exactly want. */
static void
expect_json(const char *in, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	json_write_string(out, in);
	assert_int_equal(fclose(out), 0);
	assert_string_equal(buf, want);
	free(buf);
}

static void
test_plain(void **state)
{
	(void)state;
	expect_json("", "\"\"");
	expect_json("alice_1.v-2", "\"alice_1.v-2\"");
	expect_json("a b/c", "\"a b/c\"");
}

static void
test_quote_and_backslash(void **state)
{
	(void)state;
	expect_json("say \"hi\"", "\"say \\\"hi\\\"\"");
	expect_json("C:\\bots\\", "\"C:\\\\bots\\\\\"");
}

static void
test_newline_and_tab(void **state)
{
	(void)state;
	expect_json("a\nb\tc", "\"a\\nb\\tc\"");
}

static void
test_other_controls(void **state)
{
	(void)state;
	expect_json("\x01", "\"\\u0001\"");
	expect_json("\r", "\"\\u000d\"");
	expect_json("\b\f", "\"\\u0008\\u000c\"");
	expect_json("\x1b[0m", "\"\\u001b[0m\"");
	expect_json("\x1f", "\"\\u001f\"");
	expect_json("del\x7f", "\"del\\u007f\"");
}

static void
test_utf8_passes(void **state)
{
	(void)state;
	expect_json("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb2",
	    "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb2\"");
	/* Bytes that are not UTF-8 are not JSON's business here. */
	expect_json("\x80\xff", "\"\x80\xff\"");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_quote_and_backslash),
		cmocka_unit_test(test_newline_and_tab),
		cmocka_unit_test(test_other_controls),
		cmocka_unit_test(test_utf8_passes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
