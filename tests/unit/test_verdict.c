/* Unit tests for common/verdict: every code round-trips, faults are right. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/verdict.h"

static void
test_round_trip(void **state)
{
	(void)state;
	for (int v = 0; v < VERDICT_COUNT; v++) {
		enum verdict back;

		assert_int_equal(verdict_parse(verdict_code(v), &back), 0);
		assert_int_equal(back, v);
	}
	enum verdict unused;
	assert_int_equal(verdict_parse("ZZ", &unused), -1);
}

static void
test_faults(void **state)
{
	(void)state;
	assert_false(verdict_is_fault(VERDICT_OK));
	assert_false(verdict_is_fault(VERDICT_WA));
	assert_false(verdict_is_fault(VERDICT_XX));
	assert_true(verdict_is_fault(VERDICT_TO));
	assert_true(verdict_is_fault(VERDICT_ML));
	assert_true(verdict_is_fault(VERDICT_RE));
	assert_true(verdict_is_fault(VERDICT_SV));
	assert_true(verdict_is_fault(VERDICT_OL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_faults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
