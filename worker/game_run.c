/*
 * game_run: one game, start to end. Datasets and seat counts are checked
 * first (a bad one is our failure: XX, retried elsewhere, never scored);
 * then each seat is built and started; a seat that fails to build has
 * faulted before its first call. The referee decides who moves; we time
 * each call against both the call limit and what is left of that seat's
 * game time, and the first fault ends the game through the referee's
 * fault(). Per-turn bots (enum game_bots) are the exception: a failed
 * call is the seat's verdict (the worst it had), the referee gets "" and
 * the game goes on. Once a game has ended, a persistent bot that still
 * writes gets WA, its score unchanged.
 */
#include "worker/game_run.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/utf8.h"
#include "worker/bot.h"
#include "worker/build.h"

struct play {
	const struct game *game;
	const struct msg_game *g;
	struct msg_result *r;
	struct game_dataset *ds;
	struct game_state *s;
	struct bot *bots[PROTO_MAX_SEATS];
	int64_t used_ms[PROTO_MAX_SEATS];	/* game time spent per seat */
	char *replay;
	size_t len, cap;
	bool truncated;
};

static void
replay_add(struct play *p, const char *fmt, ...)
{
	char *line;
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) == -1)
		fatal("out of memory");
	va_end(ap);
	n = strlen(line);
	if (p->len + n + 1 > GAME_RUN_MAX_REPLAY) {
		p->truncated = true;
		free(line);
		return;
	}
	if (p->len + n + 1 > p->cap) {
		p->cap = (p->len + n + 1) * 2;
		p->replay = xrealloc(p->replay, p->cap);
	}
	memcpy(p->replay + p->len, line, n + 1);
	p->len += n;
	free(line);
}

/* Every seat XX: our failure, the game is retried. */
static int
fail_all(struct msg_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	free(r->detail);
	if (vasprintf(&r->detail, fmt, ap) == -1)
		fatal("out of memory");
	va_end(ap);
	for (uint32_t i = 0; i < r->nseats; i++)
		r->seats[i].verdict = VERDICT_XX;
	free(r->end_reason);
	r->end_reason = xstrdup("XX");
	return log_error("game %lld: %s", (long long)r->game_id, r->detail);
}

/* Ends the game on seat's fault. Takes ownership of detail. */
static void
seat_fault(struct play *p, int seat, enum verdict v, char *detail)
{
	struct msg_result *r = p->r;

	r->seats[seat].verdict = v;
	free(r->end_reason);
	r->end_reason = xstrdup(verdict_code(v));
	free(r->detail);
	r->detail = xasprintf("seat %c (%s): %s", 'A' + seat,
	    p->g->seats[seat].entry, detail);
	free(detail);
	replay_add(p, "! %c %s\n", 'A' + seat, verdict_code(v));
	p->game->fault(p->s, seat);
}

/* How bad a verdict is, to keep a seat's worst: faults over WA over OK. */
static int
severity(enum verdict v)
{
	return v == VERDICT_OK ? 0 : v == VERDICT_WA ? 1 : 2;
}

/* Records v on seat unless it had worse (its first such detail is kept),
 * without ending the game. Takes ownership of detail. */
static void
seat_mark(struct play *p, int seat, enum verdict v, char *detail)
{
	struct msg_result *r = p->r;

	if (severity(v) > severity(r->seats[seat].verdict)) {
		r->seats[seat].verdict = v;
		if (r->detail == NULL)
			r->detail = xasprintf("seat %c (%s): %s", 'A' + seat,
			    p->g->seats[seat].entry, detail);
	}
	free(detail);
}

/* Starts seat i's bot on its built folder. The sandbox gives the bot a
 * private copy of it (a per-turn bot keeps it between its calls):
 * nothing a bot writes survives its game. */
