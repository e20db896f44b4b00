/*
 * check: what a spec needs its game for. spec_load() checks the file's own
 * shape; this checks the game name, the seats per game and every dataset
 * against the game's parser, printing "file:line:col: message" lines.
 */
#ifndef ARENA_CHECK_H
#define ARENA_CHECK_H

#include <stdio.h>

#include "common/spec.h"

/* Returns the number of problems printed to errors (0: the spec is good). */
int check_spec(const struct spec *spec, FILE *errors);

/* Reads a whole file. Caller owns *text (NUL-terminated); free(). */
int check_read_file(const char *path, char **text, size_t *len);

#endif
