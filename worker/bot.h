/*
 * bot: one persistent bot process for one game, run in the sandbox
 * (sandbox/sandbox.h) in a folder of its own. It is frozen except during
 * its own calls (unless the limits allow pondering), so it never computes
 * on its opponent's time. Each call thaws it, writes the request to its
 * stdin, reads one line back, and freezes it again; the call's time is
 * measured on the clock the limits name (wall by default, or the CPU time
 * of everything in its sandbox), and both are recorded.
 *
 * Faults: TO (call or game time), ML (the memory cgroup killed it during
 * a call, or more than resident_mb stayed resident after one), RE (it
 * crashed, exited or closed its output), SV (a sandbox rule killed it),
 * OL (an answer over BOT_MAX_LINE, or that much output between calls),
 * WA (output when no call was open: "wrote before it was asked" before
 * its first call, "answered twice" after one).
 * After a fault the bot is dead for every later call.
 *
 * Per-turn bots (worker/turnbot.h) are behind the same calls: made by
 * bot_new_per_turn(), a new sandbox per call, and a fault is that call's
 * only (the game goes on with the answer "").
 */
#ifndef ARENA_BOT_H
#define ARENA_BOT_H

#include <stdint.h>
#include <sys/types.h>

#include "common/spec.h"
#include "common/verdict.h"
#include "games/game.h"

#define BOT_MAX_LINE (64 * 1024)	/* an answer longer than this: OL */
/* On the CPU clock, a bot that sleeps instead of computing is still
 * stopped: after this many times its call budget in wall time. */
#define BOT_WALL_FACTOR 2
/* How often CPU time is read while a call runs on the CPU clock. */
#define BOT_CPU_POLL_MS 10
/* How long a bot whose output closed has to end, so we can say why. */
#define BOT_END_GRACE_MS 200
/* How long a bot is listened to after the game's last call. */
#define BOT_AFTER_MS 20

struct bot;

struct bot_usage {
	int64_t cpu_ms;		/* CPU time of everything in its sandbox */
	int64_t wall_ms;	/* wall time spent inside calls */
	int64_t peak_kb;	/* peak memory of its sandbox */
};

/* Starts `run` in the sandbox with folder dir (the caller's copy for this
 * game, owned by SANDBOX_FILES_UID) as its working directory, frozen until
 * its first call, stderr appended to log_path. NULL after logging why
 * (our failure). Free with bot_free(). */
struct bot *bot_new(const char *dir, const char *run,
    const struct spec_limits *limits, const char *log_path);

/* A per-turn bot (mode GAME_BOTS_PER_TURN_ARG or _FILES) on a private
 * copy of built, the build's folder, for this game. NULL after logging
 * why (our failure). */
struct bot *bot_new_per_turn(const char *built, const char *run,
    enum game_bots mode, const struct spec_limits *limits,
    const char *log_path);

/* The game forbids threads or processes left running after a call: from
 * now on a call that ends with more tasks in the bot's sandbox than its
 * first call ended with is a fault, SV. */
void bot_forbid_new_tasks(struct bot *b);

/* One call: request (ending in a newline) to the bot, one line back within
 * min(call_ms, remaining_ms) on the limits' clock. Returns 0 with
 * *verdict: OK and *answer (the line without its newline; caller owns it,
 * free()), or a fault with *detail (caller owns it, free()). -1 on our
 * own failure (the sandbox could not freeze or thaw it). */
int bot_call(struct bot *b, const char *request, int64_t call_ms,
    int64_t remaining_ms, char **answer, enum verdict *verdict,
    char **detail);

/* Wall time the last call took (game time): for a per-turn bot, from its
 * start to its end, without making its sandbox. */
int64_t bot_last_ms(const struct bot *b);

/* After the game's last call: a persistent bot that has not faulted gets
 * the end of its input and is thawed to be heard (call it for every
 * seat, then bot_after_game() for each, so they are heard at once). Its
 * usage is kept as of now. */
void bot_listen(struct bot *b);
/* Whether it wrote anything after its last call, listening until the
 * deadline (clock_now_ms()): 1 with *detail "wrote after the game
 * ended" (caller frees), else 0. Always 0 for per-turn bots. */
int bot_after_game(struct bot *b, int64_t deadline_ms, char **detail);

/* Kills everything in the bot's sandbox and fills *usage (NULL: not
 * wanted). The bot answers no more calls; bot_free() is still needed. */
void bot_end(struct bot *b, struct bot_usage *usage);
void bot_free(struct bot *b);

/* The pid of its command as seen from outside (for tests and logs); -1
 * for a per-turn bot. */
pid_t bot_pid(const struct bot *b);

#endif
