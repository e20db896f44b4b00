/*
 * duel: plays a series of two-seat games of any game in the table between
 * two bot programs through the real referee (games_find()) and the bot
 * protocol, without the worker or the sandbox: the house bots' strength
 * tests and the kits' tests use it. Each bot is a child on two pipes (a
 * persistent bot, whatever the game's own mode); its time is the wall
 * time from writing a request to reading the answer, against a per-game
 * budget, and running out, dying or closing its output is a fault.
 *
 *	duel [-n GAMES] [-s SEED] [-t MS] [-v] -d DATASET [-d DATASET ...]
 *	    GAME CMD1 CMD2
 *
 * Games 2k and 2k+1 use the same dataset (the k-th, cycling) from both
 * sides: CMD1 is seat 0 in even games, seat 1 in odd ones; game i has
 * seed SEED + i. One line per game, "seed S scores A B REASON illegal
 * I J used_ms U V" by seat, then "total W D L" and "illegal N" for CMD1.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "games/game.h"

#define MAX_DATASETS	8

struct bot {
	pid_t pid;
	FILE *in;		/* the bot's stdin */
	FILE *out;		/* the bot's stdout */
	int64_t left_ms;
	int illegal;
};

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
bot_start(struct bot *b, const char *cmd, int64_t ms)
{
	int to[2], from[2];

	if (pipe(to) == -1 || pipe(from) == -1)
		return log_errno("pipe");
	if ((b->pid = fork()) == -1)
		return log_errno("fork");
	if (b->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	fcntl(to[1], F_SETFD, FD_CLOEXEC);
	fcntl(from[0], F_SETFD, FD_CLOEXEC);
	b->in = fdopen(to[1], "w");
	b->out = fdopen(from[0], "r");
	b->left_ms = ms;
	return 0;
}

static void
bot_stop(struct bot *b)
{
	if (b->in != NULL)
		fclose(b->in);
	if (b->out != NULL)
		fclose(b->out);
	if (b->pid > 0) {
		kill(b->pid, SIGKILL);
		waitpid(b->pid, NULL, 0);
	}
}

/* One call: -1 when the bot is out of time or gone (a fault). Blocking
 * reads are fine here: a stalled bot only stalls the test, which has its
 * own timeout. */
static int
bot_call(struct bot *b, const char *request, char *answer, size_t len)
{
	int64_t t0 = now_ms();

	if (fputs(request, b->in) == EOF || fflush(b->in) == EOF)
		return -1;
	if (fgets(answer, (int)len, b->out) == NULL)
		return -1;
	answer[strcspn(answer, "\n")] = '\0';
	b->left_ms -= now_ms() - t0;
	return b->left_ms < 0 ? -1 : 0;
}

/* The turns of one game; the bots are started. */
static void
turns(const struct game *g, struct game_state *s, struct bot *bot,
    uint64_t seed, int verbose)
{
	char answer[512];
	int seat;

	while ((seat = g->next_seat(s)) >= 0) {
		char *v = g->view(s, seat, bot[seat].left_ms);
		int ok = bot_call(&bot[seat], v, answer, sizeof answer);

		free(v);
		if (ok == -1) {
			fprintf(stderr, "duel: seed %llu: seat %d faulted\n",
			    (unsigned long long)seed, seat);
			g->fault(s, seat);
			break;
		}
		if (verbose)
			fprintf(stderr, "%d: %s\n", seat, answer);
		if (g->apply(s, seat, answer) == GAME_MOVE_ILLEGAL)
			bot[seat].illegal++;
	}
}

static int
play(const struct game *g, const struct game_dataset *ds, char **cmd,
    uint64_t seed, int64_t ms, int64_t *sc, int *illegal, int verbose)
{
	struct game_state *s = g->start(ds, 2, seed);
	struct bot bot[2] = { { 0 }, { 0 } };
	int rc = -1;

	if (bot_start(&bot[0], cmd[0], ms) == -1 ||
	    bot_start(&bot[1], cmd[1], ms) == -1)
		goto fail;
	turns(g, s, bot, seed, verbose);
	g->scores(s, sc);
	printf("seed %llu scores %lld %lld %s illegal %d %d used_ms %lld "
	    "%lld\n", (unsigned long long)seed, (long long)sc[0],
	    (long long)sc[1], g->end_reason(s), bot[0].illegal,
	    bot[1].illegal, (long long)(ms - bot[0].left_ms),
	    (long long)(ms - bot[1].left_ms));
	illegal[0] = bot[0].illegal;
	illegal[1] = bot[1].illegal;
	rc = 0;
fail:
	bot_stop(&bot[0]);
	bot_stop(&bot[1]);
	g->free_state(s);
	return rc;
}

static struct game_dataset *
load(const struct game *g, const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = xmalloc(1 << 16), err[256];
	struct game_dataset *ds;
	size_t len;

	if (f == NULL)
		fatal("cannot open '%s'", path);
	len = fread(text, 1, (1 << 16) - 1, f);
	fclose(f);
	ds = g->dataset_parse(path, text, len, err, sizeof err);
	if (ds == NULL)
		fatal("%s", err);
	free(text);
	return ds;
}

static void
usage(void)
{
	fprintf(stderr, "usage: duel [-n GAMES] [-s SEED] [-t MS] [-v] "
	    "-d DATASET [-d DATASET ...] GAME CMD1 CMD2\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	const struct game *g;
	char *dspath[MAX_DATASETS];
	struct game_dataset *ds[MAX_DATASETS];
	long games = 2, seed0 = 1, ms = 20000;
	int w = 0, d = 0, l = 0, bad = 0, opt, verbose = 0, nds = 0;

	while ((opt = getopt(argc, argv, "n:s:t:d:v")) != -1) {
		switch (opt) {
		case 'n': games = atol(optarg); break;
		case 's': seed0 = atol(optarg); break;
		case 't': ms = atol(optarg); break;
		case 'd':
			if (nds == MAX_DATASETS)
				fatal("at most %d datasets", MAX_DATASETS);
			dspath[nds++] = optarg;
			break;
		case 'v': verbose = 1; break;
		default: usage();
		}
	}
	if (argc - optind != 3 || games < 1 || ms < 1 || nds == 0)
		usage();
	if ((g = games_find(argv[optind])) == NULL)
		fatal("unknown game '%s' (known: %s)", argv[optind],
		    games_list());
	if (g->min_seats > 2 || g->max_seats < 2)
		fatal("%s is not played by two", g->name);
	for (int i = 0; i < nds; i++)
		ds[i] = load(g, dspath[i]);
	signal(SIGPIPE, SIG_IGN);
	for (long i = 0; i < games; i++) {
		char *cmd[2];
		int64_t sc[2];
		int me = (int)(i % 2), illegal[2];

		cmd[me] = argv[optind + 1];
		cmd[!me] = argv[optind + 2];
		if (play(g, ds[(i / 2) % nds], cmd, (uint64_t)(seed0 + i), ms,
		    sc, illegal, verbose) == -1)
			return 1;
		w += sc[me] > sc[!me];
		d += sc[me] == sc[!me];
		l += sc[me] < sc[!me];
		bad += illegal[me];
	}
	printf("total %d %d %d\nillegal %d\n", w, d, l, bad);
	for (int i = 0; i < nds; i++)
		g->dataset_free(ds[i]);
	return 0;
}
