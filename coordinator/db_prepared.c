/*
 * db_prepared: the dispatch loop's hot statements, parsed and planned
 * once per connection (PQprepare) rather than at each call: planning the
 * claim and the batch record costs more than running them.
 *
 * A statement is known by its name; the first call on a connection (a new
 * one, or one PQreset after the server restarted, which forgets them: it
 * has another backend pid) prepares it. A statement that is still not
 * prepared (a pid reused) fails once outside a transaction and is
 * prepared again; inside one, the caller's transaction fails and the
 * caller tries again later, as after any failure.
 *
 * A lost connection is logged once, then at most once a minute with how
 * many calls failed meanwhile, where db_query would log each: the
 * dispatch loop retries every few seconds for as long as the server is
 * down.
 */
#include <string.h>

#include "common/clock.h"
#include "common/log.h"
#include "coordinator/db_internal.h"

#define LOST_LOG_MS 60000
#define MAX_PREPARED 16

/* Which backend each statement was prepared on. */
static struct {
	const char *name;
	int pid;
} prepared[MAX_PREPARED];

static int64_t lost_logged_at;	/* monotonic ms; 0: connection fine */
static long lost_hushed;

void
db_lost_log(void)
{
	int64_t now = clock_now_ms();

	if (lost_logged_at && now - lost_logged_at < LOST_LOG_MS) {
		lost_hushed++;
		return;
	}
	log_warn("database connection lost; reconnecting%s",
	    lost_hushed ? " (still)" : "");
	if (lost_hushed)
		log_warn("%ld more database calls failed on a lost connection "
		    "in the last %d s", lost_hushed, LOST_LOG_MS / 1000);
	lost_logged_at = now;
	lost_hushed = 0;
}

static bool
ok(const PGresult *res)
{
	ExecStatusType st = PQresultStatus(res);

	return st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
}

/* Whether res says the statement is not prepared on this connection. */
static bool
unprepared(const PGresult *res)
{
	const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

	return state && strcmp(state, "26000") == 0;
}

static PGresult *
failed(struct db *db, PGresult *res)
{
	db_failed(db, res);
	PQclear(res);
	return NULL;
}

/* The slot of name in prepared[], taken if new. */
static int
slot(const char *name)
{
	int i;

	for (i = 0; i < MAX_PREPARED && prepared[i].name; i++)
		if (strcmp(prepared[i].name, name) == 0)
			return i;
	if (i == MAX_PREPARED)
		fatal("more than %d prepared statements", MAX_PREPARED);
	prepared[i].name = name;
	return i;
}

static int
prepare(struct db *db, int i, const char *sql, int n)
{
	PGresult *res;

	/* Else the server may plan every call anew, as it does for a
	 * statement's first five, whenever a plan for the values given
	 * looks cheaper: planning is what this saves. Their generic plans
	 * read the games by index whatever the values. Only prepared
	 * statements are affected: the others are planned at each call. */
	res = PQexec(db->conn, "SET plan_cache_mode = force_generic_plan");
	if (!ok(res)) {
		failed(db, res);
		return -1;
	}
	PQclear(res);
	res = PQprepare(db->conn, prepared[i].name, sql, n, NULL);

	if (!ok(res)) {
		failed(db, res);
		return -1;
	}
	PQclear(res);
	prepared[i].pid = PQbackendPID(db->conn);
	return 0;
}

PGresult *
db_query_prepared(struct db *db, const char *name, const char *sql, int n,
    const char *const *params)
{
	int i = slot(name);
	PGresult *res;

	if (!db->in_tx && PQstatus(db->conn) == CONNECTION_BAD) {
		db_lost_log();
		PQreset(db->conn);
		if (PQstatus(db->conn) == CONNECTION_BAD)
			return failed(db, NULL);
	}
	if (prepared[i].pid != PQbackendPID(db->conn) &&
	    prepare(db, i, sql, n) < 0)
		return NULL;
	res = PQexecPrepared(db->conn, name, n, params, NULL, NULL, 0);
	if (unprepared(res) && !db->in_tx) {
		PQclear(res);
		if (prepare(db, i, sql, n) < 0)
			return NULL;
		res = PQexecPrepared(db->conn, name, n, params, NULL, NULL, 0);
	}
	if (!ok(res))
		return failed(db, res);
	if (lost_logged_at) {
		log_info("database connection back");
		lost_logged_at = 0;
	}
	return res;
}
