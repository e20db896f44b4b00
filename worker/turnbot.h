/*
 * turnbot: a per-turn bot (games/game.h, GAME_BOTS_PER_TURN_ARG and
 * GAME_BOTS_PER_TURN_FILES): a new process per call, started in the
 * bot's own folder, a private copy of its built folder made for this game
 * (its only memory: kept between the calls of one game, gone after it;
 * the sandbox's size-limited /box, charged to its memory). Nothing it
 * starts survives a call: it is killed, threads and all, when the call
 * ends.
 *
 * ARG: the view (without its newline) is one more argument of the run
 * command, single-quoted; the answer is the first line of its stdout.
 * FILES: the view is written to input.txt before the call, and output.txt
 * removed; the answer is the first line of output.txt once the command
 * has exited or been killed at the call limit (never following a symlink,
 * never opening a FIFO or a device).
 *
 * A call ends when the command exits, or at min(call limit, game time
 * left) on the limits' clock, when it is killed: an answer given by then
 * stands. A failed call is a verdict for that call only: TO (no answer by
 * the deadline), RE (crashed, or exited non-zero), ML, SV (a sandbox rule,
 * or output.txt not a regular file), OL (output too long), WA (exited
 * without an answer); its answer is "" and the game goes on.
 */
#ifndef ARENA_TURNBOT_H
#define ARENA_TURNBOT_H

#include <stdint.h>

#include "common/spec.h"
#include "common/verdict.h"
#include "games/game.h"

/* Bytes of stdout (ARG) kept reading after the answer before OL. */
#define TURNBOT_MAX_OUTPUT (1 << 20)
/* Wall time for the run of "true" that makes a seat's sandbox. */
#define TURNBOT_SETUP_MS 10000

struct turnbot;
struct bot_usage;

/* Gets ready to run `run` once per call in a copy of built (the build's
 * folder), stderr appended to log_path. NULL after logging (our
 * failure). */
struct turnbot *turnbot_new(const char *built, const char *run,
    enum game_bots mode, const struct spec_limits *limits,
    const char *log_path);

/* One call, as bot_call() in worker/bot.h, except that a fault is this
 * call's only: *answer is always set ("" after a fault). -1 on our own
 * failure (no sandbox, cannot write input.txt). */
int turnbot_call(struct turnbot *tb, const char *view, int64_t call_ms,
    int64_t remaining_ms, char **answer, enum verdict *verdict,
    char **detail);

/* Wall time of the last call, from its start to its end (game time). */
int64_t turnbot_last_ms(const struct turnbot *tb);

/* Usage over the game's calls: CPU and wall summed, peak the largest. */
void turnbot_usage(const struct turnbot *tb, struct bot_usage *usage);

/* Ends its sandbox, and with it its folder. Accepts NULL. */
void turnbot_free(struct turnbot *tb);

#endif
