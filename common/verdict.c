/* verdict: the stable two-letter codes of enum verdict. */
#include "common/verdict.h"

#include <string.h>

static const char *const codes[VERDICT_COUNT] = {
	[VERDICT_OK] = "OK", [VERDICT_WA] = "WA", [VERDICT_TO] = "TO",
	[VERDICT_ML] = "ML", [VERDICT_RE] = "RE", [VERDICT_SV] = "SV",
	[VERDICT_OL] = "OL", [VERDICT_XX] = "XX",
};

const char *
verdict_code(enum verdict v)
{
	if ((unsigned)v >= VERDICT_COUNT)
		return "XX";
	return codes[v];
}

int
verdict_parse(const char *code, enum verdict *out)
{
	for (int v = 0; v < VERDICT_COUNT; v++) {
		if (strcmp(codes[v], code) == 0) {
			*out = (enum verdict)v;
			return 0;
		}
	}
	return -1;
}

int
verdict_is_fault(enum verdict v)
{
	return v != VERDICT_OK && v != VERDICT_WA && v != VERDICT_XX;
}
