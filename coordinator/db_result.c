/*
 * db_result: recording what workers send back. A result is checked before
 * it touches the database (seats, ranges), then the game row
 * is locked and checked to be still running with the delivered attempt,
 * the result is inserted keyed by (game, attempt) and the game points at
 * it; anything stale or duplicate changes nothing, and an XX result puts
 * the game back in the queue (db_game_requeue, in db_play.c).
 *
 * Two ways in: db_result_record, one result in one transaction, and
 * db_results_record, the dispatch loop's, every result of a poll pass in
 * one prepared statement (arrays of the results' fields, unnested), with
 * the same rules row by row and an outcome for each.
 */
#include "coordinator/db.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/utf8.h"
#include "coordinator/db_internal.h"

/*
 * Text from workers is stored as UTF-8, the database's encoding. What is
 * not (a bot's raw answer in a replay, a worker's name) is not refused,
 * which would lose a sound result for a byte: each such byte is stored as
 * the four characters \xNN. Appends s so to *out (at *len, room *cap).
 */
static void
utf8_escape(const char *s, char **out, size_t *len, size_t *cap,
    bool array)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = utf8_len((const char *)p);

		if (*len + 16 > *cap) {
			*cap = (*len + 16) * 2;
			*out = xrealloc(*out, *cap);
		}
		if (n == 0) {
			/* In an array literal a backslash is written twice. */
			*len += (size_t)snprintf(*out + *len, *cap - *len,
			    array ? "\\\\x%02x" : "\\x%02x", *p++);
			continue;
		}
		if (array && (*p == '"' || *p == '\\'))
			(*out)[(*len)++] = '\\';
		memcpy(*out + *len, p, (size_t)n);
		*len += (size_t)n;
		p += n;
	}
	if (*len + 1 > *cap) {
		*cap = *len + 1;
		*out = xrealloc(*out, *cap);
	}
	(*out)[*len] = '\0';
}

/* s as UTF-8 (see utf8_escape); the caller frees it. */
static char *
utf8_copy(const char *s)
{
	char *out = NULL;
	size_t len = 0, cap = 0;

	utf8_escape(s ? s : "", &out, &len, &cap, false);
	return out;
}

/* Checks what a worker sent before it touches the database: a bad
 * message is dropped, never stored. why says what is wrong. */
static bool
result_check(const struct msg_result *r, bool *internal, char *why,
    size_t len)
{
	*internal = false;
	if (r->nseats < 2 || r->nseats > PROTO_MAX_SEATS) {
		snprintf(why, len, "%u seats", r->nseats);
		return false;
	}
	for (uint32_t i = 0; i < r->nseats; i++) {
		const struct msg_seat_result *s = &r->seats[i];

		if ((unsigned)s->verdict >= VERDICT_COUNT || s->illegal < 0 ||
		    s->cpu_ms < 0 || s->wall_ms < 0 || s->peak_kb < 0) {
			snprintf(why, len, "seat %u is malformed", i);
			return false;
		}
		if (s->verdict == VERDICT_XX)
			*internal = true;
	}
	return true;
}

static bool
result_valid(const struct msg_result *r, bool *internal)
{
	char why[64];

	if (result_check(r, internal, why, sizeof why))
		return true;
	log_warn("result for game %" PRId64 " attempt %d: %s; ignored",
	    r->game_id, r->attempt, why);
	return false;
}

static const char *
or_empty(const char *s)
{
	return s ? s : "";
}

