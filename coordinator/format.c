/*
 * format: what the stage formats (format_*.c) and plan.c share: group
 * names and the hash that derives every seed from the spec's one seed.
 * Both end up in the database and in printed plans, so neither may ever
 * change.
 */
#include "coordinator/format.h"

#include <stdint.h>

#include "common/log.h"

static uint64_t
splitmix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

uint64_t
format_mix(uint64_t state, uint64_t value)
{
	return splitmix64(state ^ splitmix64(value));
}

char *
format_group_name(size_t index)
{
	char buf[16];
	size_t i = sizeof buf - 1;

	/* Bijective base 26: A..Z, AA, AB, ... */
	buf[i] = '\0';
	do {
		buf[--i] = (char)('A' + index % 26);
		index = index / 26;
	} while (index-- > 0 && i > 0);
	return xstrdup(buf + i);
}
