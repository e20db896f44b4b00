/*
 * db: arena's durable state in PostgreSQL. The module's files share
 * db_internal.h, the only header that includes libpq-fe.h. This one holds
 * the connection, schema migrations and the query helpers, and stores a
 * tournament and its stages; db_play.c leases games and records results;
 * db_report.c reads standings, advancers and game lists.
 *
 * Theory of operation. schema.sql (compiled in as db_schema_sql) is a list
 * of numbered migrations; db_open() applies the missing ones in one
 * transaction under an advisory lock, so two processes opening a fresh
 * database at once are safe. Every state change in the module is one
 * statement or one transaction, parameterised with PQexecParams; storing
 * a tournament, or one stage's groups, matches and games, is one
 * transaction.
 */
#include "coordinator/db.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/check.h"
#include "coordinator/db_internal.h"

/* Generated from schema.sql by coordinator/CMakeLists.txt. */
extern const char db_schema_sql[];

#define MIGRATION_MARK "\n-- migration "
/* Serialises schema migrations between processes ('arena' in ASCII). */
#define MIGRATION_LOCK "418531077729"

const char *
db_i64(struct num *n, int64_t v)
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

int
db_failed(struct db *db, const PGresult *res)
{
	const char *msg = res ? PQresultErrorMessage(res) : "";

	if (PQstatus(db->conn) == CONNECTION_BAD) {
		db_lost_log();
		return -1;
	}
	if (*msg == '\0')
		msg = PQerrorMessage(db->conn);
	return log_error("database: %.*s", (int)strcspn(msg, "\n"), msg);
}

PGresult *
db_query(struct db *db, const char *sql, int n, const char *const *params)
{
	return db_query_bin(db, sql, n, params, NULL, 0);
}

PGresult *
db_query_bin(struct db *db, const char *sql, int n, const char *const *params,
    const int *lengths, int result_format)
{
	int formats[DB_MAX_PARAMS];
	PGresult *res;
	ExecStatusType st;

	for (int i = 0; lengths && i < n && i < DB_MAX_PARAMS; i++)
		formats[i] = lengths[i] >= 0;

	/* A restarted server: reconnect, but never in the middle of a
	 * transaction, whose earlier statements are lost with the link. */
	if (!db->in_tx && PQstatus(db->conn) == CONNECTION_BAD) {
		db_lost_log();
		PQreset(db->conn);
	}
	res = PQexecParams(db->conn, sql, n, NULL, params, lengths,
	    lengths ? formats : NULL, result_format);
	st = PQresultStatus(res);
	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
		return res;
	db_failed(db, res);
	PQclear(res);
	return NULL;
}

int
db_exec(struct db *db, const char *sql, int n, const char *const *params)
{
	PGresult *res = db_query(db, sql, n, params);

	PQclear(res);
	return res ? 0 : -1;
}

int
db_begin(struct db *db)
{
	if (db_exec(db, "BEGIN", 0, NULL) < 0)
		return -1;
	db->in_tx = true;
	return 0;
}

int
db_commit(struct db *db)
{
	db->in_tx = false;
	return db_exec(db, "COMMIT", 0, NULL);
}

void
db_rollback(struct db *db)
{
	if (db->in_tx)
		PQclear(PQexec(db->conn, "ROLLBACK"));
	db->in_tx = false;
}

int64_t
db_get_i64(const PGresult *res, int row, int col)
{
	return strtoll(PQgetvalue(res, row, col), NULL, 10);
}

char *
db_get_str(const PGresult *res, int row, int col)
{
	if (PQgetisnull(res, row, col))
		return NULL;
	return xstrdup(PQgetvalue(res, row, col));
}

bool
db_get_bool(const PGresult *res, int row, int col)
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
	const char *params[] = { db_i64(&v, version) };
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
	return db_exec(db, "INSERT INTO schema_version (version) VALUES ($1)",
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

	if (db_begin(db) < 0)
		goto fail;
	if (db_exec(db, "SELECT pg_advisory_xact_lock(" MIGRATION_LOCK ")", 0,
	    NULL) < 0 || db_exec(db, "CREATE TABLE IF NOT EXISTS "
	    "schema_version (version integer PRIMARY KEY, "
	    "applied_at timestamptz NOT NULL DEFAULT now())", 0, NULL) < 0)
		goto fail;
	res = db_query(db, "SELECT coalesce(max(version), 0) "
	    "FROM schema_version", 0, NULL);
	if (res == NULL)
		goto fail;
	current = (int)db_get_i64(res, 0, 0);
	PQclear(res);
	if (apply_migrations(db, current, &latest) < 0)
		goto fail;
	if (current > latest) {
		log_error("the database schema (version %d) is newer than this "
		    "arena's (%d); upgrade arena", current, latest);
		goto fail;
	}
	return db_commit(db);
fail:
	db_rollback(db);
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
		const char *params[] = { tid, db_i64(&idx, (int64_t)i), e->name,
		    e->folder, e->build, e->run };

		if (db_exec(db, "INSERT INTO entries (tournament_id, idx, "
		    "name, folder, build, run) VALUES ($1, $2, $3, $4, $5, $6)",
		    6, params) < 0)
			return -1;
	}
	return 0;
}

