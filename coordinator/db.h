/*
 * db: all durable state, in PostgreSQL; the only libpq user. Every state
 * change is one statement or one transaction, so the coordinator may be
 * killed at any moment and resume from the database alone. Match results
 * and standings are computed by views in schema.sql; this module only
 * reads them.
 *
 * Game states (games.state, a CHECK constraint):
 *	queued -> running (leased to a worker until lease_until)
 *	running -> done (a result recorded) | queued (attempt + 1: lease
 *	expired or our own failure) | failed (DB_MAX_ATTEMPTS attempts in a
 *	row ended without a result)
 *	done | failed | queued -> queued (attempt + 1: `arena rerun`)
 * A failed game is not scored and its stage cannot complete: the
 * tournament stops until someone reruns it (DB_STAGE_BLOCKED).
 */
#ifndef ARENA_DB_H
#define ARENA_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/proto.h"
#include "common/spec.h"
#include "coordinator/plan.h"

struct db;

/* Attempts a game gets, since it was planned or last rerun, before it is
 * given up as 'failed' instead of being queued again: enough to ride out
 * a lost worker or two, few enough that a game which crashes every worker
 * (our bug, not a bot's) stops the tournament within minutes instead of
 * looping through the farm forever. */
#define DB_MAX_ATTEMPTS 5

/* Connects (conninfo as libpq takes it) and brings the schema up to the
 * current version. NULL after logging why. Free with db_free(). */
struct db *db_open(const char *conninfo);
void db_free(struct db *db);

/* Stores a new tournament from spec (entries, datasets with their file
 * contents, stages), or finds the one of the same name. Resuming with a
 * spec whose text differs is an error. spec_text is the spec file's text. */
int db_tournament_open(struct db *db, const struct spec *spec,
    const char *spec_text, int64_t *tournament_id);
/* Stores an entry's packed folder under sha256 (once per hash) and makes
 * it the entry's current artifact, logging when it replaces another one.
 * Games leased from then on carry the new hash. */
int db_artifact_store(struct db *db, int64_t tournament_id, const char *entry,
    const char *sha256, const char *bytes, size_t len);
/* The artifact stored under sha256: 1 and *bytes (caller frees) and *len,
 * 0 when there is none, -1 on error. */
int db_artifact_get(struct db *db, const char *sha256, char **bytes,
    size_t *len);
/* The tournament called name, or with name NULL the latest one. Returns 1
 * and *id when found, 0 when not, -1 on error. */
int db_tournament_find(struct db *db, const char *name, int64_t *id);
/* The name of tournament id. Caller owns *name; free(). */
int db_tournament_name(struct db *db, int64_t id, char **name);

enum db_stage_state {
	DB_STAGE_PENDING,	/* not expanded yet */
	DB_STAGE_RUNNING,	/* expanded, games left to play */
	DB_STAGE_DONE,		/* every game has a result */
	DB_STAGE_BLOCKED,	/* nothing queued or running, but some games
				 * failed: it cannot complete until rerun */
};

/* Stores an expanded stage (groups, members, matches, queued games) in
 * one transaction. A stage already stored is left as it is. */
int db_stage_store(struct db *db, int64_t tournament_id,
    const struct plan_stage *ps);
int db_stage_state(struct db *db, int64_t tournament_id, size_t stage,
    enum db_stage_state *state);
/* Entry indexes going on from a done stage: the top `advance` of each
 * group, by group then rank (ties at the cut: in a round-robin more net
 * points, then draw order; in a gauntlet or combinations stage draw
 * order). Caller owns *entries; free(). */
int db_stage_advancers(struct db *db, int64_t tournament_id, size_t stage,
    size_t **entries, size_t *n);

/* Leases the next queued game of the tournament to worker until now +
 * lease_ms. Returns 1 and fills *game, 0 when nothing is queued, -1 on
 * error. Caller owns *game's fields; free with msg_release(). */
int db_game_claim(struct db *db, int64_t tournament_id, const char *worker,
    int64_t lease_ms, struct msg_game *game);
