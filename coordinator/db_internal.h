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
/* Runs sql with one parameter and returns its first column, integers, as
 * *ids (caller frees) and their number *n. 0, or -1 after logging. */
int db_query_ids(struct db *db, const char *sql, const char *param,
    int64_t **ids, size_t *n);
int db_begin(struct db *db);
int db_commit(struct db *db);
/* After a failure inside a transaction; harmless outside one. */
void db_rollback(struct db *db);

/* Field (row, col) of res as an integer, a string the caller frees (NULL
 * for SQL NULL) or a boolean. */
int64_t db_get_i64(const PGresult *res, int row, int col);
char *db_get_str(const PGresult *res, int row, int col);
bool db_get_bool(const PGresult *res, int row, int col);

/* As db_query, for a hot statement of the dispatch loop: prepared once per
 * connection under name (db_prepared.c). A lost connection is logged at a
 * bounded rate. */
PGresult *db_query_prepared(struct db *db, const char *name, const char *sql,
    int n, const char *const *params);
/* Logs that the connection is lost: once, then at most once a minute with
 * how many calls failed meanwhile (db_prepared.c). */
void db_lost_log(void);
/* Logs why the last statement failed (res may be NULL): a lost connection
 * through db_lost_log(), anything else as an error. Returns -1. */
int db_failed(struct db *db, const PGresult *res);

/*
 * Leasing games (db_play.c, db_claim.c): CLAIM_UPDATE is the UPDATE of the
 * games in a CTE "next" (id) to running for worker $2 until now + $3 ms,
 * recording each seat's artifact; CLAIM_SELECT reads what a worker needs
 * back, one row per game in plan order, seats as arrays indexed in fixed
 * columns (no dataset repeated per seat); db_claim_fill() reads a row.
 */
#define CLAIM_UPDATE \
	"upd AS (UPDATE games g SET state = 'running', worker = $2, " \
	"lease_until = now() + $3::float8 * interval '1 millisecond', " \
	"artifacts = (SELECT array_agg(e.artifact ORDER BY gs.seat) " \
	"FROM game_seats gs JOIN entries e ON e.id = gs.entry_id " \
	"WHERE gs.game_id = g.id) FROM next, datasets d, tournaments t " \
	"WHERE g.id = next.id AND d.id = g.dataset_id " \
	"AND t.id = d.tournament_id RETURNING g.id, g.match_id, g.idx, " \
	"g.attempt, t.game, d.name AS dname, d.content, g.seed, t.call_ms, " \
	"t.game_ms, t.memory_mb, t.resident_mb, t.clock = 'cpu' AS cpu, " \
	"t.ponder, g.artifacts) "
#define CLAIM_SEAT(i) ", s.nm[" #i "], s.f[" #i "], s.b[" #i "], " \
	"s.r[" #i "], u.artifacts[" #i "]"
#define CLAIM_SELECT \
	"SELECT u.id, u.attempt, u.game, u.dname, u.content, u.seed, " \
	"u.call_ms, u.game_ms, u.memory_mb, u.resident_mb, u.cpu, u.ponder, " \
	"s.n" CLAIM_SEAT(1) CLAIM_SEAT(2) CLAIM_SEAT(3) CLAIM_SEAT(4) \
	CLAIM_SEAT(5) CLAIM_SEAT(6) CLAIM_SEAT(7) CLAIM_SEAT(8) \
	" FROM upd u CROSS JOIN LATERAL (SELECT count(*) AS n, " \
	"array_agg(e.name ORDER BY gs.seat) AS nm, " \
	"array_agg(e.folder ORDER BY gs.seat) AS f, " \
	"array_agg(e.build ORDER BY gs.seat) AS b, " \
	"array_agg(e.run ORDER BY gs.seat) AS r FROM game_seats gs " \
	"JOIN entries e ON e.id = gs.entry_id WHERE gs.game_id = u.id) s " \
	"ORDER BY u.match_id, u.idx"
struct msg_game;
void db_claim_fill(struct msg_game *game, const PGresult *res, int row);

#endif