/* The datasets at idx 0.., then the spare datasets after them, each
 * with its place among the spares (spare NULL: a dataset). */
static int
store_datasets(struct db *db, const char *tid, const struct spec *spec)
{
	for (size_t i = 0; i < spec->ndatasets + spec->nspares; i++) {
		bool spare = i >= spec->ndatasets;
		const struct spec_dataset *d = spare ?
		    &spec->spares[i - spec->ndatasets] : &spec->datasets[i];
		struct num idx, k;
		char *text;
		int ret;

		if (check_read_file(d->path, &text, NULL) < 0)
			return -1;
		const char *params[] = { tid, db_i64(&idx, (int64_t)i), d->name,
		    text, spare ? db_i64(&k, (int64_t)(i - spec->ndatasets)) :
		    NULL };
		ret = db_exec(db, "INSERT INTO datasets (tournament_id, idx, "
		    "name, content, spare) VALUES ($1, $2, $3, $4, $5)", 5,
		    params);
		free(text);
		if (ret < 0)
			return log_error("cannot store dataset '%s'", d->path);
	}
	return 0;
}

/* Appends ",v" (or "v" first) to a "{...}" array literal being built. */
static void
array_add(char *buf, size_t *len, const char *v)
{
	*len += (size_t)sprintf(buf + *len, "%s%s", *len > 1 ? "," : "", v);
}

/* A gauntlet's opponents, each by weight or by a points table; entries
 * are stored already. */
