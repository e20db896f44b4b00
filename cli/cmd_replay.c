/*
 * cmd_replay: `arena replay GAME [--html FILE] [--delay MS]`, shows a
 * stored game: its counted result's moves are played again by the referee
 * (games/replay.c) and each state drawn with the game's frame(). On a
 * terminal it plays them (space pauses, n or right arrow steps, p or left
 * arrow steps back, + and - change the speed, q quits); otherwise it
 * prints every frame in order, each after a "--- frame I/N" line; --html
 * writes one self-contained page instead (cli/replay_html.c). A game
 * without frame() shows the moves so far.
 */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cli/replay_html.h"
#include "common/log.h"
#include "coordinator/db.h"
#include "coordinator/pgembed.h"
#include "games/replay.h"

#define MOVES_SHOWN	20	/* moves listed when a game has no frame() */

struct film {
	const struct game *g;
	int nseats;
	char **frames;		/* one text per state, as frame() gives it */
	char **moves;		/* the replay line before it; NULL first */
	size_t n, cap;
};

static volatile sig_atomic_t interrupted;
static sigset_t wait_mask;		/* the signals ppoll() lets through */
static struct termios saved_term;	/* stdin's mode before raw mode */
static bool raw_term;			/* whether saved_term must come back */
static bool drawn;			/* whether the cursor must come back */

static int
usage(void)
{
	fprintf(stderr, "usage: arena replay GAME [--html FILE] [--delay MS] "
	    "[--db URL] [--data DIR]\n");
	return 2;
}

/* The header and the last MOVES_SHOWN replay lines up to frame i, for a
 * game that draws nothing; the header gets the scores once it is over. */
static char *
moves_frame(const struct film *f, const struct game_state *s, size_t i)
{
	const char *why = f->g->end_reason(s);
	int64_t sc[REPLAY_MAX_SEATS];
	char *text = NULL;
	size_t len;
	FILE *m = open_memstream(&text, &len);

	if (m == NULL)
		fatal("open_memstream");
	fprintf(m, "call %zu", i);
	if (why != NULL) {
		f->g->scores(s, sc);
		fputs(": scores", m);
		for (int k = 0; k < f->nseats; k++)
			fprintf(m, " %" PRId64, sc[k]);
		fprintf(m, ", over: %s", why);
	}
	fputc('\n', m);
	for (size_t k = i > MOVES_SHOWN ? i - MOVES_SHOWN + 1 : 1; k <= i;
	    k++)
		fprintf(m, "%s\n", f->moves[k]);
	if (fclose(m) != 0)
		fatal("open_memstream");
	return text;
}

/* line with its control characters as '?': it is a bot's answer, and
 * an escape sequence in it must not reach the terminal. */
static char *
printable(const char *line)
{
	char *p = xstrdup(line);

	for (unsigned char *q = (unsigned char *)p; *q != '\0'; q++)
		if (*q < 0x20 || *q == 0x7f)
			*q = '?';
	return p;
}

/* The replay_watcher: keeps each state's picture. */
static void
keep_frame(const struct game_state *s, int seat, const char *line, void *arg)
{
	struct film *f = arg;

	(void)seat;
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 256;
		f->frames = xrealloc(f->frames, f->cap * sizeof *f->frames);
		f->moves = xrealloc(f->moves, f->cap * sizeof *f->moves);
	}
	f->moves[f->n] = line ? printable(line) : NULL;
	f->frames[f->n] = f->g->frame ? f->g->frame(s) :
	    moves_frame(f, s, f->n);
	f->n++;
}

static void
film_release(struct film *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->frames[i]);
		free(f->moves[i]);
	}
	free(f->frames);
	free(f->moves);
}

/* --- printing, for pipes and tests --- */

static int
print_film(const struct film *f, const char *title,
    const struct replay_outcome *o)
{
	printf("%s\n", title);
	for (size_t i = 0; i < f->n; i++)
		printf("--- frame %zu/%zu: %s\n%s", i + 1, f->n,
		    f->moves[i] ? f->moves[i] : "start", f->frames[i]);
	printf("--- end: scores");
	for (int k = 0; k < o->nseats; k++)
		printf(" %" PRId64, o->scores[k]);
	printf(" (%s)\n", o->end_reason);
	if (fflush(stdout) != 0 || ferror(stdout))
		return log_error("cannot write the frames");
	return 0;
}

/* --- the terminal player --- */

struct rgb {
	bool set;
	unsigned char r, g, b;
};

/* palette (games/game.h) into one colour per byte; bad pairs are
 * skipped: the palette is the game's constant, checked by its tests. */
static void
parse_palette(const char *palette, struct rgb *pal)
{
	unsigned r, g, b;

	memset(pal, 0, 256 * sizeof *pal);
	for (const char *p = palette; p != NULL && *p != '\0';) {
		if (p[1] == ':' && sscanf(p + 2, "#%2x%2x%2x", &r, &g, &b) == 3)
			pal[(unsigned char)p[0]] = (struct rgb){ true,
			    (unsigned char)r, (unsigned char)g, (unsigned char)b };
		p += strcspn(p, " ");
		p += strspn(p, " ");
	}
}

