/*
 * utf8: text that comes from outside (bot answers, worker names) as the
 * database stores it: UTF-8 without overlong forms or surrogates.
 */
#ifndef ARENA_UTF8_H
#define ARENA_UTF8_H

#include <stddef.h>

/* The length of the UTF-8 character at p (1 to 4), or 0 when the bytes
 * there are not one. p points at a NUL-terminated string. */
int utf8_len(const char *p);

/* Makes s printable text in place: each byte that is not part of a UTF-8
 * character becomes '?', each control character but tab a space. Returns
 * how many bytes it changed. */
size_t utf8_clean(char *s);

#endif
