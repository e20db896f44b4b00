/* Case 17 (per-turn FILES games): forges input.txt and leaves a stale
 * output.txt, to fool the next call. Each call first checks that the
 * worker wrote a fresh input.txt (Space Wars' starts with the turn
 * number) and removed the old output.txt; either one surviving from the
 * previous call exits HOSTILE_RESIDUE. Its own answer, "0 0 0 0", is no
 * Space Wars command: WA, played as N. */
#include <stdio.h>
#include <unistd.h>

#include "hostile.h"

int
main(void)
{
	char line[64] = "";
	FILE *f = fopen("input.txt", "r"), *o;

	if (f == NULL || fgets(line, sizeof line, f) == NULL)
		return 1;
	fclose(f);
	if (strncmp(line, "forged", 6) == 0 || access("output.txt", F_OK) == 0)
		return HOSTILE_RESIDUE;
	if ((f = fopen("input.txt", "w")) == NULL ||
	    (o = fopen("output.txt", "w")) == NULL)
		return 1;
	fputs("forged 1\nyou A\ntime 999999\n", f);
	fputs("0 0 0 0\n", o);
	return fclose(f) != 0 || fclose(o) != 0;
}
