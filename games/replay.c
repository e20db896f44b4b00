/*
 * replay: the worker's loop (worker/game_run.c) with the bots replaced by
 * the lines they answered. Each line is checked against what the referee
 * expects next, so a replay that was edited, cut or belongs to another
 * game is an error, not a silently different result.
 */
#include "games/replay.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/verdict.h"

struct cursor {
	const char *p;		/* the next line */
	int line;		/* its number, 1-based */
	char *err;
	size_t errlen;
	const struct replay_watcher *w;	/* NULL: nobody watches */
};

static void
show(const struct cursor *c, const struct game_state *s, int seat,
    const char *line)
{
	if (c->w != NULL && c->w->frame != NULL)
		c->w->frame(s, seat, line, c->w->arg);
}

static int
fail(struct cursor *c, const char *fmt, ...)
{
	int n = snprintf(c->err, c->errlen, "replay line %d: ", c->line);
	va_list ap;

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < c->errlen)
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* The next line without its newline (caller frees), or NULL at the end. */
static char *
next_line(struct cursor *c)
{
	size_t n;
	char *line;

	if (*c->p == '\0')
		return NULL;
	n = strcspn(c->p, "\n");
	line = xmalloc(n + 1);
	memcpy(line, c->p, n);
	line[n] = '\0';
	c->p += n + (c->p[n] == '\n');
	c->line++;
	return line;
}

/* "! S CODE": seat S faulted with verdict CODE, which ends the game. */
static int
apply_fault(struct cursor *c, const struct game *g, struct game_state *s,
    int expected, const char *line, struct replay_outcome *out)
{
	enum verdict v;

	if (strcmp(line, "! truncated") == 0)
		return fail(c, "the replay was cut at its size limit: it "
		    "cannot be verified");
	if (strlen(line) < 5 || line[1] != ' ' || line[3] != ' ' ||
	    line[2] - 'A' != expected || verdict_parse(line + 4, &v) == -1)
		return fail(c, "expected \"! %c VERDICT\", not \"%s\"",
		    'A' + expected, line);
	g->fault(s, expected);
	snprintf(out->end_reason, sizeof out->end_reason, "%s",
	    verdict_code(v));
	return 0;
}

/* A build failure is a fault before the first call, of any seat. */
static int
leading_fault(const char *text, int nseats)
{
	if (text[0] == '!' && text[1] == ' ' && text[2] >= 'A' &&
	    text[2] < 'A' + nseats && text[3] == ' ')
		return text[2] - 'A';
	return -1;
}

static int
play(struct cursor *c, const struct game *g, struct game_state *s,
    struct replay_outcome *out)
{
	int seat = leading_fault(c->p, out->nseats);
	char *line;
	int rc = 0;

	if (seat < 0)
		seat = g->next_seat(s);
	for (; seat >= 0 && rc == 0; seat = g->next_seat(s)) {
		if ((line = next_line(c)) == NULL)
			return fail(c, "the replay stops while seat %c is to "
			    "move", 'A' + seat);
		if (line[0] == '!')
			rc = apply_fault(c, g, s, seat, line, out);
		else if (line[0] != 'A' + seat || (line[1] != ' ' &&
		    line[1] != '\0'))
			rc = fail(c, "seat %c is to move, not \"%.40s\"",
			    'A' + seat, line);
		else {
			g->apply(s, seat, line[1] ? line + 2 : "");
			out->calls++;
		}
		if (rc == 0)
			show(c, s, seat, line);
		free(line);
		if (out->end_reason[0] != '\0')
			break;
	}
	if (rc == 0 && (line = next_line(c)) != NULL) {
		rc = fail(c, "\"%.40s\" after the end of the game", line);
		free(line);
	}
	return rc;
}

int
replay_run(const struct game *g, const char *dataset_name,
    const char *dataset, uint64_t seed, int nseats, const char *text,
    struct replay_outcome *out, char *err, size_t errlen)
{
	return replay_watch(g, dataset_name, dataset, seed, nseats, text, NULL,
	    out, err, errlen);
}

int
replay_watch(const struct game *g, const char *dataset_name,
    const char *dataset, uint64_t seed, int nseats, const char *text,
    const struct replay_watcher *w, struct replay_outcome *out, char *err,
    size_t errlen)
{
	struct cursor c = { .p = text, .err = err, .errlen = errlen, .w = w };
	struct game_dataset *ds;
	struct game_state *s = NULL;
	const char *why;
	int rc = -1;

	memset(out, 0, sizeof *out);
	out->nseats = nseats;
	if (nseats < g->min_seats || nseats > g->max_seats ||
	    nseats > REPLAY_MAX_SEATS) {
		snprintf(err, errlen, "%s cannot have %d seats", g->name,
		    nseats);
		return -1;
	}
	if ((ds = g->dataset_parse(dataset_name, dataset, strlen(dataset),
	    err, errlen)) == NULL)
		return -1;
	if ((s = g->start(ds, nseats, seed)) == NULL) {
		snprintf(err, errlen, "the referee cannot start the game");
		goto out;
	}
	show(&c, s, -1, NULL);
	if (play(&c, g, s, out) == -1)
		goto out;
	g->scores(s, out->scores);
	why = g->end_reason(s);
	if (out->end_reason[0] == '\0')
		snprintf(out->end_reason, sizeof out->end_reason, "%s",
		    why ? why : "over");
	rc = 0;
out:
	if (s)
		g->free_state(s);
	g->dataset_free(ds);
	return rc;
}