static int
start_bot(struct play *p, uint32_t i, const char *built, const char *data_dir)
{
	char *log_path;

	log_path = xasprintf("%s/logs/%lld-%d-%c.stderr", data_dir,
	    (long long)p->g->game_id, p->g->attempt, 'A' + i);
	if (p->game->bots == GAME_BOTS_PERSISTENT)
		p->bots[i] = bot_new(built, p->g->seats[i].run, &p->g->limits,
		    log_path);
	else
		p->bots[i] = bot_new_per_turn(built, p->g->seats[i].run,
		    p->game->bots, &p->g->limits, log_path);
	free(log_path);
	if (p->bots[i] == NULL)
		return fail_all(p->r, "cannot start entry '%s'",
		    p->g->seats[i].entry);
	if (p->game->no_tasks_after_call)
		bot_forbid_new_tasks(p->bots[i]);
	return 0;
}

/* Builds and starts every seat; a seat's build failure is its fault. */
static int
start_bots(struct play *p, const char *data_dir, int *build_fault,
    char **fault_detail)
{
	char *logs = xasprintf("%s/logs", data_dir), *dir, *detail;
	enum verdict v;
	int rc;

	if ((mkdir(data_dir, 0755) == -1 && errno != EEXIST) ||
	    (mkdir(logs, 0755) == -1 && errno != EEXIST)) {
		free(logs);
		return fail_all(p->r, "cannot create '%s/logs': %s", data_dir,
		    strerror(errno));
	}
	free(logs);
	for (uint32_t i = 0; i < p->g->nseats; i++) {
		if (build_prepare(data_dir, &p->g->seats[i], &dir, &v,
		    &detail) == -1)
			return fail_all(p->r, "cannot prepare entry '%s'",
			    p->g->seats[i].entry);
		if (v != VERDICT_OK) {
			if (*build_fault < 0) {
				*build_fault = (int)i;
				*fault_detail = detail;
			} else
				free(detail);
			continue;
		}
		rc = start_bot(p, i, dir, data_dir);
		free(dir);
		if (rc == -1)
			return -1;
	}
	return 0;
}

/* Runs the referee's loop until it ends or a seat faults. */
static void
play_loop(struct play *p)
{
	const struct spec_limits *lim = &p->g->limits;
	int seat;

	while ((seat = p->game->next_seat(p->s)) >= 0) {
		int64_t left;
		char *text, *answer, *detail;
		enum verdict v;

		if (seat >= (int)p->g->nseats) {
			fail_all(p->r, "referee chose seat %d of %u", seat,
			    p->g->nseats);
			return;
		}
		left = lim->game_ms - p->used_ms[seat];
		text = p->game->view(p->s, seat, left > 0 ? left : 0);
		if (bot_call(p->bots[seat], text, lim->call_ms,
		    left > 0 ? left : 0, &answer, &v, &detail) == -1) {
			free(text);
			fail_all(p->r, "cannot call entry '%s'",
			    p->g->seats[seat].entry);
			return;
		}
		p->used_ms[seat] += bot_last_ms(p->bots[seat]);
		free(text);
		if (v != VERDICT_OK && p->game->bots == GAME_BOTS_PERSISTENT) {
			seat_fault(p, seat, v, detail);
			return;
		}
		if (v != VERDICT_OK)
			seat_mark(p, seat, v, detail);
		/* The referee sees what the replay keeps: verify is exact. */
		utf8_clean(answer);
		replay_add(p, "%c %s\n", 'A' + seat, answer);
		if (p->game->apply(p->s, seat, answer) == GAME_MOVE_ILLEGAL)
			p->r->seats[seat].illegal++;
		free(answer);
	}
}

/* After a normal end: a persistent bot that still writes gets WA. */
static void
listen_after(struct play *p)
{
	int64_t deadline;
	char *detail;

	if (p->r->end_reason != NULL)
		return;		/* a fault ended it */
	for (uint32_t i = 0; i < p->r->nseats; i++)
		if (p->bots[i])
			bot_listen(p->bots[i]);
	deadline = clock_now_ms() + BOT_AFTER_MS;
	for (uint32_t i = 0; i < p->r->nseats; i++)
		if (p->bots[i] && bot_after_game(p->bots[i], deadline,
		    &detail) == 1)
			seat_mark(p, (int)i, VERDICT_WA, detail);
}

