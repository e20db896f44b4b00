/*
 * tournament: moves a tournament from stage to stage. The database says
 * which stages are expanded and done; this only decides what comes next,
 * so any number of calls, from any process, after any crash, converge.
 */
#include "coordinator/tournament.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/artifact.h"
#include "common/log.h"
#include "coordinator/check.h"
#include "coordinator/plan.h"

int
tournament_load(const char *spec_path, struct spec **spec, char **text)
{
	struct spec *s = NULL;

	if (spec_load(spec_path, stderr, &s) < 0)
		return log_error("spec '%s' has problems", spec_path);
	if (check_spec(s, stderr) > 0) {
		spec_free(s);
		return log_error("spec '%s' has problems", spec_path);
	}
	if (text != NULL && check_read_file(spec_path, text, NULL) < 0) {
		spec_free(s);
		return -1;
	}
	*spec = s;
	return 0;
}

/* Packs every entry's folder as it is now and makes that its artifact:
 * on a resume, a folder changed since the last run is used, changed, for
 * the games still to play (db_artifact_store logs it). */
static int
pack_entries(struct db *db, const struct spec *spec, int64_t tournament_id)
{
	char hex[ARTIFACT_HEX], *buf;
	size_t len;
	int rc;

	for (size_t i = 0; i < spec->nentries; i++) {
		const struct spec_entry *e = &spec->entries[i];

		if (artifact_pack(e->folder, PROTO_MAX_ARTIFACT, &buf, &len,
		    hex) == -1)
			return log_error("cannot pack entry '%s'", e->name);
		rc = db_artifact_store(db, tournament_id, e->name, hex, buf,
		    len);
		free(buf);
		if (rc == -1)
			return -1;
	}
	return 0;
}

int
tournament_open(struct db *db, const struct spec *spec, const char *text,
    int64_t *tournament_id, bool *finished)
{
	if (db_tournament_open(db, spec, text, tournament_id) < 0 ||
	    pack_entries(db, spec, *tournament_id) < 0)
		return -1;
	return tournament_advance(db, spec, *tournament_id, finished);
}

/* Expands stage i, whose entrants are every entry (first stage) or the
 * advancers of stage i - 1, which is done. */
static int
expand_stage(struct db *db, const struct spec *spec, int64_t tournament_id,
    size_t i)
{
	struct plan_stage *ps = NULL;
	size_t *entrants = NULL, n;
	int rc = -1;

	if (i == 0) {
		n = spec->nentries;
		entrants = xcalloc(n, sizeof *entrants);
		for (size_t e = 0; e < n; e++)
			entrants[e] = e;
	} else if (db_stage_advancers(db, tournament_id, i - 1, &entrants,
	    &n) < 0) {
		return -1;
	}
	if (plan_expand(spec, i, entrants, n, &ps) < 0)
		goto out;
	if (db_stage_store(db, tournament_id, ps) < 0)
		goto out;
	log_info("stage '%s' expanded: %zu entrants, %zu groups, %zu matches",
	    spec->stages[i].name, n, ps->ngroups, ps->nmatches);
	rc = 0;
out:
	plan_stage_free(ps);
	free(entrants);
	return rc;
}

int
tournament_advance(struct db *db, const struct spec *spec,
    int64_t tournament_id, bool *finished)
{
	enum db_stage_state state;

	*finished = false;
	for (size_t i = 0; i < spec->nstages; i++) {
		if (db_stage_state(db, tournament_id, i, &state) < 0)
			return -1;
		if (state == DB_STAGE_PENDING) {
			if (expand_stage(db, spec, tournament_id, i) < 0)
				return -1;
			/* A stage may be done as soon as it is stored. */
			if (db_stage_state(db, tournament_id, i, &state) < 0)
				return -1;
		}
		if (state != DB_STAGE_DONE)
			return 0;
	}
	*finished = true;
	return 0;
}

int
tournament_blocked(struct db *db, int64_t tournament_id)
{
	int64_t *failed = NULL, active;
	size_t n;
	char list[256] = "";
	size_t len = 0;

	if (db_games_failed(db, tournament_id, &failed, &n, &active) < 0)
		return -1;
	if (n == 0 || active > 0) {
		free(failed);
		return 0;
	}
	for (size_t i = 0; i < n && len < sizeof list - 40; i++)
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%" PRId64,
		    i ? ", " : "", failed[i]);
	if (len >= sizeof list - 40)
		snprintf(list + len, sizeof list - len, ", ...");
	log_error("tournament blocked: %zu game%s failed %d times without a "
	    "result and %s not scored: %s; see 'arena status' and 'arena show "
	    "game ID', then retry with 'arena rerun SPEC --game ID "
	    "--reason TEXT'", n, n == 1 ? "" : "s", DB_MAX_ATTEMPTS,
	    n == 1 ? "is" : "are", list);
	free(failed);
	return 1;
}
