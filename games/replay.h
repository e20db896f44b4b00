/*
 * replay: plays a stored game again without its bots, from the replay the
 * worker recorded (worker/game_run.h gives the format), so anyone can check
 * that a result follows from the moves (`arena verify`), or watch it
 * (`arena replay`).
 */
#ifndef ARENA_REPLAY_H
#define ARENA_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "games/game.h"

#define REPLAY_MAX_SEATS 8

struct replay_outcome {
	int nseats;
	int64_t scores[REPLAY_MAX_SEATS];
	char end_reason[32];	/* the game's word, or the fault's verdict */
	size_t calls;		/* answers applied */
};

/* Replays text on dataset (its file's whole text) with seed and nseats,
 * as game_run() played it, and fills *out. Returns 0, or -1 with a reason
 * naming the replay line in err: a malformed or truncated replay, a line
 * for a seat the referee did not call, lines after the end, a replay that
 * stops before the end. */
int replay_run(const struct game *g, const char *dataset_name,
    const char *dataset, uint64_t seed, int nseats, const char *text,
    struct replay_outcome *out, char *err, size_t errlen);

/* A viewer of a replay: frame is called with the state once after start()
 * (line NULL, seat -1), then after every replay line applied to it (line
 * is that line without its newline, e.g. "A 3 4" or "! B TO"; seat is who
 * played it). The state is borrowed for the call only. */
struct replay_watcher {
	void (*frame)(const struct game_state *s, int seat, const char *line,
	    void *arg);
	void *arg;
};

/* replay_run() calling w (NULL: none) at each step of the game. */
int replay_watch(const struct game *g, const char *dataset_name,
    const char *dataset, uint64_t seed, int nseats, const char *text,
    const struct replay_watcher *w, struct replay_outcome *out, char *err,
    size_t errlen);

#endif