/* Records a result for (game, attempt) in one transaction. A duplicate,
 * late or replayed delivery changes nothing: *recorded says which. */
int db_result_record(struct db *db, const struct msg_result *r,
    const char *worker, bool *recorded);
/* Puts a running game back in the queue with attempt + 1 (our own failure,
 * reason logged in the history). Nothing if (game, attempt) is stale. */
int db_game_requeue(struct db *db, int64_t game_id, int32_t attempt,
    const char *reason);
/* Requeues every running game whose lease has run out; *n how many. */
int db_leases_expire(struct db *db, int64_t tournament_id, int *n);
/* Requeues every running game leased to worker, known to be gone (its
 * process died): no need to wait for the leases. *n how many. */
int db_worker_lost(struct db *db, int64_t tournament_id, const char *worker,
    int *n);
/* The tournament's failed games (caller owns *games; free()) and how many
 * of its games are queued or running (*active). */
int db_games_failed(struct db *db, int64_t tournament_id, int64_t **games,
    size_t *n, int64_t *active);
/* Records that the coordinator of tournament_id heard from worker name
 * (address NULL when unknown) with slots slots. */
int db_worker_seen(struct db *db, int64_t tournament_id, const char *name,
    const char *address, int slots);
/* Games with a result, and all games, over the stages expanded so far. */
int db_progress(struct db *db, int64_t tournament_id, int64_t *done,
    int64_t *total);

struct db_standing {
	char *stage;
	char *group;		/* "A", "B", ... */
	int rank;		/* 1-based; equal points and games won share */
	char *entry;
	int played, won, drawn, lost;	/* matches */
	int points;		/* 3 a win, 1 a draw */
	int games_won;
	int64_t net_points;
};

struct db_game_row {
	char *stage;
	char *group;
	int64_t match;		/* matches.id */
	int64_t game;		/* games.id */
	char *dataset;
	char *first;		/* entry that played A */
	char *second;
	int64_t score_first;
	int64_t score_second;
	char *winner;		/* entry name, "" for a draw */
	char *end_reason;
	char *seats;		/* every seat's entry, "a,b,c" */
	char *scores;		/* every seat's score, "3,1,2" */
	int nseats;
};

/* Standings of one round-robin or final stage (by name) or, with stage
 * NULL, of every such stage in stage order; rows ordered by group then
 * rank then entry name (a gauntlet or combinations stage has none here:
 * see db_stage_table()). Caller owns the rows; free with
 * db_standings_free(). */
int db_standings(struct db *db, int64_t tournament_id, const char *stage,
    struct db_standing **rows, size_t *n);
void db_standings_free(struct db_standing *rows, size_t n);
struct db_rows;
/* The stages of tournament_id in order, or only the one called stage:
 * rows of (name, format). Release with db_rows_release(). */
int db_stage_formats(struct db *db, int64_t tournament_id, const char *stage,
    struct db_rows *t);
/* Standings of the gauntlet, combinations or all_vs_all stage called
 * stage (format as db_stage_formats() gives it), by group, rank, entry,
 * as text cells with column names cols (t->ncols of them; free with
 * db_cols_free()):
 * gauntlet: stage, group, rank, entry, "OPP lost" and "OPP points" for
 * each opponent (empty until that match is complete), played, lost,
 * points; combinations: stage, group, rank, entry, played, won (the one
 * top score), total, average (3 decimals); all_vs_all: stage, group,
 * rank, entry, played (games), total (score sum / repeat, 3 decimals),
 * mark (10 x total / best total, 3 decimals; all 0 when best <= 0). */
int db_stage_table(struct db *db, int64_t tournament_id, const char *stage,
    const char *format, struct db_rows *t, char ***cols);
void db_cols_free(char **cols, size_t n);
/* One seat of one attempt, with what the bot used. */
struct db_seat_usage {
	char *entry;
	char *artifact;		/* sha256 of what it played, or NULL */
	int64_t score;
	char *verdict;		/* "OK", "TO", ... */
	int illegal;		/* illegal or malformed answers */
	int64_t cpu_ms, wall_ms, peak_kb;
};