static int
store_opponents(struct db *db, const char *tid, const char *sidx,
    const struct spec_stage *s)
{
	for (size_t k = 0; k < s->nopponents; k++) {
		const struct spec_opponent *o = &s->opponents[k];
		char *points = NULL;
		struct num pos, w;
		int rc;

		if (o->points != NULL) {
			size_t len = 1;

			points = xmalloc(o->npoints * 24 + 3);
			strcpy(points, "{");
			for (size_t i = 0; i < o->npoints; i++)
				array_add(points, &len,
				    db_i64(&w, o->points[i]));
			strcpy(points + len, "}");
		}
		const char *params[] = { tid, sidx, db_i64(&pos, (int64_t)k),
		    o->entry, points ? NULL : db_i64(&w, o->weight), points };
		rc = db_exec(db, "INSERT INTO stage_opponents (stage_id, pos, "
		    "entry_id, weight, points) SELECT s.id, $3, e.id, $5, $6 "
		    "FROM stages s, entries e WHERE s.tournament_id = $1 AND "
		    "s.idx = $2 AND e.tournament_id = $1 AND e.name = $4", 6,
		    params);
		free(points);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int
store_stages(struct db *db, const char *tid, const struct spec *spec)
{
	for (size_t i = 0; i < spec->nstages; i++) {
		const struct spec_stage *s = &spec->stages[i];
		struct num idx, adv, rep;
		const char *params[] = { tid, db_i64(&idx, (int64_t)i), s->name,
		    spec_format_name(s->format),
		    db_i64(&adv, (int64_t)s->advance),
		    db_i64(&rep, (int64_t)(s->repeat ? s->repeat : 1)) };

		if (db_exec(db, "INSERT INTO stages (tournament_id, idx, name, "
		    "format, advance, repeat) VALUES ($1, $2, $3, $4, $5, $6)",
		    6, params) < 0 || store_opponents(db, tid, idx.s, s) < 0)
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
	PGresult *res = db_query(db, "SELECT id, spec_text = $2 "
	    "FROM tournaments WHERE name = $1", 2, params);
	int ret = -1;

	if (res == NULL)
		return -1;
	if (PQntuples(res) != 1)
		log_error("tournament '%s' vanished while being opened",
		    spec->name);
	else if (!db_get_bool(res, 0, 1))
		log_error("tournament '%s' already exists with a different "
		    "spec; give the new one another name", spec->name);
	else {
		*id = db_get_i64(res, 0, 0);
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
	    spec_text, db_i64(&call, l->call_ms), db_i64(&game, l->game_ms),
	    db_i64(&mem, l->memory_mb), db_i64(&res_mb, l->resident_mb),
	    l->clock == SPEC_CLOCK_CPU ? "cpu" : "wall",
	    l->ponder ? "true" : "false" };
	PGresult *res;

	if (db_begin(db) < 0)
		goto fail;
	/* A concurrent opener of the same name waits on the unique index,
	 * then finds the row and resumes. */
	res = db_query(db, "INSERT INTO tournaments (name, game, seed, "
	    "spec_text, spec_sha256, call_ms, game_ms, memory_mb, resident_mb, "
	    "clock, ponder) VALUES ($1, $2, $3, $4::text, "
	    "encode(sha256(convert_to($4::text, 'UTF8')), 'hex'), "
	    "$5, $6, $7, $8, $9, $10) ON CONFLICT (name) DO NOTHING "
	    "RETURNING id", 10, params);
	if (res == NULL)
		goto fail;
	if (PQntuples(res) == 0) {
		PQclear(res);
		if (tournament_resume(db, spec, spec_text, tournament_id) < 0)
			goto fail;
		return db_commit(db);
	}
	*tournament_id = db_get_i64(res, 0, 0);
	PQclear(res);
	db_i64(&tid, *tournament_id);
	if (store_entries(db, tid.s, spec) < 0 ||
	    store_datasets(db, tid.s, spec) < 0 ||
	    store_stages(db, tid.s, spec) < 0)
		goto fail;
	return db_commit(db);
fail:
	db_rollback(db);
	return log_error("cannot store tournament '%s'", spec->name);
}

int
db_query_ids(struct db *db, const char *sql, const char *param,
    int64_t **ids, size_t *n)
{
	const char *params[] = { param };
	PGresult *res = db_query(db, sql, 1, params);

	if (res == NULL)
		return -1;
	*n = (size_t)PQntuples(res);
	*ids = xcalloc(*n + 1, sizeof **ids);
	for (size_t i = 0; i < *n; i++)
		(*ids)[i] = db_get_i64(res, (int)i, 0);
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
		const char *gparams[] = { sid, db_i64(&idx, (int64_t)g),
		    pg->name };
		PGresult *res = db_query(db, "INSERT INTO groups (stage_id, "
		    "idx, name) VALUES ($1, $2, $3) RETURNING id", 3, gparams);

		if (res == NULL)
			return -1;
		ids->groups[g] = db_get_i64(res, 0, 0);
		PQclear(res);
		db_i64(&gid, ids->groups[g]);
		for (size_t m = 0; m < pg->nmembers; m++) {
			if (pg->members[m] >= ids->nentries)
				return log_error("group '%s': no entry %zu",
				    pg->name, pg->members[m]);
			const char *mparams[] = { gid.s,
			    db_i64(&eid, ids->entries[pg->members[m]]),
			    db_i64(&draw, (int64_t)m) };
			if (db_exec(db, "INSERT INTO group_members (group_id, "
			    "entry_id, draw) VALUES ($1, $2, $3)", 3,
			    mparams) < 0)
				return -1;
		}
	}
	return 0;
}

/* All games of one match in one INSERT from three array parameters, then
 * their seats in one more from two: seat s of game k is element
 * k * nseats + s of the entries array, every game of a match having the
 * same number of seats. */
static int
store_games(struct db *db, const char *mid, const struct plan_match *pm,
    const struct stage_ids *ids)
{
	size_t nseats = pm->ngames ? pm->games[0].nseats : 0;
	char *arr[3];
	size_t len[3];
	int ret = -1;

	arr[0] = xmalloc(pm->ngames * 24 + 3);
	arr[1] = xmalloc(pm->ngames * 24 + 3);
	arr[2] = xmalloc(pm->ngames * nseats * 24 + 3);
	for (int k = 0; k < 3; k++) {
		strcpy(arr[k], "{");
		len[k] = 1;
	}
	for (size_t i = 0; i < pm->ngames; i++) {
		const struct plan_game *pg = &pm->games[i];
		struct num n;

		if (pg->dataset >= ids->ndatasets || pg->nseats != nseats ||
		    nseats < 2 || nseats > PROTO_MAX_SEATS) {
			log_error("plan: game %zu of a match is out of range",
			    i);
			goto out;
		}
		array_add(arr[0], &len[0],
		    db_i64(&n, ids->datasets[pg->dataset]));
		array_add(arr[1], &len[1], u64(&n, pg->seed));
		for (size_t t = 0; t < nseats; t++) {
			if (pg->seats[t] >= ids->nentries) {
				log_error("plan: game %zu of a match is out of "
				    "range", i);
				goto out;
			}
			array_add(arr[2], &len[2],
			    db_i64(&n, ids->entries[pg->seats[t]]));
		}
	}
	for (int k = 0; k < 3; k++)
		strcpy(arr[k] + len[k], "}");
	struct num ns;
	const char *params[] = { mid, arr[0], arr[1] };
	const char *sparams[] = { mid, arr[2], db_i64(&ns, (int64_t)nseats) };
	if (db_exec(db, "INSERT INTO games (match_id, idx, dataset_id, seed) "
	    "SELECT $1, u.n - 1, u.d, u.seed FROM unnest($2::bigint[], "
	    "$3::numeric[]) WITH ORDINALITY AS u(d, seed, n)", 3,
	    params) < 0)
		goto out;
	ret = db_exec(db, "INSERT INTO game_seats (game_id, seat, entry_id) "
	    "SELECT g.id, (u.n - 1) % $3, u.e FROM unnest($2::bigint[]) "
	    "WITH ORDINALITY AS u(e, n) JOIN games g ON g.match_id = $1 "
	    "AND g.idx = (u.n - 1) / $3", 3, sparams);
out:
	for (int k = 0; k < 3; k++)
		free(arr[k]);
	return ret;
}

static int
store_match_entries(struct db *db, const char *mid,
    const struct plan_match *pm, const struct stage_ids *ids)
{
	for (size_t k = 0; k < pm->nentries; k++) {
		struct num pos, eid;
		const char *params[] = { mid, db_i64(&pos, (int64_t)k),
		    db_i64(&eid, ids->entries[pm->entries[k]]) };

		if (db_exec(db, "INSERT INTO match_entries (match_id, pos, "
		    "entry_id) VALUES ($1, $2, $3)", 3, params) < 0)
			return -1;
	}
	return 0;
}

static int
store_matches(struct db *db, const char *sid, const struct plan_stage *ps,
    const struct stage_ids *ids)
{
	for (size_t i = 0; i < ps->nmatches; i++) {
		const struct plan_match *pm = &ps->matches[i];
		struct num idx, gid, mid;
		PGresult *res;

		if (pm->group >= ids->ngroups || pm->nentries < 2 ||
		    pm->nentries > PROTO_MAX_SEATS)
			return log_error("plan: match %zu is out of range", i);
		for (size_t k = 0; k < pm->nentries; k++)
			if (pm->entries[k] >= ids->nentries)
				return log_error("plan: match %zu is out of "
				    "range", i);
		const char *params[] = { sid,
		    db_i64(&gid, ids->groups[pm->group]),
		    db_i64(&idx, (int64_t)i) };
		res = db_query(db, "INSERT INTO matches (stage_id, group_id, "
		    "idx) VALUES ($1, $2, $3) RETURNING id", 3, params);
		if (res == NULL)
			return -1;
		db_i64(&mid, db_get_i64(res, 0, 0));
		PQclear(res);
		if (store_match_entries(db, mid.s, pm, ids) < 0 ||
		    store_games(db, mid.s, pm, ids) < 0)
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
	const char *params[] = { db_i64(&tid, tournament_id),
	    db_i64(&sidx, (int64_t)ps->stage) };
	PGresult *res = NULL;
	bool expanded;

	if (db_begin(db) < 0)
		goto fail;
	/* The row lock makes a concurrent store of the same stage wait, then
	 * see it expanded. */
	res = db_query(db, "SELECT id, expanded_at IS NOT NULL FROM stages "
	    "WHERE tournament_id = $1 AND idx = $2 FOR UPDATE", 2, params);
	if (res == NULL)
		goto fail;
	if (PQntuples(res) != 1) {
		log_error("tournament %" PRId64 " has no stage %zu",
		    tournament_id, ps->stage);
		goto fail;
	}
	db_i64(&sid, db_get_i64(res, 0, 0));
	expanded = db_get_bool(res, 0, 1);
	PQclear(res);
	res = NULL;
	if (expanded)
		return db_commit(db);
	/* The entries' and datasets' database ids, by spec index. */
	if (db_query_ids(db, "SELECT id FROM entries WHERE tournament_id = $1 "
	    "ORDER BY idx", tid.s, &ids.entries, &ids.nentries) < 0 ||
	    db_query_ids(db, "SELECT id FROM datasets WHERE tournament_id = $1 "
	    "ORDER BY idx", tid.s, &ids.datasets, &ids.ndatasets) < 0 ||
	    store_groups(db, sid.s, ps, &ids) < 0 ||
	    store_matches(db, sid.s, ps, &ids) < 0)
		goto fail;
	const char *sparams[] = { sid.s };
	if (db_exec(db, "UPDATE stages SET expanded_at = now() WHERE id = $1",
	    1, sparams) < 0 || db_commit(db) < 0)
		goto fail;
	free(ids.entries);
	free(ids.datasets);
	free(ids.groups);
	return 0;
fail:
	PQclear(res);
	db_rollback(db);
	free(ids.entries);
	free(ids.datasets);
	free(ids.groups);
	return log_error("cannot store stage %zu", ps->stage);
}
