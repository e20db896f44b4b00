/*
 * db_show: one game's whole history for `arena show`: where it sits in
 * the tournament, every attempt that produced a result (with each bot's
 * verdict and usage, the referee and the replay, and the rerun that
 * superseded it), every attempt that ended without one, and the reruns
 * that touched it.
 */
#include "coordinator/db.h"

#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db_internal.h"

static int
game_header(struct db *db, const char *const *params, struct db_game_detail *d)
{
	PGresult *res = db_query(db, "SELECT t.name, l.stage_name, "
	    "l.group_name, l.match_id, l.game_idx, l.dataset_name, "
	    "l.first_name, l.second_name, g.seed, l.state, l.attempt, "
	    "l.seat_names, l.nseats, coalesce(l.replaced_by, 0) "
	    "FROM game_list l JOIN games g ON g.id = l.game_id "
	    "JOIN tournaments t ON t.id = l.tournament_id "
	    "WHERE l.game_id = $1", 1, params);
	int found;

	if (res == NULL)
		return -1;
	found = PQntuples(res) > 0;
	if (found) {
		d->tournament = db_get_str(res, 0, 0);
		d->stage = db_get_str(res, 0, 1);
		d->group = db_get_str(res, 0, 2);
		d->match = db_get_i64(res, 0, 3);
		d->idx = (int)db_get_i64(res, 0, 4);
		d->dataset = db_get_str(res, 0, 5);
		d->first = db_get_str(res, 0, 6);
		d->second = db_get_str(res, 0, 7);
		d->seed = db_get_str(res, 0, 8);
		d->state = db_get_str(res, 0, 9);
		d->attempt = (int32_t)db_get_i64(res, 0, 10);
		d->seat_names = db_get_str(res, 0, 11);
		d->nseats = (size_t)db_get_i64(res, 0, 12);
		d->replaced_by = db_get_i64(res, 0, 13);
	}
	PQclear(res);
	return found;
}

/* Rows ordered by attempt then seat: one attempt per run of rows. */
static int
game_attempts(struct db *db, const char *const *params,
    struct db_game_detail *d)
{
	PGresult *res = db_query(db, "SELECT r.attempt, "
	    "r.id = g.result_id, r.worker, r.recorded_at::text, r.end_reason, "
	    "r.detail, r.referee, r.replay, e.name, s.score, s.verdict, "
	    "s.illegal, s.cpu_ms, s.wall_ms, s.peak_kb, "
	    "(SELECT min(rg.rerun_id) FROM rerun_games rg "
	    "WHERE rg.game_id = g.id AND rg.old_result_id = r.id), "
	    "s.artifact "
	    "FROM results r JOIN games g ON g.id = r.game_id "
	    "JOIN result_seats s ON s.result_id = r.id "
	    "JOIN game_seats gs ON gs.game_id = g.id AND gs.seat = s.seat "
	    "JOIN entries e ON e.id = gs.entry_id "
	    "WHERE r.game_id = $1 ORDER BY r.attempt, s.seat", 1, params);
	struct db_attempt *a = NULL;

	if (res == NULL)
		return -1;
	d->attempts = xcalloc((size_t)PQntuples(res) + 1, sizeof *a);
	for (int i = 0; i < PQntuples(res); i++) {
		int32_t n = (int32_t)db_get_i64(res, i, 0);

		if (a == NULL || a->attempt != n) {
			a = &d->attempts[d->nattempts++];
			a->attempt = n;
			a->current = db_get_bool(res, i, 1);
			a->worker = db_get_str(res, i, 2);
			a->at = db_get_str(res, i, 3);
			a->end_reason = db_get_str(res, i, 4);
			a->detail = db_get_str(res, i, 5);
			a->referee = db_get_str(res, i, 6);
			a->replay = db_get_str(res, i, 7);
			a->superseded_by = PQgetisnull(res, i, 15) ? 0 :
			    db_get_i64(res, i, 15);
		}
		if (a->nseats == PROTO_MAX_SEATS)
			continue;
		struct db_seat_usage *s = &a->seats[a->nseats++];
		s->entry = db_get_str(res, i, 8);
		s->score = db_get_i64(res, i, 9);
		s->verdict = db_get_str(res, i, 10);
		s->illegal = (int)db_get_i64(res, i, 11);
		s->cpu_ms = db_get_i64(res, i, 12);
		s->wall_ms = db_get_i64(res, i, 13);
		s->peak_kb = db_get_i64(res, i, 14);
		s->artifact = db_get_str(res, i, 16);
	}
	PQclear(res);
	return 0;
}

static int
game_events(struct db *db, const char *const *params, struct db_game_detail *d)
{
	PGresult *res = db_query(db, "SELECT attempt, kind, reason, worker, "
	    "at::text FROM game_events WHERE game_id = $1 ORDER BY at, id", 1,
	    params);

	if (res == NULL)
		return -1;
	d->nevents = (size_t)PQntuples(res);
	d->events = xcalloc(d->nevents + 1, sizeof *d->events);
	for (int i = 0; i < PQntuples(res); i++) {
		struct db_event *e = &d->events[i];

		e->attempt = (int32_t)db_get_i64(res, i, 0);
		e->kind = db_get_str(res, i, 1);
		e->reason = db_get_str(res, i, 2);
		e->worker = db_get_str(res, i, 3);
		e->at = db_get_str(res, i, 4);
	}
	PQclear(res);
	return 0;
}

static int
game_reruns(struct db *db, const char *const *params,
    struct db_game_detail *d)
{
	return db_query_ids(db, "SELECT rerun_id FROM rerun_games "
	    "WHERE game_id = $1 ORDER BY rerun_id", params[0], &d->reruns,
	    &d->nreruns);
}

int
db_game_detail(struct db *db, int64_t game_id, struct db_game_detail *d)
{
	struct num gid;
	const char *params[] = { db_i64(&gid, game_id) };
	int found;

	memset(d, 0, sizeof *d);
	d->game = game_id;
	if ((found = game_header(db, params, d)) != 1)
		return found;
	if (game_attempts(db, params, d) < 0 || game_events(db, params, d) < 0 ||
	    game_reruns(db, params, d) < 0) {
		db_game_detail_release(d);
		return -1;
	}
	return 1;
}

void
db_game_detail_release(struct db_game_detail *d)
{
	for (size_t i = 0; i < d->nattempts; i++) {
		struct db_attempt *a = &d->attempts[i];

		for (size_t s = 0; s < a->nseats; s++) {
			free(a->seats[s].entry);
			free(a->seats[s].artifact);
			free(a->seats[s].verdict);
		}
		free(a->worker);
		free(a->at);
		free(a->end_reason);
		free(a->detail);
		free(a->referee);
		free(a->replay);
	}
	for (size_t i = 0; i < d->nevents; i++) {
		free(d->events[i].kind);
		free(d->events[i].reason);
		free(d->events[i].worker);
		free(d->events[i].at);
	}
	free(d->attempts);
	free(d->events);
	free(d->reruns);
	free(d->tournament);
	free(d->stage);
	free(d->group);
	free(d->dataset);
	free(d->first);
	free(d->second);
	free(d->seat_names);
	free(d->seed);
	free(d->state);
	memset(d, 0, sizeof *d);
}

int
db_match_games(struct db *db, int64_t match_id, int64_t **games, size_t *n)
{
	struct num mid;

	return db_query_ids(db, "SELECT id FROM games WHERE match_id = $1 "
	    "ORDER BY idx", db_i64(&mid, match_id), games, n);
}
