/*
 * db_rerun: disputes. `arena rerun` puts games back in the queue with a
 * reason, in one transaction that also records who asked, which attempts
 * it supersedes and the stage's standings and advancers before; the old
 * results stay in `results`, no longer pointed at by games.result_id, so
 * the standings views stop counting them at once. When the games have
 * results again, db_rerun_finish() stores the standings after, and
 * db_rerun_info() lists the rows that differ.
 *
 * A rerun never touches a later stage already expanded from the stage's
 * standings: its games were played by the entrants of the time, and
 * replaying them silently would rewrite more than was asked. The
 * stale_stages view says when the advancers no longer match, and the CLI
 * says it loudly; the organiser decides (a new tournament from the spec,
 * or reruns of the later stage's matches).
 */
#include "coordinator/db.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db_internal.h"

/* The standings of stage $N as a jsonb array of rows, in the round-robin
 * shape whatever the format: a gauntlet's points are its total (games won
 * as games_won), a combinations stage's the average score (won: games
 * won alone; net_points: its score total), an all_vs_all stage's the
 * total (net_points: its score sum). */
#define STANDINGS_JSON(stage) \
	"(SELECT coalesce(jsonb_agg(to_jsonb(x) ORDER BY x.group_idx, " \
	"x.rank, x.entry_name), '[]') FROM (SELECT group_idx, group_name, " \
	"rank, entry_name, played, won, drawn, lost, points, games_won, " \
	"net_points FROM standings WHERE stage_id = " stage " UNION ALL " \
	"SELECT group_idx, group_name, rank, entry_name, played, won, " \
	"drawn, lost, points, won, 0 FROM gauntlet_standings " \
	"WHERE stage_id = " stage " UNION ALL SELECT group_idx, " \
	"group_name, rank, entry_name, played, won, 0, 0, average, won, " \
	"total FROM combination_standings WHERE stage_id = " stage \
	" UNION ALL SELECT group_idx, group_name, rank, entry_name, " \
	"played, 0, 0, 0, total, 0, score_sum FROM all_vs_all_standings " \
	"WHERE stage_id = " stage ") x)"

/* A "{1,2,3}" array literal of ids; caller frees. */
static char *
id_array(const int64_t *ids, size_t n)
{
	char *buf = xmalloc(n * 24 + 3);
	size_t len = 1;

	buf[0] = '{';
	for (size_t i = 0; i < n; i++) {
		struct num v;

		len += (size_t)sprintf(buf + len, "%s%s", i ? "," : "",
		    db_i64(&v, ids[i]));
	}
	strcpy(buf + len, "}");
	return buf;
}

int
db_game_tournament(struct db *db, int64_t game_id, int64_t *tournament_id)
{
	struct num gid;
	const char *params[] = { db_i64(&gid, game_id) };
	PGresult *res = db_query(db, "SELECT s.tournament_id FROM games g "
	    "JOIN matches m ON m.id = g.match_id "
	    "JOIN stages s ON s.id = m.stage_id WHERE g.id = $1", 1, params);
	int found;

	if (res == NULL)
		return -1;
	found = PQntuples(res) > 0;
	if (found)
		*tournament_id = db_get_i64(res, 0, 0);
	PQclear(res);
	return found;
}

/* Locks the games and checks they exist, belong to the tournament and
 * share one stage; *stage is its id. */
static int
lock_games(struct db *db, const char *tid, const char *ids, size_t n,
    struct num *stage)
{
	const char *params[] = { ids };
	PGresult *res = db_query(db, "SELECT g.id, s.tournament_id, s.id "
	    "FROM games g JOIN matches m ON m.id = g.match_id "
	    "JOIN stages s ON s.id = m.stage_id "
	    "WHERE g.id = ANY($1::bigint[]) ORDER BY g.id FOR UPDATE OF g", 1,
	    params);
	int ret = 0;

	if (res == NULL)
		return -1;
	if ((size_t)PQntuples(res) != n)
		ret = log_error("rerun: %zu of the %zu games asked for do not "
		    "exist", n - (size_t)PQntuples(res), n);
	for (int i = 0; ret == 0 && i < PQntuples(res); i++) {
		if (strcmp(PQgetvalue(res, i, 1), tid) != 0)
			ret = log_error("rerun: game %s is not in this "
			    "tournament", PQgetvalue(res, i, 0));
		else if (strcmp(PQgetvalue(res, i, 2), PQgetvalue(res, 0, 2)))
			ret = log_error("rerun: games %s and %s are in "
			    "different stages; rerun each stage on its own",
			    PQgetvalue(res, 0, 0), PQgetvalue(res, i, 0));
	}
	if (ret == 0)
		db_i64(stage, db_get_i64(res, 0, 2));
	PQclear(res);
	return ret;
}