static int
insert_seats(struct db *db, const char *rid, const struct msg_result *r)
{
	for (uint32_t i = 0; i < r->nseats; i++) {
		const struct msg_seat_result *s = &r->seats[i];
		struct num seat, score, ill, cpu, wall, peak;
		const char *params[] = { rid, db_i64(&seat, i),
		    db_i64(&score, s->score), verdict_code(s->verdict),
		    db_i64(&ill, s->illegal), db_i64(&cpu, s->cpu_ms),
		    db_i64(&wall, s->wall_ms), db_i64(&peak, s->peak_kb) };

		/* The hash this seat was given when the game was leased. */
		if (db_exec(db, "INSERT INTO result_seats (result_id, seat, "
		    "score, verdict, illegal, cpu_ms, wall_ms, peak_kb, "
		    "artifact) SELECT r.id, $2::smallint, $3, $4, $5, $6, $7, "
		    "$8, g.artifacts[$2::smallint + 1] FROM results r "
		    "JOIN games g ON g.id = r.game_id WHERE r.id = $1::bigint", 8, params) < 0)
			return -1;
	}
	return 0;
}

/* Inside the transaction, with the game row locked and running at
 * r->attempt: stores the result and makes it the game's current one. */
static int
store_result(struct db *db, const char *gid, const char *att,
    const struct msg_result *r, const char *worker, bool *recorded)
{
	const char *params[] = { gid, att, or_empty(r->end_reason),
	    or_empty(r->detail), or_empty(r->referee), or_empty(r->replay),
	    or_empty(worker) };
	PGresult *res = db_query(db, "INSERT INTO results (game_id, attempt, "
	    "end_reason, detail, referee, replay, worker) "
	    "VALUES ($1, $2, $3, $4, $5, $6, $7) "
	    "ON CONFLICT (game_id, attempt) DO NOTHING RETURNING id", 7,
	    params);
	struct num rid;

	if (res == NULL)
		return -1;
	if (PQntuples(res) == 0) {
		PQclear(res);
		log_info("result for game %s attempt %s already recorded", gid,
		    att);
		return 0;
	}
	db_i64(&rid, db_get_i64(res, 0, 0));
	PQclear(res);
	const char *gparams[] = { gid, rid.s };
	if (insert_seats(db, rid.s, r) < 0 || db_exec(db, "UPDATE games SET "
	    "state = 'done', result_id = $2, worker = NULL, "
	    "lease_until = NULL WHERE id = $1", 2, gparams) < 0)
		return -1;
	*recorded = true;
	return 0;
}

int
db_result_record(struct db *db, const struct msg_result *r,
    const char *worker, bool *recorded)
{
	struct num gid, att;
	const char *params[] = { db_i64(&gid, r->game_id),
	    db_i64(&att, r->attempt) };
	PGresult *res;
	bool internal;

	*recorded = false;
	if (!result_valid(r, &internal))
		return 0;
	if (db_begin(db) < 0)
		goto fail;
	res = db_query(db, "SELECT state, attempt FROM games WHERE id = $1 "
	    "FOR UPDATE", 1, params);
	if (res == NULL)
		goto fail;
	if (PQntuples(res) == 0 || strcmp(PQgetvalue(res, 0, 0), "running") ||
	    db_get_i64(res, 0, 1) != r->attempt) {
		log_info("stale result for game %s attempt %s from '%s' "
		    "ignored (game is %s)", gid.s, att.s, or_empty(worker),
		    PQntuples(res) ? PQgetvalue(res, 0, 0) : "unknown");
		PQclear(res);
		return db_commit(db);
	}
	PQclear(res);
	/* XX is our failure, not the bots': play the game again. */
	if (internal) {
		if (db_game_requeue(db, r->game_id, r->attempt, r->detail &&
		    *r->detail ? r->detail : "internal failure (XX)") < 0)
			goto fail;
		return db_commit(db);
	}
	if (store_result(db, gid.s, att.s, r, worker, recorded) < 0 ||
	    db_commit(db) < 0)
		goto fail;
	return 0;
fail:
	db_rollback(db);
	*recorded = false;
	return log_error("cannot record the result of game %s", gid.s);
}


/* --- batches: one statement for many games --- */

/* A PostgreSQL array literal, built element by element. */
struct arr {
	char *s;
	size_t len, cap;
};

static void
arr_put(struct arr *a, const char *s, size_t n)
{
	if (a->len + n + 2 > a->cap) {
		a->cap = (a->len + n + 2) * 2;
		a->s = xrealloc(a->s, a->cap);
	}
	memcpy(a->s + a->len, s, n);
	a->len += n;
	a->s[a->len] = '\0';
}

