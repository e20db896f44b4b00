/*
 * db_claim: leasing several queued games in one statement, for a worker
 * with several free slots: one statement for all of them, where
 * db_game_claim (db_play.c) takes one. The same query with a LIMIT: plan
 * order, FOR UPDATE SKIP LOCKED, so concurrent claimers never get the
 * same game.
 *
 * Its commit does not wait for the disk (synchronous_commit off, for this
 * statement's transaction only: set_config(..., true) is SET LOCAL, read
 * at its commit): a lease lost in a crash of the database only puts the
 * game back in the queue at the same attempt, and whichever result of
 * that attempt comes first is the one recorded; the result's own commit,
 * which waits, flushes the lease with it anyway. That halves the waits
 * for the disk per game, in one round trip.
 */
#include "coordinator/db.h"

#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db_internal.h"

static void
fill_game(struct msg *m, const PGresult *res, int row)
{
	memset(m, 0, sizeof *m);
	m->type = MSG_GAME;
	db_claim_fill(&m->u.game, res, row);
}

int
db_games_claim(struct db *db, int64_t tournament_id, const char *worker,
    int64_t lease_ms, struct msg *games, int max, int *n)
{
	struct num tid, lease, lim;
	const char *params[] = { db_i64(&tid, tournament_id), worker,
	    db_i64(&lease, lease_ms), db_i64(&lim, max) };
	/* See db_game_claim for why the tournament test is a subquery. The
	 * dataset, tournament and entry rows are joined once per game. */
	PGresult *res;

	*n = 0;
	res = db_query_prepared(db, "claim_games", "WITH lazy AS ("
	    "SELECT set_config('synchronous_commit', 'off', true) AS v), "
	    "next AS (SELECT g.id FROM games g, lazy "
	    "WHERE lazy.v = 'off' AND g.state = 'queued' AND "
	    "(SELECT s.tournament_id FROM matches m JOIN stages s "
	    "ON s.id = m.stage_id WHERE m.id = g.match_id) = $1 "
	    "ORDER BY g.match_id, g.idx LIMIT $4 FOR UPDATE OF g SKIP LOCKED), "
	    CLAIM_UPDATE CLAIM_SELECT, 4,
	    params);
	if (res == NULL)
		return log_error("cannot lease games to '%s'", worker);
	for (int row = 0; row < PQntuples(res) && row < max; row++)
		fill_game(&games[(*n)++], res, row);
	PQclear(res);
	return 0;
}
