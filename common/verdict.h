/*
 * verdict: how one bot's part in a game ended. A misbehaving bot is a
 * result, not an error; only VERDICT_XX is a failure on our side (the game
 * is retried, never scored). The codes are stored in PostgreSQL and mirrored
 * by a CHECK constraint in coordinator/schema.sql.
 */
#ifndef ARENA_VERDICT_H
#define ARENA_VERDICT_H

enum verdict {
	VERDICT_OK,	/* played by the rules */
	VERDICT_WA,	/* illegal move or malformed output (game went on) */
	VERDICT_TO,	/* per-call or per-game time exceeded */
	VERDICT_ML,	/* memory limit exceeded */
	VERDICT_RE,	/* crashed, exited early or failed to build */
	VERDICT_SV,	/* refused by a sandbox rule */
	VERDICT_OL,	/* output limit exceeded */
	VERDICT_XX,	/* our own failure: retry the game */
	VERDICT_COUNT
};

/* Two-letter code, e.g. "TO". */
const char *verdict_code(enum verdict v);
/* 0 and *out set when code is a known two-letter code, -1 otherwise. */
int verdict_parse(const char *code, enum verdict *out);
/* True when the verdict ends a game abnormally (TO, ML, RE, SV, OL). */
int verdict_is_fault(enum verdict v);

#endif