static void
arr_sep(struct arr *a)
{
	arr_put(a, a->len ? "," : "{", 1);
}

static void
arr_i64(struct arr *a, int64_t v)
{
	struct num n;

	arr_sep(a);
	db_i64(&n, v);
	arr_put(a, n.s, strlen(n.s));
}

/* Quoted, so any text (commas, braces, newlines) is one element; as
 * UTF-8 (utf8_escape). */
static void
arr_str(struct arr *a, const char *s)
{
	arr_sep(a);
	arr_put(a, "\"", 1);
	utf8_escape(s, &a->s, &a->len, &a->cap, true);
	arr_put(a, "\"", 1);
}

static const char *
arr_end(struct arr *a)
{
	arr_put(a, a->len ? "}" : "{}", a->len ? 1 : 2);
	return a->s;
}

enum {
	IN_ORD, IN_GAME, IN_ATTEMPT, IN_NSEATS, IN_END, IN_DETAIL, IN_REFEREE,
	IN_REPLAY, IN_WORKER, S_ORD, S_SEAT, S_SCORE, S_VERDICT, S_ILLEGAL,
	S_CPU, S_WALL, S_PEAK, IN_COUNT
};

/* Input i of the batch, as ordinal i + 1. */
static void
batch_add(struct arr *a, size_t i, const struct msg_result *r,
    const char *worker)
{
	arr_i64(&a[IN_ORD], (int64_t)i + 1);
	arr_i64(&a[IN_GAME], r->game_id);
	arr_i64(&a[IN_ATTEMPT], r->attempt);
	arr_i64(&a[IN_NSEATS], r->nseats);
	arr_str(&a[IN_END], or_empty(r->end_reason));
	arr_str(&a[IN_DETAIL], or_empty(r->detail));
	arr_str(&a[IN_REFEREE], or_empty(r->referee));
	arr_str(&a[IN_REPLAY], or_empty(r->replay));
	arr_str(&a[IN_WORKER], or_empty(worker));
	for (uint32_t k = 0; k < r->nseats; k++) {
		const struct msg_seat_result *s = &r->seats[k];

		arr_i64(&a[S_ORD], (int64_t)i + 1);
		arr_i64(&a[S_SEAT], k);
		arr_i64(&a[S_SCORE], s->score);
		arr_str(&a[S_VERDICT], verdict_code(s->verdict));
		arr_i64(&a[S_ILLEGAL], s->illegal);
		arr_i64(&a[S_CPU], s->cpu_ms);
		arr_i64(&a[S_WALL], s->wall_ms);
		arr_i64(&a[S_PEAK], s->peak_kb);
	}
}

/*
 * The batch as one statement, so one round trip and one commit: the
 * inputs (the first of any repeated (game, attempt)), the games among
 * them still running at that attempt, locked; of those, the ones with as
 * many seats as the result, their results (ON CONFLICT: a duplicate adds
 * nothing), seats and games. The same rules as db_result_record, row by
 * row. One row per distinct input: its ordinal, whether it was recorded,
 * whether its attempt was live, the game's seats, and its state before.
 * Prepared, so planned for any batch: the game's state and seats are
 * subqueries, which read by key, where a join may read every game.
 */
