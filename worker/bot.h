/*
 * bot: one persistent bot process for one game. It runs `sh -c RUN` in its
 * build folder, in its own process group, under rlimits, and is kept
 * stopped (SIGSTOP on the whole group) except during its own calls, so it
 * never thinks on the opponent's time. Each call writes the request to its
 * stdin and reads one line back under a wall-clock deadline measured by us.
 *
 * Memory: RLIMIT_AS caps the address space of each process at memory_mb,
 * so a greedy bot sees allocations fail and usually dies of it. Its verdict
 * is ML when we saw its address space reach 90% of the limit (sampled
 * every BOT_SAMPLE_MS during calls), otherwise RE with the exit code or
 * signal in the detail. A bot whose resident memory, summed over its
 * process group, exceeds resident_mb after a call is ML.
 */
#ifndef ARENA_BOT_H
#define ARENA_BOT_H

#include <stdint.h>
#include <sys/types.h>

#include "common/spec.h"
#include "common/verdict.h"

#define BOT_MAX_LINE (64 * 1024)	/* an answer longer than this: OL */
#define BOT_MAX_FILE (16 << 20)		/* RLIMIT_FSIZE: stderr log, files */
#define BOT_MAX_FILES 64		/* RLIMIT_NOFILE */
#define BOT_SAMPLE_MS 20

struct bot;

struct bot_usage {
	int64_t cpu_ms;		/* CPU time of the process group */
	int64_t wall_ms;	/* wall time spent inside calls */
	int64_t peak_kb;	/* largest resident set seen (VmHWM) */
};

/* Starts `sh -c run` in folder dir, stopped until its first call, stderr
 * appended to log_path. Makes the caller ignore SIGPIPE and a child
 * subreaper, so the bot's own children are reaped by bot_end(). NULL after logging why (our failure). Free with
 * bot_free(). */
struct bot *bot_new(const char *dir, const char *run,
    const struct spec_limits *limits, const char *log_path);

/* One call: request (ending in a newline) to the bot, one line back within
 * min(call_ms, remaining_ms) of wall time. Returns 0 with *verdict: OK and
 * *answer (the line without its newline; caller owns it, free()), or a
 * fault (TO, RE, ML, OL) with *detail (caller owns it, free()). After a
 * fault the bot is dead for every later call. -1 on our own failure. */
int bot_call(struct bot *b, const char *request, int64_t call_ms,
    int64_t remaining_ms, char **answer, enum verdict *verdict,
    char **detail);

/* Kills the whole process group, reaps the leader and fills *usage. The
 * bot answers no more calls; bot_free() is still needed. */
void bot_end(struct bot *b, struct bot_usage *usage);
void bot_free(struct bot *b);

/* The process group id, for logs and tests. */
pid_t bot_pgid(const struct bot *b);

#endif
