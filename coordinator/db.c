/*
 * db: arena's durable state in PostgreSQL; the only file that sees libpq.
 *
 * Theory of operation. schema.sql (compiled in as db_schema_sql) is a list
 * of numbered migrations; db_open() applies the missing ones in one
 * transaction under an advisory lock, so two processes opening a fresh
 * database at once are safe. Every state change below is one statement or
 * one transaction, parameterised with PQexecParams:
 *
 *	claim	 one UPDATE picks the next queued game (FOR UPDATE SKIP
 *		 LOCKED, so concurrent claimers never get the same game),
 *		 leases it and returns everything a worker needs;
 *	record	 locks the game row, checks it is still running with the
 *		 delivered attempt, inserts the result keyed by (game,
 *		 attempt) and points the game at it; anything stale or
 *		 duplicate changes nothing;
 *	requeue	 an XX result, an explicit requeue or an expired lease put
 *		 the game back with attempt + 1 and a game_events row.
 *
 * Aggregation (match results, standings, advancers) lives in the views of
 * schema.sql; this file only selects from them.
 */
#include "coordinator/db.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "common/log.h"
#include "coordinator/check.h"

/* Generated from schema.sql by coordinator/CMakeLists.txt. */
extern const char db_schema_sql[];

#define MIGRATION_MARK "\n-- migration "
/* Serialises schema migrations between processes ('arena' in ASCII). */
#define MIGRATION_LOCK "418531077729"

struct db {
	PGconn *conn;
	bool in_tx;		/* inside BEGIN: never reconnect silently */
};

/* A decimal rendering of an integer, for text parameters. */
struct num {
	char s[24];
};

static const char *
i64(struct num *n, int64_t v)
{
	snprintf(n->s, sizeof n->s, "%" PRId64, v);
	return n->s;
}

static const char *
u64(struct num *n, uint64_t v)
{
	snprintf(n->s, sizeof n->s, "%" PRIu64, v);
	return n->s;
}

static void
notice(void *arg, const char *message)
{
	(void)arg;
	log_debug("postgres: %.*s", (int)strcspn(message, "\n"), message);
}

static int
db_failed(struct db *db, PGresult *res)
{
	const char *msg = res ? PQresultErrorMessage(res) : "";

	if (*msg == '\0')
		msg = PQerrorMessage(db->conn);
	return log_error("database: %.*s", (int)strcspn(msg, "\n"), msg);
}

/* Runs sql with n text parameters (NULL pointers are SQL NULLs). Returns
 * the result, or NULL after logging the error. Caller PQclear()s. */
static PGresult *
query(struct db *db, const char *sql, int n, const char *const *params)
{
	PGresult *res;
	ExecStatusType st;

	/* A restarted server: reconnect, but never in the middle of a
	 * transaction, whose earlier statements are lost with the link. */
	if (!db->in_tx && PQstatus(db->conn) == CONNECTION_BAD) {
		log_warn("database connection lost; reconnecting");
		PQreset(db->conn);
	}
	res = PQexecParams(db->conn, sql, n, NULL, params, NULL, NULL, 0);
	st = PQresultStatus(res);
	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
		return res;
	db_failed(db, res);
	PQclear(res);
	return NULL;
}

static int
exec(struct db *db, const char *sql, int n, const char *const *params)
{
	PGresult *res = query(db, sql, n, params);

	PQclear(res);
	return res ? 0 : -1;
}

static int
begin(struct db *db)
{
	if (exec(db, "BEGIN", 0, NULL) < 0)
		return -1;
	db->in_tx = true;
	return 0;
}

static int
commit(struct db *db)
{
	db->in_tx = false;
	return exec(db, "COMMIT", 0, NULL);
}

/* After a failure inside a transaction; harmless outside one. */
static void
rollback(struct db *db)
{
	if (db->in_tx)
		PQclear(PQexec(db->conn, "ROLLBACK"));
	db->in_tx = false;
}

static int64_t
get_i64(const PGresult *res, int row, int col)
{
	return strtoll(PQgetvalue(res, row, col), NULL, 10);
}

static char *
get_str(const PGresult *res, int row, int col)
{
	if (PQgetisnull(res, row, col))
		return NULL;
	return xstrdup(PQgetvalue(res, row, col));
}

static bool
get_bool(const PGresult *res, int row, int col)
{
	return PQgetvalue(res, row, col)[0] == 't';
}