static void
on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Registered with atexit() too, so that no exit path leaves the
 * terminal raw or the cursor hidden. */
static void
term_restore(void)
{
	if (raw_term)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_term);
	if (drawn) {
		fputs("\033[0m\033[?25h\n", stdout);
		fflush(stdout);
	}
	raw_term = drawn = false;
}

/* Keys one at a time, no echo; ^C still raises SIGINT, which only sets
 * interrupted. The signals are blocked but while in ppoll(), so that one
 * that comes between the check of interrupted and the wait still ends
 * the wait. */
static int
term_raw(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct termios t;
	sigset_t block;

	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (!isatty(STDIN_FILENO))
		return 0;	/* no keys: it just plays */
	if (tcgetattr(STDIN_FILENO, &saved_term) == -1)
		return log_error("cannot read the terminal's mode");
	t = saved_term;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t) == -1)
		return log_error("cannot set the terminal's mode");
	raw_term = true;
	return 0;
}

static void
draw_cell(char c, const struct rgb *pal)
{
	const struct rgb *k = &pal[(unsigned char)c];
	bool light = 299 * k->r + 587 * k->g + 114 * k->b > 128000;

	if (!k->set) {
		putchar(c);
		return;
	}
	printf("\033[48;2;%u;%u;%um\033[38;2;%s%c", k->r, k->g, k->b,
	    light ? "0;0;0m" : "255;255;255m", c);
}

/* Redraws in place: each line cleared to its end, then below. */
static void
draw(const struct film *f, size_t at, const char *title, int delay,
    const char *state, const struct rgb *pal)
{
	const char *p = f->frames[at];

	printf("\033[H%s\033[K\n", title);
	printf("frame %zu/%zu, %s, %d ms a frame  [space] pause  [n] step  "
	    "[p] back  [+/-] speed  [q] quit\033[K\n", at + 1, f->n, state,
	    delay);
	printf("%s\033[K\n", f->moves[at] ? f->moves[at] : "start");
	p += strcspn(p, "\n");
	printf("%.*s\033[K\n", (int)(p - f->frames[at]), f->frames[at]);
	while (*p == '\n' && p[1] != '\0') {
		for (p++; *p != '\0' && *p != '\n'; p++)
			draw_cell(*p, pal);
		printf("\033[0m\033[K\n");
	}
	printf("\033[J");
	fflush(stdout);
}

struct player {
	size_t at;
	int delay;		/* ms between frames */
	bool playing;
	bool quit;
};

static void
key(struct player *pl, const char *k, size_t n, size_t nframes)
{
	if (k[0] == 'q')
		pl->quit = true;
	else if (k[0] == ' ')
		pl->playing = !pl->playing;
	else if (k[0] == 'n' || (n >= 3 && memcmp(k, "\033[C", 3) == 0)) {
		pl->playing = false;
		pl->at += pl->at + 1 < nframes;
	} else if (k[0] == 'p' || (n >= 3 && memcmp(k, "\033[D", 3) == 0)) {
		pl->playing = false;
		pl->at -= pl->at > 0;
	} else if ((k[0] == '+' || k[0] == '=') && pl->delay > 10)
		pl->delay /= 2;
	else if (k[0] == '-' && pl->delay < 10000)
		pl->delay *= 2;
	if (pl->playing && pl->at + 1 == nframes)
		pl->at = 0;	/* play again from the start */
}

static int
play_film(const struct film *f, const char *title, const char *palette,
    int delay)
{
	struct player pl = { .delay = delay, .playing = true };
	struct pollfd in = { .fd = STDIN_FILENO, .events = POLLIN };
	struct rgb pal[256];
	struct timespec ts;
	char k[8];
	ssize_t n;
	int r;

	parse_palette(palette, pal);
	atexit(term_restore);
	if (term_raw() == -1)
		return -1;
	drawn = true;
	printf("\033[?25l\033[2J");
	while (!pl.quit && !interrupted) {
		if (pl.at + 1 == f->n)
			pl.playing = false;
		draw(f, pl.at, title, pl.delay, pl.playing ? "playing" :
		    pl.at + 1 == f->n ? "the end" : "paused", pal);
		if (!raw_term && !pl.playing)
			break;	/* nobody can press a key */
		ts.tv_sec = pl.delay / 1000;
		ts.tv_nsec = pl.delay % 1000 * 1000000L;
		r = ppoll(&in, raw_term ? 1 : 0, pl.playing ? &ts : NULL,
		    &wait_mask);
		if (r == 0)
			pl.at++;
		else if (r > 0 && (n = read(STDIN_FILENO, k, sizeof k)) > 0)
			key(&pl, k, (size_t)n, f->n);
		else if (r > 0 || errno != EINTR)
			break;
	}
	term_restore();
	sigprocmask(SIG_SETMASK, &wait_mask, NULL);
	return 0;
}

/* --- the command --- */

/* One name per seat from "a,b": seats without one are "?". Caller owns
 * the result; free with free_names(). */