static PGresult *
batch_run(struct db *db, struct arr *a)
{
	const char *params[IN_COUNT];

	for (int i = 0; i < IN_COUNT; i++)
		params[i] = arr_end(&a[i]);
	return db_query_prepared(db, "record_results", "WITH inp AS ("
	    "SELECT DISTINCT ON (game_id, attempt) * FROM unnest($1::int[], "
	    "$2::bigint[], $3::int[], $4::int[], $5::text[], $6::text[], "
	    "$7::text[], $8::text[], $9::text[]) AS u(ord, game_id, attempt, "
	    "nseats, end_reason, detail, referee, replay, worker) "
	    "ORDER BY game_id, attempt, ord), "
	    "live AS (SELECT g.id, g.attempt, g.artifacts, (SELECT count(*) "
	    "FROM game_seats gs WHERE gs.game_id = g.id) AS nseats "
	    "FROM games g JOIN inp ON inp.game_id = g.id AND inp.attempt = "
	    "g.attempt WHERE g.state = 'running' ORDER BY g.id "
	    "FOR UPDATE OF g), "
	    "fit AS (SELECT inp.* FROM inp JOIN live ON live.id = inp.game_id "
	    "AND live.nseats = inp.nseats), "
	    "ins AS (INSERT INTO results (game_id, attempt, end_reason, "
	    "detail, referee, replay, worker) SELECT game_id, attempt, "
	    "end_reason, detail, referee, replay, worker FROM fit "
	    "ON CONFLICT (game_id, attempt) DO NOTHING "
	    "RETURNING id, game_id, attempt), "
	    "seats AS (INSERT INTO result_seats (result_id, seat, score, "
	    "verdict, illegal, cpu_ms, wall_ms, peak_kb, artifact) "
	    "SELECT ins.id, s.seat, s.score, s.verdict, s.illegal, s.cpu_ms, "
	    "s.wall_ms, s.peak_kb, live.artifacts[s.seat + 1] "
	    "FROM unnest($10::int[], $11::smallint[], $12::bigint[], "
	    "$13::text[], $14::int[], $15::bigint[], $16::bigint[], "
	    "$17::bigint[]) AS s(ord, seat, score, verdict, illegal, cpu_ms, "
	    "wall_ms, peak_kb) JOIN fit ON fit.ord = s.ord "
	    "JOIN ins ON ins.game_id = fit.game_id AND ins.attempt = "
	    "fit.attempt JOIN live ON live.id = ins.game_id), "
	    "upd AS (UPDATE games g SET state = 'done', result_id = ins.id, "
	    "worker = NULL, lease_until = NULL FROM ins WHERE g.id = "
	    "ins.game_id) "
	    "SELECT inp.ord, ins.id IS NOT NULL, live.id IS NOT NULL, "
	    "coalesce(live.nseats, 0), "
	    "coalesce((SELECT g.state || CASE WHEN g.state = 'running' THEN "
	    "' at attempt ' || g.attempt ELSE '' END FROM games g "
	    "WHERE g.id = inp.game_id), 'unknown') FROM inp "
	    "LEFT JOIN ins ON ins.game_id = inp.game_id AND ins.attempt = "
	    "inp.attempt LEFT JOIN live ON live.id = inp.game_id",
	    IN_COUNT, params);
}

/* What row `row` of batch_run's answer says about its input. */
static void
batch_outcome(struct db_record *recs, const PGresult *res, int row)
{
	struct db_record *d = &recs[db_get_i64(res, row, 0) - 1];
	int64_t nseats = db_get_i64(res, row, 3);

	if (db_get_bool(res, row, 1)) {
		d->outcome = DB_RECORDED;
		d->state[0] = '\0';
	} else if (db_get_bool(res, row, 2) && nseats != d->r->nseats) {
		/* Not this game's result, whatever the worker thought. */
		d->outcome = DB_INVALID;
		snprintf(d->state, sizeof d->state, "%u seats, the game has "
		    "%lld", d->r->nseats, (long long)nseats);
	} else if (db_get_bool(res, row, 2)) {
		d->outcome = DB_DUPLICATE;
		snprintf(d->state, sizeof d->state, "already recorded");
	} else {
		d->outcome = DB_STALE;
		snprintf(d->state, sizeof d->state, "game is %s",
		    PQgetvalue(res, row, 4));
	}
}

/* recs[i] repeats an earlier (game, attempt) of the statement, which has
 * the only row: a duplicate of it if it was recorded, else as it is. */
