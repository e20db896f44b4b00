/*
 * db_report: reading a tournament back: its name or id, the state and
 * advancers of a stage, standings and the list of played games.
 *
 * Aggregation (match results, standings, advancers) lives in the views of
 * schema.sql; this file only selects from them.
 */
#include "coordinator/db.h"

#include <inttypes.h>
#include <stdlib.h>

#include "common/log.h"
#include "coordinator/db_internal.h"

int
db_tournament_find(struct db *db, const char *name, int64_t *id)
{
	const char *params[] = { name };
	PGresult *res;
	int found;

	if (name)
		res = db_query(db, "SELECT id FROM tournaments WHERE name = $1",
		    1, params);
	else
		res = db_query(db, "SELECT id FROM tournaments "
		    "ORDER BY created_at DESC, id DESC LIMIT 1", 0, NULL);
	if (res == NULL)
		return -1;
	found = PQntuples(res) > 0;
	if (found)
		*id = db_get_i64(res, 0, 0);
	PQclear(res);
	return found;
}

int
db_tournament_name(struct db *db, int64_t id, char **name)
{
	struct num tid;
	const char *params[] = { db_i64(&tid, id) };
	PGresult *res = db_query(db, "SELECT name FROM tournaments "
	    "WHERE id = $1", 1, params);
	int ret = 0;

	if (res == NULL)
		return -1;
	if (PQntuples(res) == 0)
		ret = log_error("no tournament %" PRId64, id);
	else
		*name = db_get_str(res, 0, 0);
	PQclear(res);
	return ret;
}

int
db_stage_state(struct db *db, int64_t tournament_id, size_t stage,
    enum db_stage_state *state)
{
	struct num tid, sidx;
	const char *params[] = { db_i64(&tid, tournament_id),
	    db_i64(&sidx, (int64_t)stage) };
	PGresult *res = db_query(db, "SELECT expanded, "
	    "games - done, queued + running, failed FROM stage_progress "
	    "WHERE tournament_id = $1 AND stage_idx = $2", 2, params);
	int ret = 0;

	if (res == NULL)
		return -1;
	if (PQntuples(res) != 1)
		ret = log_error("tournament %" PRId64 " has no stage %zu",
		    tournament_id, stage);
	else if (!db_get_bool(res, 0, 0))
		*state = DB_STAGE_PENDING;
	else if (db_get_i64(res, 0, 1) == 0)
		*state = DB_STAGE_DONE;
	else if (db_get_i64(res, 0, 2) == 0 && db_get_i64(res, 0, 3) > 0)
		*state = DB_STAGE_BLOCKED;
	else
		*state = DB_STAGE_RUNNING;
	PQclear(res);
	return ret;
}

int
db_stage_advancers(struct db *db, int64_t tournament_id, size_t stage,
    size_t **entries, size_t *n)
{
	enum db_stage_state state;
	struct num tid, sidx;
	const char *params[] = { db_i64(&tid, tournament_id),
	    db_i64(&sidx, (int64_t)stage) };
	PGresult *res;

	if (db_stage_state(db, tournament_id, stage, &state) < 0)
		return -1;
	if (state != DB_STAGE_DONE)
		return log_error("stage %zu is not finished: no advancers yet",
		    stage);
	res = db_query(db, "SELECT entry_idx FROM advancers "
	    "WHERE tournament_id = $1 AND stage_idx = $2 "
	    "ORDER BY group_idx, place", 2, params);
	if (res == NULL)
		return -1;
	*n = (size_t)PQntuples(res);
	*entries = xcalloc(*n + 1, sizeof **entries);
	for (size_t i = 0; i < *n; i++)
		(*entries)[i] = (size_t)db_get_i64(res, (int)i, 0);
	PQclear(res);
	return 0;
}

static int
stage_exists(struct db *db, const char *tid, const char *stage)
{
	const char *params[] = { tid, stage };
	PGresult *res = db_query(db, "SELECT 1 FROM stages WHERE "
	    "tournament_id = $1 AND name = $2", 2, params);
	int found;

	if (res == NULL)
		return -1;
	found = PQntuples(res) > 0;
	PQclear(res);
	if (!found)
		return log_error("no stage '%s' in this tournament", stage);
	return 0;
}

