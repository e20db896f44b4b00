/*
 * json: the one JSON string writer, shared by everything that prints JSON
 * (coordinator/plan.c, coordinator/export.c). Numbers and punctuation are
 * plain printf; only strings need care.
 */
#ifndef ARENA_JSON_H
#define ARENA_JSON_H

#include <stdio.h>

/* Writes s as a quoted JSON string: '"' and '\' escaped, newline and tab
 * as \n and \t, other control characters (below 0x20, and 0x7f) as
 * \u00xx, in lowercase hex. Other bytes, UTF-8 included, pass through
 * unchanged. */
void json_write_string(FILE *out, const char *s);

#endif
