/*
 * db_play: the games' life in the database, while a tournament is played:
 * leasing games to workers, recording their results, putting games back
 * in the queue, and counting what is done.
 *
 * Every change is one statement or one transaction:
 *
 *	claim	 one UPDATE picks the next queued game (FOR UPDATE SKIP
 *		 LOCKED, so concurrent claimers never get the same game),
 *		 leases it and returns everything a worker needs;
 *	record	 locks the game row, checks it is still running with the
 *		 delivered attempt, inserts the result keyed by (game,
 *		 attempt) and points the game at it; anything stale or
 *		 duplicate changes nothing;
 *	requeue	 an XX result, an explicit requeue, an expired lease or a
 *		 lost worker put the game back with attempt + 1 and a
 *		 game_events row, or, once the game has had DB_MAX_ATTEMPTS
 *		 attempts without a result, mark it 'failed' (a 'gave_up'
 *		 event, an error in the log): never scored, and the
 *		 tournament stops until someone reruns it.
 */
#include "coordinator/db.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db_internal.h"

void
db_claim_fill(struct msg_game *game, const PGresult *res, int row)
{
	int64_t n = db_get_i64(res, row, 12);

	memset(game, 0, sizeof *game);
	game->game_id = db_get_i64(res, row, 0);
	game->attempt = (int32_t)db_get_i64(res, row, 1);
	game->game = db_get_str(res, row, 2);
	game->dataset_name = db_get_str(res, row, 3);
	game->dataset = db_get_str(res, row, 4);
	game->seed = strtoull(PQgetvalue(res, row, 5), NULL, 10);
	game->limits.call_ms = db_get_i64(res, row, 6);
	game->limits.game_ms = db_get_i64(res, row, 7);
	game->limits.memory_mb = db_get_i64(res, row, 8);
	game->limits.resident_mb = db_get_i64(res, row, 9);
	game->limits.clock = db_get_bool(res, row, 10) ? SPEC_CLOCK_CPU :
	    SPEC_CLOCK_WALL;
	game->limits.ponder = db_get_bool(res, row, 11);
	game->nseats = n < 0 ? 0 : n > PROTO_MAX_SEATS ? PROTO_MAX_SEATS :
	    (uint32_t)n;
	for (uint32_t i = 0; i < game->nseats; i++) {
		struct msg_seat *seat = &game->seats[i];
		int col = 13 + 5 * (int)i;

		seat->entry = db_get_str(res, row, col);
		seat->folder = db_get_str(res, row, col + 1);
		seat->build = db_get_str(res, row, col + 2);
		seat->run = db_get_str(res, row, col + 3);
		seat->artifact = db_get_str(res, row, col + 4);
	}
}

int
db_game_claim(struct db *db, int64_t tournament_id, const char *worker,
    int64_t lease_ms, struct msg_game *game)
{
	struct num tid, lease;
	const char *params[] = { db_i64(&tid, tournament_id), worker,
	    db_i64(&lease, lease_ms) };
	/* Plan order is (match id, idx): stages are stored one after the
	 * other and their matches in order. The tournament test is a
	 * subquery per row, so the planner walks the games_queued index and
	 * stops at the first game: a join would sort every queued game (or
	 * walk every played match) of the tournament, at each claim. */
	PGresult *res = db_query(db, "WITH next AS ("
	    "SELECT g.id FROM games g WHERE g.state = 'queued' AND "
	    "(SELECT s.tournament_id FROM matches m JOIN stages s "
	    "ON s.id = m.stage_id WHERE m.id = g.match_id) = $1 "
	    "ORDER BY g.match_id, g.idx LIMIT 1 FOR UPDATE SKIP LOCKED), "
	    CLAIM_UPDATE CLAIM_SELECT, 3, params);

	if (res == NULL)
		return -1;
	if (PQntuples(res) == 0) {
		PQclear(res);
		return 0;
	}
	db_claim_fill(game, res, 0);
	PQclear(res);
	return 1;
}

/*
 * The attempt cap, shared by every path that ends an attempt without a
 * result: `old` (a CTE the caller writes, the rows locked FOR UPDATE with
 * id, attempt, retry_from and worker) moves back to the queue with attempt
 * + 1, or, at its DB_MAX_ATTEMPTS-th attempt of the series, to 'failed'
 * with a 'gave_up' event after the attempt's own. One statement, so the
 * history rows and the state change go together. $1 is the cap; kind and
 * reason are SQL expressions over old.
 */
#define REQUEUE_TAIL(kind, reason) \
	"upd AS (UPDATE games g SET state = CASE WHEN old.attempt - " \
	"old.retry_from + 1 >= $1::int THEN 'failed' ELSE 'queued' END, " \
	"attempt = CASE WHEN old.attempt - old.retry_from + 1 >= $1::int " \
	"THEN g.attempt ELSE g.attempt + 1 END, worker = NULL, " \
	"lease_until = NULL FROM old WHERE g.id = old.id), " \
	"ev AS (INSERT INTO game_events (game_id, attempt, kind, reason, " \
	"worker) SELECT id, attempt, " kind ", " reason ", worker FROM old), " \
	"gave AS (INSERT INTO game_events (game_id, attempt, kind, reason, " \
	"worker, at) SELECT id, attempt, 'gave_up', (attempt - retry_from + 1) " \
	"|| ' attempts without a result', NULL, " \
	"now() + interval '1 microsecond' FROM old " \
	"WHERE attempt - retry_from + 1 >= $1::int) " \
	"SELECT id, attempt, attempt - retry_from + 1 >= $1::int FROM old"

