/*
 * utf8: the one place that decides what counts as UTF-8, so the worker
 * (which cleans bot answers before the referee sees them, keeping replays
 * exact) and the coordinator (which escapes what it must store) agree.
 */
#include "common/utf8.h"

int
utf8_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n = *p < 0x80 ? 1 : *p >= 0xc2 && *p <= 0xdf ? 2 :
	    *p >= 0xe0 && *p <= 0xef ? 3 : *p >= 0xf0 && *p <= 0xf4 ? 4 : 0;
	unsigned lo = *p == 0xe0 ? 0xa0 : *p == 0xf0 ? 0x90 : 0x80;
	unsigned hi = *p == 0xed ? 0x9f : *p == 0xf4 ? 0x8f : 0xbf;

	for (int k = 1; k < n; k++)
		if (p[k] < (k == 1 ? lo : 0x80) || p[k] > (k == 1 ? hi : 0xbf))
			return 0;
	return n;
}

size_t
utf8_clean(char *s)
{
	size_t changed = 0;

	while (*s) {
		int n = utf8_len(s);

		if (n == 0) {
			*s++ = '?';
			changed++;
		} else if (n == 1 && ((unsigned char)*s < 0x20 || *s == 0x7f) &&
		    *s != '\t') {
			*s++ = ' ';
			changed++;
		} else
			s += n;
	}
	return changed;
}