int
db_standings(struct db *db, int64_t tournament_id, const char *stage,
    struct db_standing **rows, size_t *n)
{
	struct num tid;
	const char *params[] = { db_i64(&tid, tournament_id), stage };
	PGresult *res;

	if (stage && stage_exists(db, tid.s, stage) < 0)
		return -1;
	res = db_query(db, "SELECT stage_name, group_name, rank, entry_name, "
	    "played, won, drawn, lost, points, games_won, net_points "
	    "FROM standings WHERE tournament_id = $1 "
	    "AND ($2::text IS NULL OR stage_name = $2) "
	    "ORDER BY stage_idx, group_idx, rank, entry_name", 2, params);
	if (res == NULL)
		return -1;
	*n = (size_t)PQntuples(res);
	*rows = xcalloc(*n + 1, sizeof **rows);
	for (int i = 0; i < (int)*n; i++) {
		struct db_standing *s = &(*rows)[i];

		s->stage = db_get_str(res, i, 0);
		s->group = db_get_str(res, i, 1);
		s->rank = (int)db_get_i64(res, i, 2);
		s->entry = db_get_str(res, i, 3);
		s->played = (int)db_get_i64(res, i, 4);
		s->won = (int)db_get_i64(res, i, 5);
		s->drawn = (int)db_get_i64(res, i, 6);
		s->lost = (int)db_get_i64(res, i, 7);
		s->points = (int)db_get_i64(res, i, 8);
		s->games_won = (int)db_get_i64(res, i, 9);
		s->net_points = db_get_i64(res, i, 10);
	}
	PQclear(res);
	return 0;
}

void
db_standings_free(struct db_standing *rows, size_t n)
{
	if (rows == NULL)
		return;
	for (size_t i = 0; i < n; i++) {
		free(rows[i].stage);
		free(rows[i].group);
		free(rows[i].entry);
	}
	free(rows);
}

int
db_games(struct db *db, int64_t tournament_id, struct db_game_row **rows,
    size_t *n)
{
	struct num tid;
	const char *params[] = { db_i64(&tid, tournament_id) };
	PGresult *res = db_query(db, "SELECT stage_name, group_name, match_id, "
	    "game_id, dataset_name, first_name, second_name, score_first, "
	    "score_second, winner_name, end_reason, seat_names, seat_scores, "
	    "nseats FROM game_list "
	    "WHERE tournament_id = $1 AND state = 'done' "
	    "AND replaced_by IS NULL "
	    "ORDER BY stage_idx, group_idx, match_idx, game_idx", 1, params);

	if (res == NULL)
		return -1;
	*n = (size_t)PQntuples(res);
	*rows = xcalloc(*n + 1, sizeof **rows);
	for (int i = 0; i < (int)*n; i++) {
		struct db_game_row *g = &(*rows)[i];

		g->stage = db_get_str(res, i, 0);
		g->group = db_get_str(res, i, 1);
		g->match = db_get_i64(res, i, 2);
		g->game = db_get_i64(res, i, 3);
		g->dataset = db_get_str(res, i, 4);
		g->first = db_get_str(res, i, 5);
		g->second = db_get_str(res, i, 6);
		g->score_first = db_get_i64(res, i, 7);
		g->score_second = db_get_i64(res, i, 8);
		g->winner = db_get_str(res, i, 9);
		g->end_reason = db_get_str(res, i, 10);
		g->seats = db_get_str(res, i, 11);
		g->scores = db_get_str(res, i, 12);
		g->nseats = (int)db_get_i64(res, i, 13);
	}
	PQclear(res);
	return 0;
}

void
db_games_free(struct db_game_row *rows, size_t n)
{
	if (rows == NULL)
		return;
	for (size_t i = 0; i < n; i++) {
		free(rows[i].stage);
		free(rows[i].group);
		free(rows[i].dataset);
		free(rows[i].first);
		free(rows[i].second);
		free(rows[i].winner);
		free(rows[i].end_reason);
		free(rows[i].seats);
		free(rows[i].scores);
	}
	free(rows);
}