/* Applies one migration: the text after its mark up to the next one.
 * Plain PQexec, since a migration is several statements and has no
 * parameters. */
static int
apply_migration(struct db *db, int version, const char *sql, size_t len)
{
	char *text = xmalloc(len + 1);
	struct num v;
	const char *params[] = { i64(&v, version) };
	PGresult *res;

	memcpy(text, sql, len);
	text[len] = '\0';
	res = PQexec(db->conn, text);
	free(text);
	if (PQresultStatus(res) != PGRES_COMMAND_OK &&
	    PQresultStatus(res) != PGRES_TUPLES_OK) {
		db_failed(db, res);
		PQclear(res);
		return log_error("cannot apply schema migration %d", version);
	}
	PQclear(res);
	log_info("applied database schema migration %d", version);
	return exec(db, "INSERT INTO schema_version (version) VALUES ($1)",
	    1, params);
}

/* Walks the marks of db_schema_sql in order, applying those above
 * current; *latest is the highest version this binary knows. */
static int
apply_migrations(struct db *db, int current, int *latest)
{
	const char *p = strstr(db_schema_sql, MIGRATION_MARK);

	*latest = 0;
	while (p) {
		const char *body = strchr(p + 1, '\n');
		const char *next;
		int version = atoi(p + strlen(MIGRATION_MARK));

		if (version != *latest + 1 || body == NULL)
			return log_error("schema.sql: migration %d out of "
			    "order", version);
		*latest = version;
		next = strstr(body, MIGRATION_MARK);
		if (version > current && apply_migration(db, version, body,
		    next ? (size_t)(next - body) : strlen(body)) < 0)
			return -1;
		p = next;
	}
	return 0;
}

static int
migrate(struct db *db)
{
	PGresult *res;
	int current, latest;

	if (begin(db) < 0)
		goto fail;
	if (exec(db, "SELECT pg_advisory_xact_lock(" MIGRATION_LOCK ")", 0,
	    NULL) < 0 || exec(db, "CREATE TABLE IF NOT EXISTS schema_version ("
	    "version integer PRIMARY KEY, "
	    "applied_at timestamptz NOT NULL DEFAULT now())", 0, NULL) < 0)
		goto fail;
	res = query(db, "SELECT coalesce(max(version), 0) FROM schema_version",
	    0, NULL);
	if (res == NULL)
		goto fail;
	current = (int)get_i64(res, 0, 0);
	PQclear(res);
	if (apply_migrations(db, current, &latest) < 0)
		goto fail;
	if (current > latest) {
		log_error("the database schema (version %d) is newer than this "
		    "arena's (%d); upgrade arena", current, latest);
		goto fail;
	}
	return commit(db);
fail:
	rollback(db);
	return -1;
}

struct db *
db_open(const char *conninfo)
{
	struct db *db = xcalloc(1, sizeof *db);

	db->conn = PQconnectdb(conninfo);
	if (PQstatus(db->conn) != CONNECTION_OK) {
		const char *msg = PQerrorMessage(db->conn);

		log_error("cannot connect to the database: %.*s",
		    (int)strcspn(msg, "\n"), msg);
		goto fail;
	}
	PQsetNoticeProcessor(db->conn, notice, NULL);
	if (migrate(db) < 0)
		goto fail;
	return db;
fail:
	db_free(db);
	return NULL;
}

void
db_free(struct db *db)
{
	if (db == NULL)
		return;
	PQfinish(db->conn);
	free(db);
}

static int
store_entries(struct db *db, const char *tid, const struct spec *spec)
{
	for (size_t i = 0; i < spec->nentries; i++) {
		const struct spec_entry *e = &spec->entries[i];
		struct num idx;
		const char *params[] = { tid, i64(&idx, (int64_t)i), e->name,
		    e->folder, e->build, e->run };

		if (exec(db, "INSERT INTO entries (tournament_id, idx, name, "
		    "folder, build, run) VALUES ($1, $2, $3, $4, $5, $6)", 6,
		    params) < 0)
			return -1;
	}
	return 0;
}

