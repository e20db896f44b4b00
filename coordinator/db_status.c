/*
 * db_status: what `arena status` and the coordinator's loop ask about a
 * tournament in progress: games per stage and state, the workers the
 * coordinator has heard from (db_worker_seen(), from its heartbeat timer)
 * with games done and failures derived from the history, running games
 * with their leases, and the games that failed at least once.
 *
 * The status queries return text tables (struct db_rows): they are read
 * by people, and each column is what its query's SELECT list says.
 */
#include "coordinator/db.h"

#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db_internal.h"

int
db_games_failed(struct db *db, int64_t tournament_id, int64_t **games,
    size_t *n, int64_t *active)
{
	struct num tid;
	const char *params[] = { db_i64(&tid, tournament_id) };
	PGresult *res = db_query(db, "SELECT g.id, g.state = 'failed' "
	    "FROM games g JOIN matches m ON m.id = g.match_id "
	    "JOIN stages s ON s.id = m.stage_id WHERE s.tournament_id = $1 "
	    "AND g.state IN ('queued', 'running', 'failed') ORDER BY g.id", 1,
	    params);

	if (res == NULL)
		return -1;
	*games = xcalloc((size_t)PQntuples(res) + 1, sizeof **games);
	*n = 0;
	*active = 0;
	for (int i = 0; i < PQntuples(res); i++) {
		if (db_get_bool(res, i, 1))
			(*games)[(*n)++] = db_get_i64(res, i, 0);
		else
			(*active)++;
	}
	PQclear(res);
	return 0;
}

int
db_worker_seen(struct db *db, int64_t tournament_id, const char *name,
    const char *address, int slots)
{
	struct num tid, sl;
	const char *params[] = { db_i64(&tid, tournament_id), name, address,
	    db_i64(&sl, slots) };

	return db_exec(db, "INSERT INTO workers (tournament_id, name, address, "
	    "slots) VALUES ($1, $2, $3, $4) ON CONFLICT (tournament_id, name) "
	    "DO UPDATE SET address = coalesce(EXCLUDED.address, "
	    "workers.address), slots = EXCLUDED.slots, last_seen = now()", 4,
	    params);
}

static int
rows_query(struct db *db, const char *sql, int64_t tournament_id,
    struct db_rows *t)
{
	struct num tid;
	const char *params[] = { db_i64(&tid, tournament_id) };
	PGresult *res = db_query(db, sql, 1, params);

	memset(t, 0, sizeof *t);
	if (res == NULL)
		return -1;
	t->nrows = (size_t)PQntuples(res);
	t->ncols = (size_t)PQnfields(res);
	t->cells = xcalloc(t->nrows * t->ncols + 1, sizeof *t->cells);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			t->cells[r * t->ncols + c] = db_get_str(res, (int)r,
			    (int)c);
	PQclear(res);
	return 0;
}

int
db_status_stages(struct db *db, int64_t tournament_id, struct db_rows *t)
{
	return rows_query(db, "SELECT stage_name, expanded, games, done, "
	    "running, queued, failed FROM stage_progress "
	    "WHERE tournament_id = $1 ORDER BY stage_idx", tournament_id, t);
}

int
db_status_workers(struct db *db, int64_t tournament_id, struct db_rows *t)
{
	return rows_query(db, "SELECT name, address, slots, "
	    "date_trunc('second', last_seen)::text, "
	    "extract(epoch FROM now() - last_seen)::bigint, games_done, "
	    "failures, running FROM worker_health WHERE tournament_id = $1 "
	    "ORDER BY name", tournament_id, t);
}

int
db_status_running(struct db *db, int64_t tournament_id, struct db_rows *t)
{
	return rows_query(db, "SELECT g.id, g.match_id, g.worker, g.attempt, "
	    "date_trunc('second', g.lease_until)::text, "
	    "extract(epoch FROM g.lease_until - now())::bigint "
	    "FROM games g JOIN matches m ON m.id = g.match_id "
	    "JOIN stages s ON s.id = m.stage_id WHERE s.tournament_id = $1 "
	    "AND g.state = 'running' ORDER BY g.lease_until, g.id",
	    tournament_id, t);
}

int
db_status_failing(struct db *db, int64_t tournament_id, struct db_rows *t)
{
	return rows_query(db, "SELECT g.id, g.match_id, g.state, g.attempt, "
	    "e.kind, e.reason, e.worker, date_trunc('second', e.at)::text "
	    "FROM games g JOIN matches m ON m.id = g.match_id "
	    "JOIN stages s ON s.id = m.stage_id "
	    "LEFT JOIN LATERAL (SELECT * FROM game_events x "
	    "WHERE x.game_id = g.id ORDER BY x.at DESC, x.id DESC LIMIT 1) e "
	    "ON true WHERE s.tournament_id = $1 AND (g.state = 'failed' OR "
	    "(g.state <> 'done' AND g.attempt > g.retry_from)) "
	    "ORDER BY g.state = 'failed' DESC, g.id", tournament_id, t);
}

void
db_rows_release(struct db_rows *t)
{
	if (t->cells)
		for (size_t i = 0; i < t->nrows * t->ncols; i++)
			free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof *t);
}

const char *
db_rows_cell(const struct db_rows *t, size_t row, size_t col)
{
	const char *s = t->cells[row * t->ncols + col];

	return s ? s : "";
}