static const char *
cap_param(struct num *n)
{
	return db_i64(n, DB_MAX_ATTEMPTS);
}

/* Logs the games res (from REQUEUE_TAIL) gave up on; *n how many moved. */
static void
requeued(PGresult *res, const char *by, int *n)
{
	*n = PQntuples(res);
	for (int i = 0; i < *n; i++)
		if (db_get_bool(res, i, 2))
			log_error("game %s failed %s times without a result "
			    "(last: %s); it is not scored and its stage "
			    "cannot complete: look with 'arena show game %s', "
			    "retry with 'arena rerun --game %s --reason TEXT'",
			    PQgetvalue(res, i, 0), PQgetvalue(res, i, 1), by,
			    PQgetvalue(res, i, 0), PQgetvalue(res, i, 0));
}

/* Requeues (game, attempt) if it is still running at that attempt (or
 * fails it at the cap); *n is how many games moved (0 or 1). */
static int
requeue(struct db *db, const char *gid, const char *attempt,
    const char *kind, const char *reason, int *n)
{
	struct num cap;
	const char *params[] = { cap_param(&cap), gid, attempt, kind, reason };
	PGresult *res = db_query(db, "WITH old AS ("
	    "SELECT id, attempt, retry_from, worker FROM games WHERE id = $2 "
	    "AND attempt = $3 AND state = 'running' FOR UPDATE), "
	    REQUEUE_TAIL("$4::text", "$5::text"), 5, params);

	if (res == NULL)
		return -1;
	requeued(res, reason, n);
	PQclear(res);
	return 0;
}

int
db_game_requeue(struct db *db, int64_t game_id, int32_t attempt,
    const char *reason)
{
	struct num gid, att;
	int n;

	if (requeue(db, db_i64(&gid, game_id), db_i64(&att, attempt), "requeue",
	    reason ? reason : "", &n) < 0)
		return -1;
	if (n)
		log_info("game %" PRId64 " attempt %d requeued: %s", game_id,
		    attempt, reason ? reason : "");
	return 0;
}

/* Requeues the running games whose lease ran out or, with worker set,
 * every game leased to that worker, recording why in game_events. */
static int
requeue_leases(struct db *db, int64_t tournament_id, const char *worker,
    int *n)
{
	struct num tid, cap;
	const char *params[] = { cap_param(&cap), db_i64(&tid, tournament_id),
	    worker };
	PGresult *res = db_query(db, "WITH old AS ("
	    "SELECT g.id, g.attempt, g.retry_from, g.worker FROM games g "
	    "JOIN matches m ON m.id = g.match_id "
	    "JOIN stages s ON s.id = m.stage_id "
	    "WHERE s.tournament_id = $2 AND g.state = 'running' "
	    "AND (($3::text IS NULL AND g.lease_until < now()) "
	    "OR g.worker = $3::text) FOR UPDATE OF g SKIP LOCKED), "
	    REQUEUE_TAIL("CASE WHEN $3::text IS NULL THEN 'lease_expired' "
	    "ELSE 'worker_lost' END",
	    "CASE WHEN $3::text IS NULL THEN 'lease of ' || worker || "
	    "' expired' ELSE 'worker ' || worker || ' is gone' END"), 3,
	    params);

	if (res == NULL)
		return -1;
	requeued(res, worker ? "its worker was lost" : "its lease expired", n);
	PQclear(res);
	return 0;
}

int
db_leases_expire(struct db *db, int64_t tournament_id, int *n)
{
	if (requeue_leases(db, tournament_id, NULL, n) < 0)
		return -1;
	if (*n)
		log_info("%d expired lease%s requeued", *n, *n == 1 ? "" : "s");
	return 0;
}

int
db_worker_lost(struct db *db, int64_t tournament_id, const char *worker,
    int *n)
{
	if (requeue_leases(db, tournament_id, worker, n) < 0)
		return -1;
	if (*n)
		log_info("%d game%s of lost worker '%s' requeued", *n,
		    *n == 1 ? "" : "s", worker);
	return 0;
}

int
db_progress(struct db *db, int64_t tournament_id, int64_t *done,
    int64_t *total)
{
	struct num tid;
	const char *params[] = { db_i64(&tid, tournament_id) };
	PGresult *res = db_query(db, "SELECT count(*) FILTER (WHERE "
	    "g.state = 'done'), count(*) FROM games g "
	    "JOIN matches m ON m.id = g.match_id "
	    "JOIN stages s ON s.id = m.stage_id WHERE s.tournament_id = $1",
	    1, params);

	if (res == NULL)
		return -1;
	*done = db_get_i64(res, 0, 0);
	*total = db_get_i64(res, 0, 1);
	PQclear(res);
	return 0;
}