int
db_rerun_request(struct db *db, int64_t tournament_id, const int64_t *games,
    size_t n, const char *by, const char *reason, int64_t *rerun_id)
{
	char *ids = id_array(games, n);
	struct num tid, sid, rid;
	PGresult *res;

	db_i64(&tid, tournament_id);
	if (n == 0 || db_begin(db) < 0 || lock_games(db, tid.s, ids, n,
	    &sid) < 0)
		goto fail;
	const char *rparams[] = { tid.s, sid.s, by, reason };
	res = db_query(db, "INSERT INTO reruns (tournament_id, stage_id, "
	    "requested_by, reason, standings_before, advancers_before) "
	    "SELECT $1, $2, $3, $4, " STANDINGS_JSON("$2") ", "
	    "CASE WHEN p.done = p.games THEN (SELECT coalesce(jsonb_agg("
	    "a.entry_name ORDER BY a.group_idx, a.place), '[]') FROM advancers "
	    "a WHERE a.stage_id = $2) END FROM stage_progress p "
	    "WHERE p.stage_id = $2 RETURNING id", 4, rparams);
	if (res == NULL)
		goto fail;
	*rerun_id = db_get_i64(res, 0, 0);
	PQclear(res);
	const char *gparams[] = { db_i64(&rid, *rerun_id), ids };
	if (db_exec(db, "INSERT INTO rerun_games (rerun_id, game_id, "
	    "old_attempt, old_result_id, new_attempt) SELECT $1, id, attempt, "
	    "result_id, attempt + 1 FROM games WHERE id = ANY($2::bigint[])", 2,
	    gparams) < 0 || db_exec(db, "UPDATE games SET state = 'queued', "
	    "attempt = attempt + 1, retry_from = attempt + 1, result_id = NULL, "
	    "worker = NULL, lease_until = NULL WHERE id = ANY($1::bigint[])", 1,
	    gparams + 1) < 0 || db_commit(db) < 0)
		goto fail;
	log_info("rerun %" PRId64 " by %s: %zu game%s queued again: %s",
	    *rerun_id, by, n, n == 1 ? "" : "s", reason);
	free(ids);
	return 0;
fail:
	db_rollback(db);
	free(ids);
	return log_error("cannot record the rerun");
}

int
db_rerun_finish(struct db *db, int64_t rerun_id, bool *complete)
{
	struct num rid;
	const char *params[] = { db_i64(&rid, rerun_id) };
	PGresult *res;

	if (db_exec(db, "UPDATE reruns r SET standings_after = "
	    STANDINGS_JSON("r.stage_id") ", completed_at = now() "
	    "WHERE r.id = $1 AND r.completed_at IS NULL AND NOT EXISTS ("
	    "SELECT 1 FROM rerun_games rg JOIN games g ON g.id = rg.game_id "
	    "WHERE rg.rerun_id = r.id AND g.state <> 'done')", 1, params) < 0)
		return -1;
	res = db_query(db, "SELECT completed_at IS NOT NULL FROM reruns "
	    "WHERE id = $1", 1, params);
	if (res == NULL)
		return -1;
	*complete = PQntuples(res) > 0 && db_get_bool(res, 0, 0);
	PQclear(res);
	return 0;
}

/* One standings row of a snapshot, as text; NULL for a missing row. */
#define ROW_TEXT(t) \
	"CASE WHEN " t ".entry_name IS NOT NULL THEN format('rank %s, %s pts " \
	"(%s-%s-%s), games won %s, net %s', " t ".rank, " t ".points, " \
	t ".won, " t ".drawn, " t ".lost, " t ".games_won, " t ".net_points) " \
	"END"
#define ROW_TYPE \
	"(group_idx int, group_name text, rank int, entry_name text, " \
	"played int, won int, drawn int, lost int, points numeric, " \
	"games_won int, net_points bigint)"
#define ROW_VALUES(t) \
	"ROW(" t ".rank, " t ".played, " t ".won, " t ".drawn, " t ".lost, " \
	t ".points, " t ".games_won, " t ".net_points)"