/* One attempt of a game that produced a result. */
struct db_attempt {
	int32_t attempt;
	bool current;		/* the result the standings count */
	int64_t superseded_by;	/* the rerun that replaced it, or 0 */
	char *worker;
	char *at;		/* when it was recorded */
	char *end_reason;
	char *detail;
	char *referee;		/* referee name and version */
	char *replay;
	size_t nseats;
	struct db_seat_usage seats[PROTO_MAX_SEATS];
};

/* An attempt that ended without a result (requeued, lease expired...). */
struct db_event {
	int32_t attempt;
	char *kind;		/* "requeue", "lease_expired", "worker_lost",
				 * "gave_up" */
	char *reason;
	char *worker;
	char *at;
};

/* Everything known about one game, for `arena show`. */
struct db_game_detail {
	int64_t game, match;
	int idx;		/* in its match, from 0 */
	char *tournament, *stage, *group, *dataset, *first, *second;
	char *seat_names;	/* every seat's entry, "a,b,c" */
	size_t nseats;
	char *seed;		/* decimal: a uint64 */
	char *state;		/* "queued", "running", "done", "failed" */
	int32_t attempt;	/* the current attempt */
	int64_t replaced_by;	/* the follow-up game of an undecided one
				 * (spare_datasets), which counts instead;
				 * 0 when this one counts */
	struct db_attempt *attempts;
	size_t nattempts;
	struct db_event *events;
	size_t nevents;
	int64_t *reruns;	/* reruns of this game, oldest first */
	size_t nreruns;
};

/* Fills *d for game_id: 1, 0 when there is no such game, -1 on error.
 * Release with db_game_detail_release(). */
int db_game_detail(struct db *db, int64_t game_id, struct db_game_detail *d);
void db_game_detail_release(struct db_game_detail *d);
/* The games of a match, in order. Caller owns *games; free(). 0 when
 * the match has none (no such match), -1 on error. */
int db_match_games(struct db *db, int64_t match_id, int64_t **games,
    size_t *n);

/* Every game with its current result, by stage, group, match, game;
 * not the undecided games a spare dataset's game replaced. */
int db_games(struct db *db, int64_t tournament_id, struct db_game_row **rows,
    size_t *n);
void db_games_free(struct db_game_row *rows, size_t n);

/* --- reruns (db_rerun.c) --- */

/* In one transaction: records a rerun of games (all of one stage of
 * tournament_id) asked by `by` for reason, with a snapshot of the stage's
 * standings and advancers, and puts each game back in the queue with
 * attempt + 1 and no current result (the old one stays in results).
 * *rerun_id is the new rerun. */
/* The tournament of game game_id: 1 and *tournament_id, 0 when there is
 * no such game, -1 on error. */
int db_game_tournament(struct db *db, int64_t game_id, int64_t *tournament_id);
int db_rerun_request(struct db *db, int64_t tournament_id,
    const int64_t *games, size_t n, const char *by, const char *reason,
    int64_t *rerun_id);
/* Once every game of the rerun has a result again, stores the stage's
 * standings after it; *complete says whether that happened (now or
 * before). */
int db_rerun_finish(struct db *db, int64_t rerun_id, bool *complete);

/* A standings row that a rerun changed: before and after as text, NULL
 * when the row did not exist on that side. */
struct db_change {
	char *group, *entry, *before, *after;
};

struct db_rerun_info {
	int64_t id;
	char *tournament, *stage, *by, *reason, *at;
	bool complete;		/* false: "after" is the standings now */
	char *games;		/* "12 (attempt 1 -> 2), 13 (...)" */
	struct db_change *changes;
	size_t nchanges;
};

/* Fills *r for rerun_id: 1, 0 when there is no such rerun, -1 on error.
 * Release with db_rerun_info_release(). */
int db_rerun_info(struct db *db, int64_t rerun_id, struct db_rerun_info *r);
void db_rerun_info_release(struct db_rerun_info *r);