static char **
split_names(const char *list, int nseats)
{
	char **names = xcalloc((size_t)nseats, sizeof *names);
	const char *p = list;

	for (int i = 0; i < nseats; i++) {
		size_t n = strcspn(p, ",");

		names[i] = n > 0 ? xasprintf("%.*s", (int)n, p) : xstrdup("?");
		p += n + (p[n] == ',');
	}
	return names;
}

static void
free_names(char **names, int nseats)
{
	for (int i = 0; names != NULL && i < nseats; i++)
		free(names[i]);
	free(names);
}

/* "game 12 of 'Demo' (reversi): ai1 vs ai2" */
static char *
film_title(const struct db_game_detail *d, const char *game, char **names,
    int nseats)
{
	char *title = xasprintf("game %" PRId64 " of '%s' (%s): %s", d->game,
	    d->tournament, game, names[0]), *next;

	for (int i = 1; i < nseats; i++) {
		next = xasprintf("%s vs %s", title, names[i]);
		free(title);
		title = next;
	}
	return title;
}

struct options {
	const char *html;	/* write the page here; NULL: show it */
	long delay;		/* ms */
	const char *db_url, *data;
};

static int
write_html(const struct options *op, const struct film *f, const char *title,
    char **names, int nseats)
{
	struct replay_html h = {
		.title = title, .names = (const char *const *)names,
		.nseats = (size_t)nseats, .palette = f->g->palette,
		.grid = f->g->frame != NULL,
		.frames = (const char *const *)f->frames,
		.moves = (const char *const *)f->moves, .nframes = f->n,
		.delay_ms = (int)op->delay,
	};
	FILE *out = fopen(op->html, "w");
	int rc;

	if (out == NULL)
		return log_error("cannot create '%s': %s", op->html,
		    strerror(errno));
	rc = replay_html_write(out, op->html, &h);
	if (fclose(out) != 0 && rc == 0)
		rc = log_error("cannot write '%s': %s", op->html,
		    strerror(errno));
	if (rc == 0)
		printf("%s: %zu frames\n", op->html, f->n);
	return rc;
}

/* Plays c again into frames and shows them as op says. */
static int
show_counted(const struct options *op, const struct db_counted *c,
    const struct db_game_detail *d)
{
	struct film f = { .g = games_find(c->referee_game),
	    .nseats = (int)c->nseats };
	struct replay_outcome o;
	struct replay_watcher w = { .frame = keep_frame, .arg = &f };
	char err[512], *title = NULL, **names = NULL;
	int rc = -1;

	if (f.g == NULL)
		return log_error("game %" PRId64 ": no referee '%s' here",
		    c->game, c->referee_game);
	if (replay_watch(f.g, c->dataset_name, c->dataset, c->seed, f.nseats,
	    c->replay, &w, &o, err, sizeof err) == -1) {
		log_error("game %" PRId64 ": cannot replay it: %s", c->game,
		    err);
		goto fail;
	}
	names = split_names(d->seat_names, f.nseats);
	title = film_title(d, f.g->name, names, f.nseats);
	if (op->html != NULL)
		rc = write_html(op, &f, title, names, f.nseats);
	else if (isatty(STDOUT_FILENO))
		rc = play_film(&f, title, f.g->palette, (int)op->delay);
	else
		rc = print_film(&f, title, &o);
fail:
	free(title);
	free_names(names, f.nseats);
	film_release(&f);
	return rc;
}

static int
replay_game(const struct options *op, int64_t id)
{
	struct db *db = pgembed_connect(op->db_url, op->data);
	struct db_game_detail d;
	struct db_counted c;
	int found = 0, rc = -1;

	memset(&d, 0, sizeof d);
	memset(&c, 0, sizeof c);
	if (db == NULL)
		return -1;
	if ((found = db_game_counted(db, id, &c)) == 0)
		log_error("game %" PRId64 ": no such game, or no counted "
		    "result yet", id);
	if (found > 0 && (found = db_game_detail(db, id, &d)) == 0)
		log_error("game %" PRId64 ": no such game", id);
	if (found > 0)
		rc = show_counted(op, &c, &d);
	db_game_detail_release(&d);
	db_counted_release(&c);
	db_free(db);
	return rc;
}

int
cmd_replay(int argc, char **argv)
{
	static const struct option options[] = {
		{ "html", required_argument, NULL, 'h' },
		{ "delay", required_argument, NULL, 'w' },
		{ "db", required_argument, NULL, 'D' },
		{ "data", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	struct options op = { .delay = 200 };
	long id;
	int c;

	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'h': op.html = optarg; break;
		case 'w':
			if (cli_parse_count("--delay", optarg, 10, 60000,
			    &op.delay) < 0)
				return 2;
			break;
		case 'D': op.db_url = optarg; break;
		case 'd': op.data = optarg; break;
		default: return usage();
		}
	}
	if (argc - optind != 1)
		return usage();
	if (cli_parse_count("a game id", argv[optind], 1, INT64_MAX, &id) < 0)
		return 2;
	return replay_game(&op, id) == 0 ? 0 : 1;
}
