/* Case 17 (per-turn games): rewrites input.txt with a forged request and
 * leaves a stale output.txt, to fool the next turn. Expect the referee to
 * recreate input.txt and delete output.txt each turn. Skipped by the
 * harness until per-turn games exist. */
#include <stdio.h>

int
main(void)
{
	FILE *f = fopen("input.txt", "w"), *o = fopen("output.txt", "w");

	if (f == NULL || o == NULL)
		return 1;
	fputs("dreamcity 1\nyou A\ntime 999999\nlast none\n", f);
	fputs("0 0 0 0\n", o);
	return fclose(f) != 0 || fclose(o) != 0;
}
