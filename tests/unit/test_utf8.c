/* Unit tests for common/utf8: what counts as a UTF-8 character (as
 * PostgreSQL takes text), and cleaning a bot's answer in place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "common/utf8.h"

static void
test_lengths(void **state)
{
	(void)state;
	assert_int_equal(utf8_len("a"), 1);
	assert_int_equal(utf8_len("\xd0\x95"), 2);		/* Cyrillic E */
	assert_int_equal(utf8_len("\xef\xbb\xbf"), 3);		/* BOM */
	assert_int_equal(utf8_len("\xf0\x9f\x98\x80"), 4);
	assert_int_equal(utf8_len("\xc0\xaf"), 0);		/* overlong */
	assert_int_equal(utf8_len("\xe0\x80\xaf"), 0);		/* overlong */
	assert_int_equal(utf8_len("\xed\xa0\x80"), 0);		/* surrogate */
	assert_int_equal(utf8_len("\xf4\x90\x80\x80"), 0);	/* > U+10FFFF */
	assert_int_equal(utf8_len("\xd0"), 0);			/* cut short */
	assert_int_equal(utf8_len("\xff"), 0);
	assert_int_equal(utf8_len("\x80"), 0);
}

static void
test_clean(void **state)
{
	char answer[] = "3 4\r\x01\tx\xff\xd0\x95\xd0";

	(void)state;
	assert_int_equal(utf8_clean(answer), 4);
	assert_string_equal(answer, "3 4  \tx?\xd0\x95?");
	assert_int_equal(utf8_clean(answer), 0);	/* already clean */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_clean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