static int
store_datasets(struct db *db, const char *tid, const struct spec *spec)
{
	for (size_t i = 0; i < spec->ndatasets; i++) {
		const struct spec_dataset *d = &spec->datasets[i];
		struct num idx;
		char *text;
		int ret;

		if (check_read_file(d->path, &text, NULL) < 0)
			return -1;
		const char *params[] = { tid, i64(&idx, (int64_t)i), d->name,
		    text };
		ret = exec(db, "INSERT INTO datasets (tournament_id, idx, name, "
		    "content) VALUES ($1, $2, $3, $4)", 4, params);
		free(text);
		if (ret < 0)
			return log_error("cannot store dataset '%s'", d->path);
	}
	return 0;
}

static const char *
format_name(enum spec_format f)
{
	return f == SPEC_FINAL ? "final" : "round_robin";
}

static int
store_stages(struct db *db, const char *tid, const struct spec *spec)
{
	for (size_t i = 0; i < spec->nstages; i++) {
		const struct spec_stage *s = &spec->stages[i];
		struct num idx, adv;
		const char *params[] = { tid, i64(&idx, (int64_t)i), s->name,
		    format_name(s->format), i64(&adv, (int64_t)s->advance) };

		if (exec(db, "INSERT INTO stages (tournament_id, idx, name, "
		    "format, advance) VALUES ($1, $2, $3, $4, $5)", 5,
		    params) < 0)
			return -1;
	}
	return 0;
}

/* The tournament of that name exists: resume it if its spec is the same. */
static int
tournament_resume(struct db *db, const struct spec *spec,
    const char *spec_text, int64_t *id)
{
	const char *params[] = { spec->name, spec_text };
	PGresult *res = query(db, "SELECT id, spec_text = $2 FROM tournaments "
	    "WHERE name = $1", 2, params);
	int ret = -1;

	if (res == NULL)
		return -1;
	if (PQntuples(res) != 1)
		log_error("tournament '%s' vanished while being opened",
		    spec->name);
	else if (!get_bool(res, 0, 1))
		log_error("tournament '%s' already exists with a different "
		    "spec; give the new one another name", spec->name);
	else {
		*id = get_i64(res, 0, 0);
		log_info("resuming tournament '%s'", spec->name);
		ret = 0;
	}
	PQclear(res);
	return ret;
}

int
db_tournament_open(struct db *db, const struct spec *spec,
    const char *spec_text, int64_t *tournament_id)
{
	const struct spec_limits *l = &spec->limits;
	struct num seed, call, game, mem, res_mb, tid;
	const char *params[] = { spec->name, spec->game, u64(&seed, spec->seed),
	    spec_text, i64(&call, l->call_ms), i64(&game, l->game_ms),
	    i64(&mem, l->memory_mb), i64(&res_mb, l->resident_mb) };
	PGresult *res;

	if (begin(db) < 0)
		goto fail;
	/* A concurrent opener of the same name waits on the unique index,
	 * then finds the row and resumes. */
	res = query(db, "INSERT INTO tournaments (name, game, seed, spec_text, "
	    "spec_sha256, call_ms, game_ms, memory_mb, resident_mb) "
	    "VALUES ($1, $2, $3, $4::text, "
	    "encode(sha256(convert_to($4::text, 'UTF8')), 'hex'), "
	    "$5, $6, $7, $8) ON CONFLICT (name) DO NOTHING RETURNING id",
	    8, params);
	if (res == NULL)
		goto fail;
	if (PQntuples(res) == 0) {
		PQclear(res);
		if (tournament_resume(db, spec, spec_text, tournament_id) < 0)
			goto fail;
		return commit(db);
	}
	*tournament_id = get_i64(res, 0, 0);
	PQclear(res);
	i64(&tid, *tournament_id);
	if (store_entries(db, tid.s, spec) < 0 ||
	    store_datasets(db, tid.s, spec) < 0 ||
	    store_stages(db, tid.s, spec) < 0)
		goto fail;
	return commit(db);
fail:
	rollback(db);
	return log_error("cannot store tournament '%s'", spec->name);
}

int
db_tournament_find(struct db *db, const char *name, int64_t *id)
{
	const char *params[] = { name };
	PGresult *res;
	int found;

	if (name)
		res = query(db, "SELECT id FROM tournaments WHERE name = $1",
		    1, params);
	else
		res = query(db, "SELECT id FROM tournaments "
		    "ORDER BY created_at DESC, id DESC LIMIT 1", 0, NULL);
	if (res == NULL)
		return -1;
	found = PQntuples(res) > 0;
	if (found)
		*id = get_i64(res, 0, 0);
	PQclear(res);
	return found;
}

