/*
 * duel: plays a series of Reversi games between two bot programs through
 * the real referee (games_find("reversi")) and the bot protocol, without
 * the worker or the sandbox: the house AIs' strength test and the kit's
 * test use it. Each bot is a child on two pipes; its time is the wall
 * time from writing a request to reading the answer, against a per-game
 * budget, and running out, dying or closing its output is a fault.
 *
 *	duel [-n GAMES] [-s SEED] [-t MS] [-d DATASET] CMD1 CMD2
 *
 * Game i uses seed SEED + i; CMD1 is black in even games, white in odd
 * ones. One line per game, then "total W D L" for CMD1.
 */
#include <errno.h>
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

struct bot {
	pid_t pid;
	FILE *in;		/* the bot's stdin */
	FILE *out;		/* the bot's stdout */
	int64_t left_ms;
};

static const char standard[] =
    "........\n........\n........\n...OX...\n"
    "...XO...\n........\n........\n........\n";

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
	kill(b->pid, SIGKILL);
	waitpid(b->pid, NULL, 0);
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

static int
play(const struct game *g, const struct game_dataset *ds, char **cmd,
    uint64_t seed, int64_t ms, int64_t *sc, int verbose)
{
	struct game_state *s = g->start(ds, 2, seed);
	struct bot bot[2] = { { 0 }, { 0 } };
	char answer[256];
	int seat, rc = -1;

	signal(SIGPIPE, SIG_IGN);
	if (bot_start(&bot[0], cmd[0], ms) == -1 ||
	    bot_start(&bot[1], cmd[1], ms) == -1)
		goto fail;
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
		g->apply(s, seat, answer);
	}
	g->scores(s, sc);
	printf("seed %llu black %lld white %lld %s used_ms %lld %lld\n",
	    (unsigned long long)seed, (long long)sc[0], (long long)sc[1],
	    g->end_reason(s), (long long)(ms - bot[0].left_ms),
	    (long long)(ms - bot[1].left_ms));
	rc = 0;
fail:
	bot_stop(&bot[0]);
	bot_stop(&bot[1]);
	g->free_state(s);
	return rc;
}

static char *
read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = xmalloc(1 << 16);

	if (f == NULL)
		fatal("cannot open '%s'", path);
	*len = fread(text, 1, (1 << 16) - 1, f);
	fclose(f);
	return text;
}

int
main(int argc, char **argv)
{
	const struct game *g = games_find("reversi");
	long games = 2, seed0 = 1, ms = 10000;
	int w = 0, d = 0, l = 0, opt, verbose = 0;
	char err[256], *text = NULL;
	const char *dsname = "standard";
	size_t len = strlen(standard);
	struct game_dataset *ds;

	while ((opt = getopt(argc, argv, "n:s:t:d:v")) != -1) {
		switch (opt) {
		case 'n': games = atol(optarg); break;
		case 's': seed0 = atol(optarg); break;
		case 't': ms = atol(optarg); break;
		case 'd': text = read_file(dsname = optarg, &len); break;
		case 'v': verbose = 1; break;
		default: goto usage;
		}
	}
	if (argc - optind != 2 || games < 1 || ms < 1)
		goto usage;
	ds = g->dataset_parse(dsname, text != NULL ? text : standard, len,
	    err, sizeof err);
	if (ds == NULL)
		fatal("%s", err);
	for (long i = 0; i < games; i++) {
		char *cmd[2];
		int64_t sc[2];
		int me = (int)(i % 2);

		cmd[me] = argv[optind];
		cmd[!me] = argv[optind + 1];
		if (play(g, ds, cmd, (uint64_t)(seed0 + i), ms, sc,
		    verbose) == -1)
			return 1;
		w += sc[me] > sc[!me];
		d += sc[me] == sc[!me];
		l += sc[me] < sc[!me];
	}
	printf("total %d %d %d\n", w, d, l);
	g->dataset_free(ds);
	free(text);
	return 0;
usage:
	fprintf(stderr, "usage: duel [-n GAMES] [-s SEED] [-t MS] "
	    "[-d DATASET] [-v] CMD1 CMD2\n");
	return 2;
}
