/*
 * export: standings and game lists, as read from the database by db.c,
 * written for people or programs. Pure formatting: no database access.
 *
 *	table	aligned plain text, one titled block per stage and group
 *	csv	RFC 4180 quoting, header line first, one row per line
 *	md	Markdown, one heading and table per stage and group
 *	json	one array of objects, keys as the CSV header
 *	html	a small standalone HTML page, text escaped
 *
 * Standings columns: stage,group,rank,entry,played,won,drawn,lost,points,
 * games_won,net_points. Game columns: stage,group,match,game,dataset,
 * first,second,score_first,score_second,winner,end_reason, and when a game
 * has more than two seats seats,scores (every seat's entry and score,
 * comma-separated; first and second are then seats A and B). Gauntlet,
 * combinations and all_vs_all standings are tables of their own
 * (db_stage_table()).
 */
#ifndef ARENA_EXPORT_H
#define ARENA_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "coordinator/db.h"

enum export_format {
	EXPORT_TABLE,
	EXPORT_CSV,
	EXPORT_MD,
	EXPORT_JSON,
	EXPORT_HTML,
};

/* 0 and *out for "table", "csv", "md", "json" or "html"; -1 otherwise
 * (after logging the names it takes). */
int export_format_parse(const char *name, enum export_format *out);

/* Writes standings rows (ordered as db_standings() gives them) to out.
 * title (the tournament's name, or NULL) heads the table, md and html
 * forms. Returns 0, or -1 when out could not be written. */
int export_standings(FILE *out, enum export_format format, const char *title,
    const struct db_standing *rows, size_t n);

/* Writes a table with named columns (stage, group, rank, entry, then
 * numbers, as db_stage_table() gives) like standings. */
int export_table(FILE *out, enum export_format format, const char *title,
    const struct db_rows *t, const char *const *cols);

/* Writes game rows as csv or json (other formats: -1 after logging).
 * Returns 0, or -1 when out could not be written. */
int export_games(FILE *out, enum export_format format,
    const struct db_game_row *rows, size_t n);

/* For the read-only commands: connects (pgembed_resolve(db_url, data_dir))
 * and finds the tournament named by the spec at spec_path, else by name,
 * else the latest. Returns 0 with *db, *id and *title (its name), or -1
 * after saying why. Caller owns *db (db_free()) and *title (free()). */
int export_open(const char *spec_path, const char *name, const char *db_url,
    const char *data_dir, struct db **db, int64_t *id, char **title);

#endif
