/*
 * db_verify: what `arena verify` needs to play a game again without its
 * bots: the game's referee, dataset and seed, and its counted result
 * (scores, end reason, replay).
 */
#include "coordinator/db.h"

#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db_internal.h"

int
db_game_counted(struct db *db, int64_t game_id, struct db_counted *c)
{
	struct num id;
	const char *params[] = { db_i64(&id, game_id) };
	PGresult *res;
	int found;

	memset(c, 0, sizeof *c);
	c->game = game_id;
	res = db_query(db, "SELECT t.game, d.name, d.content, g.seed, "
	    "r.attempt, r.referee, r.end_reason, r.replay "
	    "FROM games g JOIN results r ON r.id = g.result_id "
	    "JOIN datasets d ON d.id = g.dataset_id "
	    "JOIN tournaments t ON t.id = d.tournament_id "
	    "WHERE g.id = $1", 1, params);
	if (res == NULL)
		return -1;
	found = PQntuples(res) > 0;
	if (found) {
		c->referee_game = db_get_str(res, 0, 0);
		c->dataset_name = db_get_str(res, 0, 1);
		c->dataset = db_get_str(res, 0, 2);
		c->seed = strtoull(PQgetvalue(res, 0, 3), NULL, 10);
		c->attempt = (int32_t)db_get_i64(res, 0, 4);
		c->referee = db_get_str(res, 0, 5);
		c->end_reason = db_get_str(res, 0, 6);
		c->replay = db_get_str(res, 0, 7);
	}
	PQclear(res);
	if (found && db_query_ids(db, "SELECT s.score FROM games g "
	    "JOIN result_seats s ON s.result_id = g.result_id "
	    "WHERE g.id = $1 ORDER BY s.seat", params[0], &c->scores,
	    &c->nseats) < 0) {
		db_counted_release(c);
		return -1;
	}
	return found;
}

void
db_counted_release(struct db_counted *c)
{
	free(c->referee_game);
	free(c->dataset_name);
	free(c->dataset);
	free(c->referee);
	free(c->end_reason);
	free(c->replay);
	free(c->scores);
	memset(c, 0, sizeof *c);
}

int
db_counted_games(struct db *db, int64_t tournament_id, int64_t **ids,
    size_t *n)
{
	struct num tid;

	return db_query_ids(db, "SELECT g.id FROM games g "
	    "JOIN datasets d ON d.id = g.dataset_id "
	    "WHERE d.tournament_id = $1 AND g.result_id IS NOT NULL "
	    "ORDER BY g.id", db_i64(&tid, tournament_id), ids, n);
}