static int
rerun_changes(struct db *db, const char *const *params,
    struct db_rerun_info *r)
{
	PGresult *res = db_query(db, "WITH r AS (SELECT standings_before, "
	    "coalesce(standings_after, " STANDINGS_JSON("stage_id") ") AS "
	    "standings_after FROM reruns WHERE id = $1), "
	    "b AS (SELECT x.* FROM r, jsonb_to_recordset(r.standings_before) "
	    "AS x" ROW_TYPE "), "
	    "a AS (SELECT x.* FROM r, jsonb_to_recordset(r.standings_after) "
	    "AS x" ROW_TYPE ") "
	    "SELECT coalesce(a.group_name, b.group_name), "
	    "coalesce(a.entry_name, b.entry_name), " ROW_TEXT("b") ", "
	    ROW_TEXT("a") " FROM b FULL JOIN a ON a.group_name = b.group_name "
	    "AND a.entry_name = b.entry_name WHERE " ROW_VALUES("b")
	    " IS DISTINCT FROM " ROW_VALUES("a") " ORDER BY "
	    "coalesce(a.group_idx, b.group_idx), coalesce(a.rank, b.rank), "
	    "coalesce(a.entry_name, b.entry_name)", 1, params);

	if (res == NULL)
		return -1;
	r->nchanges = (size_t)PQntuples(res);
	r->changes = xcalloc(r->nchanges + 1, sizeof *r->changes);
	for (int i = 0; i < PQntuples(res); i++) {
		struct db_change *c = &r->changes[i];

		c->group = db_get_str(res, i, 0);
		c->entry = db_get_str(res, i, 1);
		c->before = db_get_str(res, i, 2);
		c->after = db_get_str(res, i, 3);
	}
	PQclear(res);
	return 0;
}

int
db_rerun_info(struct db *db, int64_t rerun_id, struct db_rerun_info *r)
{
	struct num rid;
	const char *params[] = { db_i64(&rid, rerun_id) };
	PGresult *res = db_query(db, "SELECT t.name, st.name, r.requested_by, "
	    "r.reason, date_trunc('second', r.requested_at)::text, "
	    "r.completed_at IS NOT NULL, (SELECT string_agg(rg.game_id || "
	    "' (attempt ' || rg.old_attempt || ' -> ' || rg.new_attempt || ')', "
	    "', ' ORDER BY rg.game_id) FROM rerun_games rg "
	    "WHERE rg.rerun_id = r.id) FROM reruns r "
	    "JOIN tournaments t ON t.id = r.tournament_id "
	    "JOIN stages st ON st.id = r.stage_id WHERE r.id = $1", 1, params);

	memset(r, 0, sizeof *r);
	if (res == NULL)
		return -1;
	if (PQntuples(res) == 0) {
		PQclear(res);
		return 0;
	}
	r->id = rerun_id;
	r->tournament = db_get_str(res, 0, 0);
	r->stage = db_get_str(res, 0, 1);
	r->by = db_get_str(res, 0, 2);
	r->reason = db_get_str(res, 0, 3);
	r->at = db_get_str(res, 0, 4);
	r->complete = db_get_bool(res, 0, 5);
	r->games = db_get_str(res, 0, 6);
	PQclear(res);
	if (rerun_changes(db, params, r) < 0) {
		db_rerun_info_release(r);
		return -1;
	}
	return 1;
}

void
db_rerun_info_release(struct db_rerun_info *r)
{
	for (size_t i = 0; i < r->nchanges; i++) {
		free(r->changes[i].group);
		free(r->changes[i].entry);
		free(r->changes[i].before);
		free(r->changes[i].after);
	}
	free(r->changes);
	free(r->tournament);
	free(r->stage);
	free(r->by);
	free(r->reason);
	free(r->at);
	free(r->games);
	memset(r, 0, sizeof *r);
}

int
db_stale_stages(struct db *db, int64_t tournament_id, struct db_stale **rows,
    size_t *n)
{
	struct num tid;
	const char *params[] = { db_i64(&tid, tournament_id) };
	PGresult *res = db_query(db, "SELECT stage_name, next_name, "
	    "advancers_now, entrants_played FROM stale_stages "
	    "WHERE tournament_id = $1 ORDER BY stage_idx", 1, params);

	if (res == NULL)
		return -1;
	*n = (size_t)PQntuples(res);
	*rows = xcalloc(*n + 1, sizeof **rows);
	for (int i = 0; i < (int)*n; i++) {
		(*rows)[i].stage = db_get_str(res, i, 0);
		(*rows)[i].next = db_get_str(res, i, 1);
		(*rows)[i].advancers_now = db_get_str(res, i, 2);
		(*rows)[i].entrants_played = db_get_str(res, i, 3);
	}
	PQclear(res);
	return 0;
}

void
db_stale_free(struct db_stale *rows, size_t n)
{
	if (rows == NULL)
		return;
	for (size_t i = 0; i < n; i++) {
		free(rows[i].stage);
		free(rows[i].next);
		free(rows[i].advancers_now);
		free(rows[i].entrants_played);
	}
	free(rows);
}