static void
repeat(struct db_record *recs, size_t from, size_t i)
{
	const struct msg_result *r = recs[i].r;

	for (size_t j = from; j < i; j++) {
		if (recs[j].r->game_id != r->game_id ||
		    recs[j].r->attempt != r->attempt ||
		    recs[j].outcome == DB_FAILED)
			continue;
		recs[i] = (struct db_record){ .r = r, .worker = recs[i].worker,
		    .outcome = recs[j].outcome };
		memcpy(recs[i].state, recs[j].state, sizeof recs[i].state);
		if (recs[j].outcome == DB_RECORDED) {
			recs[i].outcome = DB_DUPLICATE;
			snprintf(recs[i].state, sizeof recs[i].state,
			    "already recorded");
		}
		return;
	}
}

/* Records, in one statement, recs[from .. to) still DB_FAILED (not tried
 * yet); -1 when the statement failed, and they stay so. */
static int
batch_try(struct db *db, struct db_record *recs, size_t from, size_t to)
{
	struct arr a[IN_COUNT];
	PGresult *res;
	size_t k = 0;

	memset(a, 0, sizeof a);
	for (size_t i = from; i < to; i++)
		if (recs[i].outcome == DB_FAILED) {
			batch_add(a, i, recs[i].r, recs[i].worker);
			k++;
		}
	res = k ? batch_run(db, a) : NULL;
	for (int i = 0; i < IN_COUNT; i++)
		free(a[i].s);
	if (k && res == NULL)
		return -1;
	for (int row = 0; res && row < PQntuples(res); row++)
		batch_outcome(recs, res, row);
	PQclear(res);
	for (size_t i = from; i < to; i++)
		if (recs[i].outcome == DB_FAILED)
			repeat(recs, from, i);
	return 0;
}

/* After the batch failed: each result alone, so a bad one fails alone.
 * One the server refuses while the link is fine (bytes that are not
 * UTF-8) would be refused at every delivery: it is invalid, not failed,
 * so the worker drops it and the game is played again when its lease
 * runs out. */
static void
batch_single(struct db *db, struct db_record *recs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (recs[i].outcome != DB_FAILED ||
		    batch_try(db, recs, i, i + 1) == 0 ||
		    PQstatus(db->conn) != CONNECTION_OK)
			continue;
		recs[i].outcome = DB_INVALID;
		snprintf(recs[i].state, sizeof recs[i].state,
		    "refused by the database");
	}
}

/* An XX result: its game goes back to the queue, its detail (the reason
 * in the game's history) as UTF-8. */
static int
requeue_xx(struct db *db, const struct db_record *d)
{
	struct msg_result r = *d->r;
	char *worker = utf8_copy(d->worker);
	bool recorded;
	int rc;

	r.detail = utf8_copy(d->r->detail);
	rc = db_result_record(db, &r, worker, &recorded);
	free(r.detail);
	free(worker);
	return rc;
}

int
db_results_record(struct db *db, struct db_record *recs, size_t n)
{
	size_t nbatch = 0;
	bool internal;

	for (size_t i = 0; i < n; i++) {
		struct db_record *d = &recs[i];

		d->outcome = DB_INVALID;
		d->state[0] = '\0';
		if (!result_check(d->r, &internal, d->state, sizeof d->state))
			continue;
		/* An XX result takes the single path, after: it requeues. */
		d->outcome = internal ? DB_REQUEUED : DB_FAILED;
		nbatch += !internal;
	}
	if (nbatch && batch_try(db, recs, 0, n) < 0 &&
	    PQstatus(db->conn) == CONNECTION_OK) {
		log_warn("cannot record %zu results at once; one at a time",
		    nbatch);
		batch_single(db, recs, n);
	}
	for (size_t i = 0; i < n; i++)
		if (recs[i].outcome == DB_REQUEUED &&
		    requeue_xx(db, &recs[i]) < 0)
			recs[i].outcome = DB_FAILED;
	for (size_t i = 0; i < n; i++)
		if (recs[i].outcome == DB_FAILED)
			return -1;
	return 0;
}