static void
finish(struct play *p)
{
	struct msg_result *r = p->r;
	int64_t scores[PROTO_MAX_SEATS] = { 0 };
	struct bot_usage u;
	const char *why;

	if (p->s && p->game->next_seat(p->s) < 0)
		listen_after(p);
	for (uint32_t i = 0; i < r->nseats; i++) {
		struct msg_seat_result *sr = &r->seats[i];

		if (p->bots[i]) {
			bot_end(p->bots[i], &u);
			sr->cpu_ms = u.cpu_ms;
			sr->wall_ms = u.wall_ms;
			sr->peak_kb = u.peak_kb;
		}
		if (sr->verdict == VERDICT_OK && sr->illegal > 0)
			sr->verdict = VERDICT_WA;
	}
	if (p->s && p->game->next_seat(p->s) < 0) {
		p->game->scores(p->s, scores);
		for (uint32_t i = 0; i < r->nseats; i++)
			r->seats[i].score = scores[i];
		why = p->game->end_reason(p->s);
		if (r->end_reason == NULL)
			r->end_reason = xstrdup(why ? why : "over");
	}
	if (p->truncated)
		replay_add(p, "! truncated\n");
	r->replay = p->replay ? p->replay : xstrdup("");
	p->replay = NULL;
}

static int
check_game(struct play *p, char *err, size_t errlen)
{
	const struct msg_game *g = p->g;

	if (p->game == NULL)
		return fail_all(p->r, "unknown game '%s' (known: %s)", g->game,
		    games_list());
	if ((int)g->nseats < p->game->min_seats ||
	    (int)g->nseats > p->game->max_seats)
		return fail_all(p->r, "game '%s' cannot have %u seats",
		    g->game, g->nseats);
	p->ds = p->game->dataset_parse(g->dataset_name, g->dataset,
	    strlen(g->dataset), err, errlen);
	if (p->ds == NULL)
		return fail_all(p->r, "bad dataset: %s", err);
	return 0;
}

int
game_run(const struct game *game, const struct msg_game *g,
    const char *data_dir, struct msg_result *r)
{
	struct play p = { .game = game ? game : games_find(g->game), .g = g,
	    .r = r };
	char err[512] = "", *detail = NULL;
	int fault = -1, rc = -1;

	memset(r, 0, sizeof *r);
	r->game_id = g->game_id;
	r->attempt = g->attempt;
	r->nseats = g->nseats <= PROTO_MAX_SEATS ? g->nseats : 0;
	r->referee = xasprintf("%s %s", g->game,
	    p.game ? p.game->version : "?");
	log_set_game(g->game_id);
	if (check_game(&p, err, sizeof err) == -1 ||
	    start_bots(&p, data_dir, &fault, &detail) == -1)
		goto out;
	p.s = p.game->start(p.ds, (int)g->nseats, g->seed);
	if (p.s == NULL) {
		fail_all(r, "referee cannot start the game");
		goto out;
	}
	if (fault >= 0) {
		seat_fault(&p, fault, VERDICT_RE, detail);
		detail = NULL;
	} else
		play_loop(&p);
	rc = r->nseats && r->seats[0].verdict == VERDICT_XX ? -1 : 0;
	finish(&p);
out:
	for (uint32_t i = 0; i < g->nseats && i < PROTO_MAX_SEATS; i++)
		bot_free(p.bots[i]);
	if (p.s)
		p.game->free_state(p.s);
	if (p.ds)
		p.game->dataset_free(p.ds);
	if (r->replay == NULL)
		r->replay = p.replay ? p.replay : xstrdup("");
	free(detail);
	log_set_game(0);
	return rc;
}