/* A stage whose advancers are no longer the entrants of the next stage,
 * already expanded (a rerun changed the standings); left as it is. */
struct db_stale {
	char *stage, *next, *advancers_now, *entrants_played;
};

int db_stale_stages(struct db *db, int64_t tournament_id,
    struct db_stale **rows, size_t *n);
void db_stale_free(struct db_stale *rows, size_t n);

/* --- status (db_status.c) --- */

/* Text cells for display, row-major: cells[r * ncols + c], NULL for SQL
 * NULL. */
struct db_rows {
	size_t nrows, ncols;
	char **cells;
};

/* For `arena status`, each as the column comments in db_status.c say:
 * stages (name, expanded, games, done, running, queued, failed), workers
 * (name, address, slots, last seen, seconds since, games done, failures,
 * running), running games (game, match, worker, attempt, lease until,
 * seconds left) and failing games (game, match, state, attempt, last event
 * kind, reason, worker, at). */
int db_status_stages(struct db *db, int64_t tournament_id, struct db_rows *t);
int db_status_workers(struct db *db, int64_t tournament_id, struct db_rows *t);
int db_status_running(struct db *db, int64_t tournament_id, struct db_rows *t);
int db_status_failing(struct db *db, int64_t tournament_id, struct db_rows *t);
void db_rows_release(struct db_rows *t);
/* Cell (row, col) of t, "" for NULL. */
const char *db_rows_cell(const struct db_rows *t, size_t row, size_t col);

/* --- verification (db_verify.c) --- */

/* A game's counted result and what its referee needs to play it again. */
struct db_counted {
	int64_t game;
	char *referee_game;	/* the tournament's game, e.g. "dreamcity" */
	char *dataset_name;
	char *dataset;		/* the dataset file's whole text */
	uint64_t seed;
	int32_t attempt;	/* of the counted result */
	char *referee;		/* "name version" that played it */
	char *end_reason;
	char *replay;
	int64_t *scores;	/* one per seat */
	size_t nseats;
};

/* 1 and *c for a game with a counted result, 0 when it has none (or
 * there is no such game), -1 on error. Release with db_counted_release(). */
int db_game_counted(struct db *db, int64_t game_id, struct db_counted *c);
void db_counted_release(struct db_counted *c);
/* The ids of every game of the tournament with a counted result, in
 * order. Caller frees *ids. */
int db_counted_games(struct db *db, int64_t tournament_id, int64_t **ids,
    size_t *n);

/* --- batches, for the dispatch loop (db_claim.c, db_result.c) --- */

/* Leases up to max queued games of the tournament to worker in one
 * statement, as db_game_claim would one by one: games[0 .. *n) are
 * MSG_GAME messages the caller releases (msg_release); *n is 0 when
 * nothing is queued. */
int db_games_claim(struct db *db, int64_t tournament_id, const char *worker,
    int64_t lease_ms, struct msg *games, int max, int *n);

enum db_outcome {
	DB_RECORDED,	/* stored, the game's current result */
	DB_DUPLICATE,	/* (game, attempt) already had its result */
	DB_STALE,	/* the game is not running at that attempt */
	DB_INVALID,	/* malformed (logged), or not as many seats as
			 * the game: dropped */
	DB_REQUEUED,	/* an XX result: the game goes back to the queue */
	DB_FAILED,	/* the database failed: nothing done, send it again */
};

struct db_record {
	const struct msg_result *r;	/* in */
	const char *worker;		/* in: who sent it */
	enum db_outcome outcome;	/* out */
	/* out, why not recorded: "already recorded", "game is done",
	 * "game is unknown", "3 seats, the game has 2", ... */
	char state[48];
};

/* Records n results with one statement (one commit), each as
 * db_result_record would: exactly once per (game, attempt). Should the
 * batch fail, each is tried alone, so a bad one loses only itself.
 * Returns -1 when some are DB_FAILED. */
int db_results_record(struct db *db, struct db_record *recs, size_t n);

#endif
