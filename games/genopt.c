/*
 * genopt: option reading and the random stream of the dataset generators
 * (dcgen, rvgen, slboard, swgen).
 */
#include "games/genopt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

int
genopt_pair(int argc, char **argv, int *i, const char **opt,
    const char **val)
{
	if (*i >= argc)
		return 0;
	if (*i + 1 >= argc)
		return log_error("option '%s' needs a value", argv[*i]);
	*opt = argv[*i];
	*val = argv[*i + 1];
	*i += 2;
	return 1;
}

int
genopt_number(const char *val, uint64_t *seed)
{
	unsigned long long v;

	if (*val == '\0' || val[strspn(val, "0123456789")] != '\0')
		return -1;
	errno = 0;
	v = strtoull(val, NULL, 10);
	if (errno != 0)
		return -1;
	*seed = v;
	return 0;
}

uint64_t
genopt_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
