/* Case 25e: not a bot. Its build writes 4 KB of junk into a file named
 * "garbage" and makes it executable; the entry runs ./garbage, which the
 * kernel cannot exec. Expect RE (exec failure: exit 126 or 127). */
#include <sys/stat.h>

#include <stdio.h>

int
main(void)
{
	FILE *f = fopen("garbage", "w");

	if (f == NULL)
		return 1;
	for (int i = 0; i < 4096; i++)
		fputc((i * 7919) & 0xff, f);
	return fclose(f) != 0 || chmod("garbage", 0755) != 0;
}