int
db_tournament_name(struct db *db, int64_t id, char **name)
{
	struct num tid;
	const char *params[] = { i64(&tid, id) };
	PGresult *res = query(db, "SELECT name FROM tournaments WHERE id = $1",
	    1, params);
	int ret = 0;

	if (res == NULL)
		return -1;
	if (PQntuples(res) == 0)
		ret = log_error("no tournament %" PRId64, id);
	else
		*name = get_str(res, 0, 0);
	PQclear(res);
	return ret;
}

/* Database ids of a tournament's entries or datasets, by spec index. */
static int
load_ids(struct db *db, const char *sql, const char *tid, int64_t **ids,
    size_t *n)
{
	const char *params[] = { tid };
	PGresult *res = query(db, sql, 1, params);

	if (res == NULL)
		return -1;
	*n = (size_t)PQntuples(res);
	*ids = xcalloc(*n + 1, sizeof **ids);
	for (size_t i = 0; i < *n; i++)
		(*ids)[i] = get_i64(res, (int)i, 0);
	PQclear(res);
	return 0;
}

struct stage_ids {
	int64_t *entries;	/* entries.id by spec index */
	size_t nentries;
	int64_t *datasets;	/* datasets.id by spec index */
	size_t ndatasets;
	int64_t *groups;	/* groups.id by plan index */
	size_t ngroups;
};

static int
store_groups(struct db *db, const char *sid, const struct plan_stage *ps,
    struct stage_ids *ids)
{
	ids->groups = xcalloc(ps->ngroups + 1, sizeof *ids->groups);
	ids->ngroups = ps->ngroups;
	for (size_t g = 0; g < ps->ngroups; g++) {
		const struct plan_group *pg = &ps->groups[g];
		struct num idx, gid, eid, draw;
		const char *gparams[] = { sid, i64(&idx, (int64_t)g), pg->name };
		PGresult *res = query(db, "INSERT INTO groups (stage_id, idx, "
		    "name) VALUES ($1, $2, $3) RETURNING id", 3, gparams);

		if (res == NULL)
			return -1;
		ids->groups[g] = get_i64(res, 0, 0);
		PQclear(res);
		i64(&gid, ids->groups[g]);
		for (size_t m = 0; m < pg->nmembers; m++) {
			if (pg->members[m] >= ids->nentries)
				return log_error("group '%s': no entry %zu",
				    pg->name, pg->members[m]);
			const char *mparams[] = { gid.s,
			    i64(&eid, ids->entries[pg->members[m]]),
			    i64(&draw, (int64_t)m) };
			if (exec(db, "INSERT INTO group_members (group_id, "
			    "entry_id, draw) VALUES ($1, $2, $3)", 3,
			    mparams) < 0)
				return -1;
		}
	}
	return 0;
}

/* Appends ",v" (or "v" first) to a "{...}" array literal being built. */
static void
array_add(char *buf, size_t *len, const char *v)
{
	*len += (size_t)sprintf(buf + *len, "%s%s", *len > 1 ? "," : "", v);
}

/* All games of one match in one INSERT, from four array parameters. */
static int
store_games(struct db *db, const char *mid, const struct plan_match *pm,
    const struct stage_ids *ids)
{
	char *arr[4];
	size_t len[4];
	int ret = -1;

	for (int k = 0; k < 4; k++) {
		arr[k] = xmalloc(pm->ngames * 24 + 3);
		strcpy(arr[k], "{");
		len[k] = 1;
	}
	for (size_t i = 0; i < pm->ngames; i++) {
		const struct plan_game *pg = &pm->games[i];
		struct num n;

		if (pg->dataset >= ids->ndatasets ||
		    pg->first >= ids->nentries || pg->second >= ids->nentries) {
			log_error("plan: game %zu of a match is out of range", i);
			goto out;
		}
		array_add(arr[0], &len[0], i64(&n, ids->datasets[pg->dataset]));
		array_add(arr[1], &len[1], i64(&n, ids->entries[pg->first]));
		array_add(arr[2], &len[2], i64(&n, ids->entries[pg->second]));
		array_add(arr[3], &len[3], u64(&n, pg->seed));
	}
	for (int k = 0; k < 4; k++)
		strcpy(arr[k] + len[k], "}");
	const char *params[] = { mid, arr[0], arr[1], arr[2], arr[3] };
	ret = exec(db, "INSERT INTO games (match_id, idx, dataset_id, "
	    "first_entry, second_entry, seed) SELECT $1, u.n - 1, u.d, u.f, "
	    "u.s, u.seed FROM unnest($2::bigint[], $3::bigint[], "
	    "$4::bigint[], $5::numeric[]) WITH ORDINALITY AS u(d, f, s, seed, "
	    "n)", 5, params);
out:
	for (int k = 0; k < 4; k++)
		free(arr[k]);
	return ret;
}

