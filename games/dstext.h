/*
 * dstext: a cursor over the text of a dataset file for the games' parsers:
 * one line at a time (a '\r' before the newline dropped, the last line
 * may lack its newline, never a read past the end), and errors written as
 * game.h's dataset_parse() wants them, "name:line:col: message".
 */
#ifndef ARENA_DSTEXT_H
#define ARENA_DSTEXT_H

#include <stddef.h>

struct dstext {
	const char *name;	/* dataset name for messages */
	const char *p, *end;	/* unread text */
	int line;		/* 1-based number of the current line */
	const char *ls;		/* current line, without its newline */
	size_t llen;
	char *err;		/* where the error goes */
	size_t errlen;
};

void dstext_init(struct dstext *t, const char *name, const char *text,
    size_t len, char *err, size_t errlen);
/* Moves to the next line: 0, or 1 at the end of the text, where line is
 * then the one after the last, for "ends too early" messages. */
int dstext_next(struct dstext *t);
/* Like dstext_next(), skipping lines that start with comment. */
int dstext_next_content(struct dstext *t, char comment);
/* Writes "name:line:col: message" into err; returns -1. */
int dstext_fail(struct dstext *t, int col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same at another line than the current one. */
int dstext_fail_at(struct dstext *t, int line, int col, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

#endif
