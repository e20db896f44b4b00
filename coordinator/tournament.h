/*
 * tournament: a spec's life in the database, stage after stage. Opening
 * stores the tournament and expands its first stage; advancing expands the
 * next stage once every game of the current one has a result. A stage
 * with a failed game never completes: the tournament is blocked until the
 * game is rerun.
 */
#ifndef ARENA_TOURNAMENT_H
#define ARENA_TOURNAMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/spec.h"
#include "coordinator/db.h"

/* Loads and checks spec_path (spec_load + check_spec, every problem
 * printed to stderr), before anything is started for it. Caller owns
 * *spec and *text (the file's text); free with spec_free() and free().
 * text may be NULL: the file's text is then not kept. */
int tournament_load(const char *spec_path, struct spec **spec, char **text);

/* Stores a loaded spec (or finds it, to resume) and expands the stages
 * that can be expanded; *finished as tournament_advance() says. */
int tournament_open(struct db *db, const struct spec *spec, const char *text,
    int64_t *tournament_id, bool *finished);

/* Expands every stage whose predecessor is done. *finished is true when
 * the last stage is done too. Safe to call at any time, any number of
 * times: a stage is expanded once. */
int tournament_advance(struct db *db, const struct spec *spec,
    int64_t tournament_id, bool *finished);

/* 1 when the tournament cannot go on by itself: no game is queued or
 * running but some failed (DB_MAX_ATTEMPTS without a result), after
 * logging which and how to retry them; 0 when it can; -1 on error. */
int tournament_blocked(struct db *db, int64_t tournament_id);

#endif