static int
store_matches(struct db *db, const char *sid, const struct plan_stage *ps,
    const struct stage_ids *ids)
{
	for (size_t i = 0; i < ps->nmatches; i++) {
		const struct plan_match *pm = &ps->matches[i];
		struct num idx, gid, a, b, mid;
		PGresult *res;

		if (pm->group >= ids->ngroups || pm->a >= ids->nentries ||
		    pm->b >= ids->nentries)
			return log_error("plan: match %zu is out of range", i);
		const char *params[] = { sid, i64(&gid, ids->groups[pm->group]),
		    i64(&idx, (int64_t)i), i64(&a, ids->entries[pm->a]),
		    i64(&b, ids->entries[pm->b]) };
		res = query(db, "INSERT INTO matches (stage_id, group_id, idx, "
		    "entry_a, entry_b) VALUES ($1, $2, $3, $4, $5) "
		    "RETURNING id", 5, params);
		if (res == NULL)
			return -1;
		i64(&mid, get_i64(res, 0, 0));
		PQclear(res);
		if (store_games(db, mid.s, pm, ids) < 0)
			return -1;
	}
	return 0;
}

int
db_stage_store(struct db *db, int64_t tournament_id,
    const struct plan_stage *ps)
{
	struct stage_ids ids = { 0 };
	struct num tid, sidx, sid;
	const char *params[] = { i64(&tid, tournament_id),
	    i64(&sidx, (int64_t)ps->stage) };
	PGresult *res = NULL;
	bool expanded;

	if (begin(db) < 0)
		goto fail;
	/* The row lock makes a concurrent store of the same stage wait, then
	 * see it expanded. */
	res = query(db, "SELECT id, expanded_at IS NOT NULL FROM stages "
	    "WHERE tournament_id = $1 AND idx = $2 FOR UPDATE", 2, params);
	if (res == NULL)
		goto fail;
	if (PQntuples(res) != 1) {
		log_error("tournament %" PRId64 " has no stage %zu",
		    tournament_id, ps->stage);
		goto fail;
	}
	i64(&sid, get_i64(res, 0, 0));
	expanded = get_bool(res, 0, 1);
	PQclear(res);
	res = NULL;
	if (expanded)
		return commit(db);
	if (load_ids(db, "SELECT id FROM entries WHERE tournament_id = $1 "
	    "ORDER BY idx", tid.s, &ids.entries, &ids.nentries) < 0 ||
	    load_ids(db, "SELECT id FROM datasets WHERE tournament_id = $1 "
	    "ORDER BY idx", tid.s, &ids.datasets, &ids.ndatasets) < 0 ||
	    store_groups(db, sid.s, ps, &ids) < 0 ||
	    store_matches(db, sid.s, ps, &ids) < 0)
		goto fail;
	const char *sparams[] = { sid.s };
	if (exec(db, "UPDATE stages SET expanded_at = now() WHERE id = $1", 1,
	    sparams) < 0 || commit(db) < 0)
		goto fail;
	free(ids.entries);
	free(ids.datasets);
	free(ids.groups);
	return 0;
fail:
	PQclear(res);
	rollback(db);
	free(ids.entries);
	free(ids.datasets);
	free(ids.groups);
	return log_error("cannot store stage %zu", ps->stage);
}

int
db_stage_state(struct db *db, int64_t tournament_id, size_t stage,
    enum db_stage_state *state)
{
	struct num tid, sidx;
	const char *params[] = { i64(&tid, tournament_id),
	    i64(&sidx, (int64_t)stage) };
	PGresult *res = query(db, "SELECT s.expanded_at IS NOT NULL, "
	    "count(g.id) FILTER (WHERE g.state <> 'done') FROM stages s "
	    "LEFT JOIN matches m ON m.stage_id = s.id "
	    "LEFT JOIN games g ON g.match_id = m.id "
	    "WHERE s.tournament_id = $1 AND s.idx = $2 GROUP BY s.id", 2,
	    params);
	int ret = 0;

