/*
 * db_artifact: the entries' packed folders, kept in PostgreSQL (the only
 * durable state), so any coordinator on any machine can serve them to
 * workers. Stored once per sha256; an entry points at its current one.
 */
#include "coordinator/db.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db_internal.h"

int
db_artifact_store(struct db *db, int64_t tournament_id, const char *entry,
    const char *sha256, const char *bytes, size_t len)
{
	struct num tid;
	const char *params[] = { sha256, bytes, db_i64(&tid, tournament_id),
	    entry };
	const int lengths[] = { -1, (int)len, -1, -1 };
	PGresult *res;

	if (len > INT32_MAX)
		return log_error("artifact of entry '%s' is too large", entry);
	res = db_query_bin(db, "WITH ins AS (INSERT INTO artifacts (sha256, "
	    "content) VALUES ($1, $2) ON CONFLICT DO NOTHING), "
	    "old AS (SELECT id, artifact FROM entries WHERE tournament_id = $3 "
	    "AND name = $4 FOR UPDATE) "
	    "UPDATE entries e SET artifact = $1 FROM old WHERE e.id = old.id "
	    "RETURNING old.artifact", 4, params, lengths, 0);
	if (res == NULL)
		return log_error("cannot store the artifact of entry '%s'",
		    entry);
	if (PQntuples(res) != 1)
		log_error("entry '%s' is not in tournament %" PRId64, entry,
		    tournament_id);
	else if (PQgetisnull(res, 0, 0))
		log_info("entry '%s' packed: %s (%zu bytes)", entry, sha256,
		    len);
	else if (strcmp(PQgetvalue(res, 0, 0), sha256) != 0)
		log_warn("entry '%s' changed since it was packed: %s -> %s; "
		    "games not played yet use the new one", entry,
		    PQgetvalue(res, 0, 0), sha256);
	len = (size_t)PQntuples(res);
	PQclear(res);
	return len == 1 ? 0 : -1;
}

int
db_artifact_get(struct db *db, const char *sha256, char **bytes, size_t *len)
{
	const char *params[] = { sha256 };
	PGresult *res = db_query_bin(db, "SELECT content FROM artifacts "
	    "WHERE sha256 = $1", 1, params, NULL, 1);

	*bytes = NULL;
	*len = 0;
	if (res == NULL)
		return -1;
	if (PQntuples(res) == 0) {
		PQclear(res);
		return 0;
	}
	*len = (size_t)PQgetlength(res, 0, 0);
	*bytes = xmalloc(*len ? *len : 1);
	memcpy(*bytes, PQgetvalue(res, 0, 0), *len);
	PQclear(res);
	return 1;
}
