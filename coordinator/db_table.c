/*
 * db_table: the standings of gauntlet, combinations and all_vs_all
 * stages as text
 * tables with named columns (struct db_rows), for `arena standings` and
 * the exports. A gauntlet has a pair of columns per opponent, so its
 * columns depend on the stage. Values come from the views of schema.sql
 * (gauntlet_standings, gauntlet_results, combination_standings,
 * all_vs_all_standings).
 */
#include "coordinator/db.h"

#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "coordinator/db_internal.h"

static void
take_rows(PGresult *res, struct db_rows *t)
{
	t->nrows = (size_t)PQntuples(res);
	t->ncols = (size_t)PQnfields(res);
	t->cells = xcalloc(t->nrows * t->ncols + 1, sizeof *t->cells);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			t->cells[r * t->ncols + c] = db_get_str(res, (int)r,
			    (int)c);
	PQclear(res);
}

int
db_stage_formats(struct db *db, int64_t tournament_id, const char *stage,
    struct db_rows *t)
{
	struct num tid;
	const char *params[] = { db_i64(&tid, tournament_id), stage };
	PGresult *res = db_query(db, "SELECT name, format FROM stages "
	    "WHERE tournament_id = $1 AND ($2::text IS NULL OR name = $2) "
	    "ORDER BY idx", 2, params);

	memset(t, 0, sizeof *t);
	if (res == NULL)
		return -1;
	take_rows(res, t);
	if (stage != NULL && t->nrows == 0)
		return log_error("no stage '%s' in this tournament", stage);
	return 0;
}

static char **
names(const char *const *fixed, size_t n)
{
	char **cols = xcalloc(n + 1, sizeof *cols);

	for (size_t i = 0; i < n; i++)
		cols[i] = xstrdup(fixed[i]);
	return cols;
}

static int
combination_table(struct db *db, const char *const *params,
    struct db_rows *t, char ***cols)
{
	static const char *const fixed[] = { "stage", "group", "rank", "entry",
	    "played", "won", "total", "average" };
	PGresult *res = db_query(db, "SELECT stage_name, group_name, rank, "
	    "entry_name, played, won, total, average "
	    "FROM combination_standings WHERE tournament_id = $1 "
	    "AND stage_name = $2 ORDER BY group_idx, rank, entry_name", 2,
	    params);

	if (res == NULL)
		return -1;
	take_rows(res, t);
	*cols = names(fixed, t->ncols);
	return 0;
}

static int
all_vs_all_table(struct db *db, const char *const *params, struct db_rows *t,
    char ***cols)
{
	static const char *const fixed[] = { "stage", "group", "rank", "entry",
	    "played", "total", "mark" };
	PGresult *res = db_query(db, "SELECT stage_name, group_name, rank, "
	    "entry_name, played, total, mark FROM all_vs_all_standings "
	    "WHERE tournament_id = $1 AND stage_name = $2 "
	    "ORDER BY group_idx, rank, entry_name", 2, params);

	if (res == NULL)
		return -1;
	take_rows(res, t);
	*cols = names(fixed, t->ncols);
	return 0;
}

/* Columns: 4 fixed, a (lost, points) pair per opponent, 3 totals. */
static char **
gauntlet_cols(const PGresult *opp, size_t nopp)
{
	char **cols = xcalloc(4 + 2 * nopp + 3 + 1, sizeof *cols);
	static const char *const head[] = { "stage", "group", "rank",
	    "entry" };

	for (size_t i = 0; i < 4; i++)
		cols[i] = xstrdup(head[i]);
	for (size_t k = 0; k < nopp; k++) {
		const char *name = PQgetvalue(opp, (int)k, 1);

		cols[4 + 2 * k] = xasprintf("%s lost", name);
		cols[5 + 2 * k] = xasprintf("%s points", name);
	}
	cols[4 + 2 * nopp] = xstrdup("played");
	cols[5 + 2 * nopp] = xstrdup("lost");
	cols[6 + 2 * nopp] = xstrdup("points");
	return cols;
}

/* Puts each (entry, opponent) result in its row's pair of cells. */
static void
gauntlet_fill(struct db_rows *t, const PGresult *st, const PGresult *res)
{
	for (int i = 0; i < PQntuples(res); i++) {
		size_t pos = (size_t)db_get_i64(res, i, 1);

		for (size_t r = 0; r < t->nrows; r++) {
			char **row = t->cells + r * t->ncols;

			if (strcmp(PQgetvalue(st, (int)r, 7),
			    PQgetvalue(res, i, 0)) != 0)
				continue;
			row[4 + 2 * pos] = db_get_str(res, i, 2);
			row[5 + 2 * pos] = db_get_str(res, i, 3);
		}
	}
}

static int
gauntlet_table(struct db *db, const char *const *params, struct db_rows *t,
    char ***cols)
{
	PGresult *opp = NULL, *st = NULL, *res = NULL;
	size_t nopp;

	opp = db_query(db, "SELECT so.pos, e.name FROM stage_opponents so "
	    "JOIN stages s ON s.id = so.stage_id JOIN entries e "
	    "ON e.id = so.entry_id WHERE s.tournament_id = $1 AND "
	    "s.name = $2 ORDER BY so.pos", 2, params);
	st = db_query(db, "SELECT stage_name, group_name, rank, entry_name, "
	    "played, lost, points, entry_id FROM gauntlet_standings "
	    "WHERE tournament_id = $1 AND stage_name = $2 "
	    "ORDER BY group_idx, rank, entry_name", 2, params);
	res = db_query(db, "SELECT r.entry_id, r.opponent_pos, CASE WHEN "
	    "r.complete THEN r.lost END, r.points FROM gauntlet_results r "
	    "JOIN stages s ON s.id = r.stage_id WHERE s.tournament_id = $1 "
	    "AND s.name = $2", 2, params);
	if (opp == NULL || st == NULL || res == NULL) {
		PQclear(opp);
		PQclear(st);
		PQclear(res);
		return -1;
	}
	nopp = (size_t)PQntuples(opp);
	t->nrows = (size_t)PQntuples(st);
	t->ncols = 4 + 2 * nopp + 3;
	t->cells = xcalloc(t->nrows * t->ncols + 1, sizeof *t->cells);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < 7; c++)
			t->cells[r * t->ncols + c + (c < 4 ? 0 : 2 * nopp)] =
			    db_get_str(st, (int)r, (int)c);
	gauntlet_fill(t, st, res);
	*cols = gauntlet_cols(opp, nopp);
	PQclear(opp);
	PQclear(st);
	PQclear(res);
	return 0;
}

int
db_stage_table(struct db *db, int64_t tournament_id, const char *stage,
    const char *format, struct db_rows *t, char ***cols)
{
	struct num tid;
	const char *params[] = { db_i64(&tid, tournament_id), stage };

	memset(t, 0, sizeof *t);
	*cols = NULL;
	if (strcmp(format, "gauntlet") == 0)
		return gauntlet_table(db, params, t, cols);
	if (strcmp(format, "combinations") == 0)
		return combination_table(db, params, t, cols);
	if (strcmp(format, "all_vs_all") == 0)
		return all_vs_all_table(db, params, t, cols);
	return log_error("stage '%s' is a %s: no table of its own", stage,
	    format);
}

void
db_cols_free(char **cols, size_t n)
{
	if (cols == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		free(cols[i]);
	free(cols);
}