	if (res == NULL)
		return -1;
	if (PQntuples(res) != 1)
		ret = log_error("tournament %" PRId64 " has no stage %zu",
		    tournament_id, stage);
	else if (!get_bool(res, 0, 0))
		*state = DB_STAGE_PENDING;
	else
		*state = get_i64(res, 0, 1) > 0 ? DB_STAGE_RUNNING :
		    DB_STAGE_DONE;
	PQclear(res);
	return ret;
}

int
db_stage_advancers(struct db *db, int64_t tournament_id, size_t stage,
    size_t **entries, size_t *n)
{
	enum db_stage_state state;
	struct num tid, sidx;
	const char *params[] = { i64(&tid, tournament_id),
	    i64(&sidx, (int64_t)stage) };
	PGresult *res;

	if (db_stage_state(db, tournament_id, stage, &state) < 0)
		return -1;
	if (state != DB_STAGE_DONE)
		return log_error("stage %zu is not finished: no advancers yet",
		    stage);
	res = query(db, "SELECT entry_idx FROM advancers "
	    "WHERE tournament_id = $1 AND stage_idx = $2 "
	    "ORDER BY group_idx, place", 2, params);
	if (res == NULL)
		return -1;
	*n = (size_t)PQntuples(res);
	*entries = xcalloc(*n + 1, sizeof **entries);
	for (size_t i = 0; i < *n; i++)
		(*entries)[i] = (size_t)get_i64(res, (int)i, 0);
	PQclear(res);
	return 0;
}

static void
fill_seat(struct msg_seat *seat, const PGresult *res, int col)
{
	seat->entry = get_str(res, 0, col);
	seat->folder = get_str(res, 0, col + 1);
	seat->build = get_str(res, 0, col + 2);
	seat->run = get_str(res, 0, col + 3);
}

int
db_game_claim(struct db *db, int64_t tournament_id, const char *worker,
    int64_t lease_ms, struct msg_game *game)
{
	struct num tid, lease;
	const char *params[] = { i64(&tid, tournament_id), worker,
	    i64(&lease, lease_ms) };
	PGresult *res = query(db, "WITH next AS ("
	    "SELECT g.id FROM games g JOIN matches m ON m.id = g.match_id "
	    "JOIN stages s ON s.id = m.stage_id "
	    "WHERE s.tournament_id = $1 AND g.state = 'queued' "
	    "ORDER BY s.idx, m.idx, g.idx LIMIT 1 FOR UPDATE OF g SKIP LOCKED) "
	    "UPDATE games g SET state = 'running', worker = $2, "
	    "lease_until = now() + $3::float8 * interval '1 millisecond' "
	    "FROM next, datasets d, tournaments t, entries f, entries s "
	    "WHERE g.id = next.id AND d.id = g.dataset_id "
	    "AND t.id = d.tournament_id AND f.id = g.first_entry "
	    "AND s.id = g.second_entry "
	    "RETURNING g.id, g.attempt, t.game, d.name, d.content, g.seed, "
	    "t.call_ms, t.game_ms, t.memory_mb, t.resident_mb, "
	    "f.name, f.folder, f.build, f.run, s.name, s.folder, s.build, "
	    "s.run", 3, params);

	if (res == NULL)
		return -1;
	if (PQntuples(res) == 0) {
		PQclear(res);
		return 0;
	}
	memset(game, 0, sizeof *game);
	game->game_id = get_i64(res, 0, 0);
	game->attempt = (int32_t)get_i64(res, 0, 1);
	game->game = get_str(res, 0, 2);
	game->dataset_name = get_str(res, 0, 3);
	game->dataset = get_str(res, 0, 4);
	game->seed = strtoull(PQgetvalue(res, 0, 5), NULL, 10);
	game->limits.call_ms = get_i64(res, 0, 6);
	game->limits.game_ms = get_i64(res, 0, 7);
	game->limits.memory_mb = get_i64(res, 0, 8);
	game->limits.resident_mb = get_i64(res, 0, 9);
	game->nseats = 2;
	fill_seat(&game->seats[0], res, 10);
	fill_seat(&game->seats[1], res, 14);
	PQclear(res);
	return 1;
}

/* Requeues (game, attempt) if it is still running at that attempt; one
 * statement, so the history row and the state change go together. *n is
 * how many games moved (0 or 1). */
