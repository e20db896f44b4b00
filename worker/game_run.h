/*
 * game_run: plays one game (a GAME message) with real bot processes and
 * fills its result. The loop is the one in games/game.h; this module adds
 * the builds, the bots, per-seat game time and the replay.
 *
 * Replay format: one line per call, "<seat letter> <answer>" (seat 0 is
 * A); a fault adds a last line "! <seat letter> <verdict code>"; a build
 * failure is such a fault before any call. With per-turn bots a failed
 * call is no fault: its line has the empty answer the referee got.
 */
#ifndef ARENA_GAME_RUN_H
#define ARENA_GAME_RUN_H

#include "common/proto.h"
#include "games/game.h"

#define GAME_RUN_MAX_REPLAY (8 << 20)	/* bytes; longer replays are cut */

/* Plays g with referee game (NULL: the one named by g->game), builds and
 * logs under data_dir. Always fills *r: returns 0 when the game was played
 * (whatever the bots did), -1 on our own failure with every seat XX and
 * the reason in r->detail. Caller owns r's fields; free with msg_release()
 * on a struct msg of type MSG_RESULT. */
int game_run(const struct game *game, const struct msg_game *g,
    const char *data_dir, struct msg_result *r);

#endif
