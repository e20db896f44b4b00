/*
 * db_internal: private to the db module (coordinator/db*.c), not for other
 * modules, and the only header that includes libpq-fe.h. db.c holds the
 * connection and these helpers; db_play.c and db_report.c run their
 * statements through them.
 */
#ifndef ARENA_DB_INTERNAL_H
#define ARENA_DB_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <libpq-fe.h>

struct db {
	PGconn *conn;
	bool in_tx;		/* inside BEGIN: never reconnect silently */
};

/* A decimal rendering of an integer, for text parameters. */
struct num {
	char s[24];
};

/* Renders v into n and returns its text. */
const char *db_i64(struct num *n, int64_t v);

/* Runs sql with n text parameters (NULL pointers are SQL NULLs). Returns
 * the result, or NULL after logging the error. Caller PQclear()s. */
PGresult *db_query(struct db *db, const char *sql, int n,
    const char *const *params);
/* As db_query; lengths (NULL: all text) gives each parameter's length,
 * -1 for a text one, else it is binary; result_format 1 asks for binary
 * fields. At most DB_MAX_PARAMS parameters. */
#define DB_MAX_PARAMS 16
PGresult *db_query_bin(struct db *db, const char *sql, int n,
    const char *const *params, const int *lengths, int result_format);
int db_exec(struct db *db, const char *sql, int n, const char *const *params);
int db_begin(struct db *db);
int db_commit(struct db *db);
/* After a failure inside a transaction; harmless outside one. */
void db_rollback(struct db *db);

/* Field (row, col) of res as an integer, a string the caller frees (NULL
 * for SQL NULL) or a boolean. */
int64_t db_get_i64(const PGresult *res, int row, int col);
char *db_get_str(const PGresult *res, int row, int col);
bool db_get_bool(const PGresult *res, int row, int col);

#endif