static int
requeue(struct db *db, const char *gid, const char *attempt,
    const char *kind, const char *reason, int *n)
{
	const char *params[] = { gid, attempt, kind, reason };
	PGresult *res = query(db, "WITH old AS ("
	    "SELECT id, attempt, worker FROM games WHERE id = $1 "
	    "AND attempt = $2 AND state = 'running' FOR UPDATE), "
	    "upd AS (UPDATE games g SET state = 'queued', "
	    "attempt = g.attempt + 1, worker = NULL, lease_until = NULL "
	    "FROM old WHERE g.id = old.id) "
	    "INSERT INTO game_events (game_id, attempt, kind, reason, worker) "
	    "SELECT id, attempt, $3, $4, worker FROM old", 4, params);

	if (res == NULL)
		return -1;
	*n = atoi(PQcmdTuples(res));
	PQclear(res);
	return 0;
}

int
db_game_requeue(struct db *db, int64_t game_id, int32_t attempt,
    const char *reason)
{
	struct num gid, att;
	int n;

	if (requeue(db, i64(&gid, game_id), i64(&att, attempt), "requeue",
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
	struct num tid;
	const char *params[] = { i64(&tid, tournament_id), worker };
	PGresult *res = query(db, "WITH old AS ("
	    "SELECT g.id, g.attempt, g.worker FROM games g "
	    "JOIN matches m ON m.id = g.match_id "
	    "JOIN stages s ON s.id = m.stage_id "
	    "WHERE s.tournament_id = $1 AND g.state = 'running' "
	    "AND (($2::text IS NULL AND g.lease_until < now()) "
	    "OR g.worker = $2::text) FOR UPDATE OF g SKIP LOCKED), "
	    "upd AS (UPDATE games g SET state = 'queued', "
	    "attempt = g.attempt + 1, worker = NULL, lease_until = NULL "
	    "FROM old WHERE g.id = old.id) "
	    "INSERT INTO game_events (game_id, attempt, kind, reason, worker) "
	    "SELECT id, attempt, "
	    "CASE WHEN $2::text IS NULL THEN 'lease_expired' "
	    "ELSE 'worker_lost' END, "
	    "CASE WHEN $2::text IS NULL THEN 'lease of ' || worker || "
	    "' expired' ELSE 'worker ' || worker || ' is gone' END, "
	    "worker FROM old", 2, params);

	if (res == NULL)
		return -1;
	*n = atoi(PQcmdTuples(res));
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

/* Checks what a worker sent before it touches the database: a bad
 * message is dropped, never stored. */
static bool
result_valid(const struct msg_result *r, bool *internal)
{
	*internal = false;
	if (r->nseats != 2) {
		log_warn("result for game %" PRId64 " has %u seats, not 2; "
		    "ignored", r->game_id, r->nseats);
		return false;
	}
	for (uint32_t i = 0; i < r->nseats; i++) {
		const struct msg_seat_result *s = &r->seats[i];

		if ((unsigned)s->verdict >= VERDICT_COUNT || s->illegal < 0 ||
		    s->cpu_ms < 0 || s->wall_ms < 0 || s->peak_kb < 0) {
			log_warn("result for game %" PRId64 " seat %u is "
			    "malformed; ignored", r->game_id, i);
			return false;
		}
		if (s->verdict == VERDICT_XX)
			*internal = true;
	}
	return true;
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
		const char *params[] = { rid, i64(&seat, i),
		    i64(&score, s->score), verdict_code(s->verdict),
		    i64(&ill, s->illegal), i64(&cpu, s->cpu_ms),
		    i64(&wall, s->wall_ms), i64(&peak, s->peak_kb) };

		if (exec(db, "INSERT INTO result_seats (result_id, seat, score, "
		    "verdict, illegal, cpu_ms, wall_ms, peak_kb) "
		    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", 8, params) < 0)
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
	PGresult *res = query(db, "INSERT INTO results (game_id, attempt, "
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
	i64(&rid, get_i64(res, 0, 0));
	PQclear(res);
	const char *gparams[] = { gid, rid.s };
	if (insert_seats(db, rid.s, r) < 0 || exec(db, "UPDATE games SET "
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
	const char *params[] = { i64(&gid, r->game_id), i64(&att, r->attempt) };
	PGresult *res;
	bool internal;
	int n;

	*recorded = false;
	if (!result_valid(r, &internal))
		return 0;
	if (begin(db) < 0)
		goto fail;
	res = query(db, "SELECT state, attempt FROM games WHERE id = $1 "
	    "FOR UPDATE", 1, params);
	if (res == NULL)
		goto fail;
	if (PQntuples(res) == 0 || strcmp(PQgetvalue(res, 0, 0), "running") ||
	    get_i64(res, 0, 1) != r->attempt) {
		log_info("stale result for game %s attempt %s from '%s' "
		    "ignored (game is %s)", gid.s, att.s, or_empty(worker),
		    PQntuples(res) ? PQgetvalue(res, 0, 0) : "unknown");
		PQclear(res);
		return commit(db);
	}
	PQclear(res);
	/* XX is our failure, not the bots': play the game again. */
	if (internal) {
		if (requeue(db, gid.s, att.s, "requeue", r->detail &&
		    *r->detail ? r->detail : "internal failure (XX)", &n) < 0)
			goto fail;
		log_info("game %s attempt %s failed on our side, requeued: %s",
		    gid.s, att.s, or_empty(r->detail));
		return commit(db);
	}
	if (store_result(db, gid.s, att.s, r, worker, recorded) < 0 ||
	    commit(db) < 0)
		goto fail;
	return 0;
fail:
	rollback(db);
	*recorded = false;
	return log_error("cannot record the result of game %s", gid.s);
}

int
db_progress(struct db *db, int64_t tournament_id, int64_t *done,
    int64_t *total)
{
	struct num tid;
	const char *params[] = { i64(&tid, tournament_id) };
	PGresult *res = query(db, "SELECT count(*) FILTER (WHERE "
	    "g.state = 'done'), count(*) FROM games g "
	    "JOIN matches m ON m.id = g.match_id "
	    "JOIN stages s ON s.id = m.stage_id WHERE s.tournament_id = $1",
	    1, params);

	if (res == NULL)
		return -1;
	*done = get_i64(res, 0, 0);
	*total = get_i64(res, 0, 1);
	PQclear(res);
	return 0;
}

static int
stage_exists(struct db *db, const char *tid, const char *stage)
{
	const char *params[] = { tid, stage };
	PGresult *res = query(db, "SELECT 1 FROM stages WHERE "
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
	const char *params[] = { i64(&tid, tournament_id), stage };
	PGresult *res;

	if (stage && stage_exists(db, tid.s, stage) < 0)
		return -1;
	res = query(db, "SELECT stage_name, group_name, rank, entry_name, "
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

		s->stage = get_str(res, i, 0);
		s->group = get_str(res, i, 1);
		s->rank = (int)get_i64(res, i, 2);
		s->entry = get_str(res, i, 3);
		s->played = (int)get_i64(res, i, 4);
		s->won = (int)get_i64(res, i, 5);
		s->drawn = (int)get_i64(res, i, 6);
		s->lost = (int)get_i64(res, i, 7);
		s->points = (int)get_i64(res, i, 8);
		s->games_won = (int)get_i64(res, i, 9);
		s->net_points = get_i64(res, i, 10);
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
	const char *params[] = { i64(&tid, tournament_id) };
	PGresult *res = query(db, "SELECT stage_name, group_name, match_id, "
	    "game_id, dataset_name, first_name, second_name, score_first, "
	    "score_second, winner_name, end_reason FROM game_list "
	    "WHERE tournament_id = $1 AND state = 'done' "
	    "ORDER BY stage_idx, group_idx, match_idx, game_idx", 1, params);

	if (res == NULL)
		return -1;
	*n = (size_t)PQntuples(res);
	*rows = xcalloc(*n + 1, sizeof **rows);
	for (int i = 0; i < (int)*n; i++) {
		struct db_game_row *g = &(*rows)[i];

		g->stage = get_str(res, i, 0);
		g->group = get_str(res, i, 1);
		g->match = get_i64(res, i, 2);
		g->game = get_i64(res, i, 3);
		g->dataset = get_str(res, i, 4);
		g->first = get_str(res, i, 5);
		g->second = get_str(res, i, 6);
		g->score_first = get_i64(res, i, 7);
		g->score_second = get_i64(res, i, 8);
		g->winner = get_str(res, i, 9);
		g->end_reason = get_str(res, i, 10);
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
	}
	free(rows);
}
