/*
 * dispatch_bench: games per second through the coordinator and PostgreSQL
 * (issue 4's target: at least 2,000), against baselines measured in the
 * same run, so the ratios say where the time goes.
 *
 * A throwaway cluster (pgembed, as tests/unit/pgtest.h starts one) holds
 * one tournament per run: one round-robin group of ENTRIES entries, one
 * tiny dataset, two games a match. dispatch_run() serves it in this
 * process while N forked fake workers answer every GAME with a RESULT at
 * once (no referee, no bots, no sandbox): what is left is the coordinator
 * and the database. Per run: games/s, ratio to N = 1, the coordinator's
 * CPU per game (getrusage of this process), PostgreSQL's CPU per game (its
 * processes in /proc), and the coordinator's wall time inside the
 * database calls of the dispatch loop, timed by wrappers (the link wraps
 * them: -Wl,--wrap), so the library carries no instrumentation.
 *
 * Baselines: a GAME -> RESULT round trip through common/wire.c with one
 * message in flight and with a window as deep as the dispatch runs' (the
 * coordinator with no database), "SELECT 1" (a database round trip, no
 * commit) and "UPDATE one row" (one autocommitted write) through libpq.
 *
 * The bench reaches the connection through coordinator/db_internal.h,
 * the db module's private header, to time raw statements on it.
 *
 * Usage: dispatch_bench [-e ENTRIES] [-s SLOTS] [-w 1,2,4] [-n ROUNDS] [-a]
 * [-W] (-a: synchronous_commit off on the coordinator's connection; -W: no
 * warm-up tournament before the reported runs)
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/wire.h"
#include "coordinator/db.h"
#include "coordinator/db_internal.h"
#include "coordinator/dispatch.h"
#include "coordinator/pgembed.h"
#include "coordinator/tournament.h"

#define TARGET_GPS 2000.0
#define MAX_RUNS 8

static char dir[64];		/* the cluster and the socket */
static char endpoint[128];
static int entries = 60;	/* 3,540 games a run; 142: 20,022 */
static unsigned slots = 8;	/* per fake worker */
static int rounds = 5000;	/* baseline iterations */
static bool async_commit;	/* -a: synchronous_commit off */
static bool warm_up = true;	/* -W: no warm-up tournament */

/* --- time spent in the coordinator's database calls (link wrappers) --- */

struct timer {
	const char *name;
	int64_t ns;
	int64_t calls;
};

enum { T_CLAIM, T_RECORD, T_ADVANCE, T_SEEN, T_COUNT };

static struct timer timers[T_COUNT] = {
	{ "claim", 0, 0 }, { "record", 0, 0 }, { "advance", 0, 0 },
	{ "seen", 0, 0 },
};

static void
timer_add(int t, int64_t since)
{
	timers[t].ns += clock_now_ns() - since;
	timers[t].calls++;
}

int __real_db_games_claim(struct db *, int64_t, const char *, int64_t,
    struct msg *, int, int *);
int __wrap_db_games_claim(struct db *, int64_t, const char *, int64_t,
    struct msg *, int, int *);
int __real_db_results_record(struct db *, struct db_record *, size_t);
int __wrap_db_results_record(struct db *, struct db_record *, size_t);
int __real_tournament_advance(struct db *, const struct spec *, int64_t,
    bool *);
int __wrap_tournament_advance(struct db *, const struct spec *, int64_t,
    bool *);
int __real_db_worker_seen(struct db *, int64_t, const char *, const char *,
    int);
int __wrap_db_worker_seen(struct db *, int64_t, const char *, const char *,
    int);

int
__wrap_db_games_claim(struct db *db, int64_t tid, const char *worker,
    int64_t lease_ms, struct msg *games, int max, int *n)
{
	int64_t t0 = clock_now_ns();
	int rc = __real_db_games_claim(db, tid, worker, lease_ms, games, max,
	    n);

	timer_add(T_CLAIM, t0);
	return rc;
}

int
__wrap_db_results_record(struct db *db, struct db_record *recs, size_t n)
{
	int64_t t0 = clock_now_ns();
	int rc = __real_db_results_record(db, recs, n);

	timer_add(T_RECORD, t0);
	return rc;
}

int
__wrap_tournament_advance(struct db *db, const struct spec *spec,
    int64_t tid, bool *finished)
{
	int64_t t0 = clock_now_ns();
	int rc = __real_tournament_advance(db, spec, tid, finished);

	timer_add(T_ADVANCE, t0);
	return rc;
}

int
__wrap_db_worker_seen(struct db *db, int64_t tid, const char *name,
    const char *address, int n)
{
	int64_t t0 = clock_now_ns();
	int rc = __real_db_worker_seen(db, tid, name, address, n);

	timer_add(T_SEEN, t0);
	return rc;
}

/* --- CPU of this process and of the cluster --- */

static int64_t
self_cpu_us(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (int64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
	    ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

/* utime + stime of pid in µs; *ppid its parent. 0 when it is gone. */
static int64_t
proc_cpu_us(long pid, long *ppid)
{
	char path[64], buf[1024], *p;
	unsigned long ut = 0, st = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	*ppid = 0;
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	p = fgets(buf, sizeof buf, f);
	fclose(f);
	/* The command may hold spaces: fields go on after its ')'. */
	if (p == NULL || (p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 2, "%*c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
	    ppid, &ut, &st) != 3)
		return 0;
	return (int64_t)(ut + st) * 1000000 / sysconf(_SC_CLK_TCK);
}

/* The postmaster and its children (backends, WAL writer, ...). */
static int64_t
pg_cpu_us(void)
{
	char path[128];
	long master = 0, ppid;
	int64_t sum;
	struct dirent *de;
	FILE *f;
	DIR *d;

	snprintf(path, sizeof path, "%s/data/postmaster.pid", dir);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fscanf(f, "%ld", &master) != 1)
		master = 0;
	fclose(f);
	sum = proc_cpu_us(master, &ppid);
	if ((d = opendir("/proc")) == NULL)
		return sum;
	while ((de = readdir(d)) != NULL) {
		long pid = strtol(de->d_name, NULL, 10);
		int64_t cpu;

		if (pid > 0 && pid != master &&
		    (cpu = proc_cpu_us(pid, &ppid)) >= 0 && ppid == master)
			sum += cpu;
	}
	closedir(d);
	return sum;
}

/* --- the fake worker --- */

static void
answer(struct wire *w, const struct msg_game *g, int64_t n)
{
	struct msg m = { .type = MSG_RESULT };
	struct msg_result *r = &m.u.result;

	r->game_id = g->game_id;
	r->attempt = g->attempt;
	r->nseats = 2;
	r->seats[0] = (struct msg_seat_result){ .score = n % 7, .cpu_ms = 1,
	    .wall_ms = 1, .peak_kb = 1024 };
	r->seats[1] = (struct msg_seat_result){ .score = n % 5, .cpu_ms = 1,
	    .wall_ms = 1, .peak_kb = 1024 };
	r->end_reason = (char *)"bench";
	r->detail = (char *)"";
	r->referee = (char *)"bench 1";
	r->replay = (char *)"";
	if (wire_send(w, NULL, &m) < 0)
		_exit(3);
}

/* Says READY with nslots and answers every GAME at once until BYE. */
static _Noreturn void
fake_worker(int i, unsigned nslots)
{
	struct msg ready = { .type = MSG_READY }, hb = { .type = MSG_HEARTBEAT };
	struct wire *w;
	struct msg m;
	int64_t n = 0, beat = clock_now_ms();
	bool readable, bye = false;
	int rc;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	alarm(900);
	if ((w = wire_connect(endpoint)) == NULL)
		_exit(2);
	ready.u.ready.worker = xasprintf("fake-%d", i);
	ready.u.ready.slots = nslots;
	if (wire_send(w, NULL, &ready) < 0)
		_exit(2);
	while (!bye) {
		wire_poll(w, NULL, 0, 200, &readable);
		while (readable && (rc = wire_recv(w, NULL, &m)) != 0) {
			if (rc != 1)
				continue;
			if (m.type == MSG_GAME)
				answer(w, &m.u.game, n++);
			bye |= m.type == MSG_BYE;
			msg_release(&m);
		}
		if (clock_now_ms() - beat >= PROTO_HEARTBEAT_MS) {
			wire_send(w, NULL, &hb);
			beat = clock_now_ms();
		}
	}
	wire_free(w);
	_exit(0);
}

static pid_t
fork_worker(int i, unsigned nslots)
{
	pid_t pid = fork();

	if (pid == -1)
		log_errno("cannot fork");
	else if (pid == 0)
		fake_worker(i, nslots);
	return pid;
}

static int
reap(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* After the run: a fake worker whose READY came after the last game
 * never hears BYE (the coordinator did not know it); it is stopped after
 * a grace period rather than waited for forever. */
static int
reap_run(pid_t pid, int i)
{
	int64_t end = clock_now_ms() + 3000;
	int st;

	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (clock_now_ms() >= end) {
			fprintf(stderr, "dispatch_bench: fake worker %d came "
			    "too late for the run; stopped\n", i);
			kill(pid, SIGKILL);
			return reap(pid) < 0 ? 0 : -1;
		}
		usleep(10000);
	}
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* --- baselines --- */

/* A coordinator with no database: GAME out, RESULT back, window games
 * in flight. Games per second. */
static double
wire_baseline(unsigned window)
{
	struct msg game = { .type = MSG_GAME }, m, bye = { .type = MSG_BYE };
	struct msg_game *g = &game.u.game;
	struct wire_peer peer;
	struct wire *w;
	int64_t t0 = 0, sent = 0, got = 0;
	bool readable, ready = false;
	pid_t pid;
	int rc;

	g->game = (char *)"dreamcity";
	g->dataset_name = (char *)"d.txt";
	g->dataset = (char *)"a tiny dataset\n";
	g->limits = (struct spec_limits){ .call_ms = 1000, .game_ms = 30000,
	    .memory_mb = 512, .resident_mb = 256 };
	g->nseats = 2;
	for (int s = 0; s < 2; s++)
		g->seats[s] = (struct msg_seat){ .entry = (char *)"E",
		    .folder = (char *)"/bots/e", .run = (char *)"./bot" };
	if ((pid = fork_worker(0, window)) == -1 ||
	    (w = wire_bind(endpoint)) == NULL)
		exit(1);
	while (got < rounds) {
		while (ready && sent < rounds && sent - got < window) {
			g->game_id = ++sent;
			g->attempt = 1;
			if (wire_send(w, &peer, &game) < 0)
				exit(1);
		}
		if (wire_poll(w, NULL, 0, 10000, &readable) == 0) {
			log_error("wire baseline: no answer for 10 s");
			exit(1);
		}
		while (readable && (rc = wire_recv(w, &peer, &m)) != 0) {
			if (rc == 1 && m.type == MSG_READY && !ready) {
				ready = true;
				t0 = clock_now_ns();
			}
			got += rc == 1 && m.type == MSG_RESULT;
			if (rc == 1)
				msg_release(&m);
		}
	}
	double gps = rounds * 1e9 / (double)(clock_now_ns() - t0);

	wire_send(w, &peer, &bye);
	reap(pid);
	wire_free(w);
	return gps;
}

/* Statements per second of sql through libpq, one at a time. */
static double
sql_baseline(struct db *db, const char *sql)
{
	int64_t t0 = clock_now_ns();

	for (int i = 0; i < rounds; i++)
		if (db_exec(db, sql, 0, NULL) < 0)
			exit(1);
	return rounds * 1e9 / (double)(clock_now_ns() - t0);
}

/* --- the dispatch runs --- */

struct run {
	int workers;
	int64_t games, results;
	double secs, gps;
	int64_t self_us, pg_us;
	struct timer t[T_COUNT];
};

static struct spec spec;
static struct spec_stage stage = { .name = (char *)"all",
	.format = SPEC_ROUND_ROBIN, .groups = 1 };
static struct spec_dataset dataset;

static void
build_spec(void)
{
	char *path = xasprintf("%s/d.txt", dir);
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs("a tiny dataset\n", f) < 0 || fclose(f) != 0) {
		log_errno("cannot write '%s'", path);
		exit(1);
	}
	dataset = (struct spec_dataset){ .name = (char *)"d.txt", .path = path };
	spec.entries = xcalloc((size_t)entries, sizeof *spec.entries);
	for (int i = 0; i < entries; i++)
		spec.entries[i] = (struct spec_entry){
		    .name = xasprintf("e%03d", i), .folder = (char *)"/bots/e",
		    .run = (char *)"./bot" };
	spec = (struct spec){ .game = (char *)"dreamcity", .seed = 1,
	    .datasets = &dataset, .ndatasets = 1, .entries = spec.entries,
	    .nentries = (size_t)entries, .limits = { .call_ms = 1000,
	    .game_ms = 30000, .memory_mb = 512, .resident_mb = 256 },
	    .stages = &stage, .nstages = 1 };
}

static int64_t
count(struct db *db, const char *sql, int64_t tid)
{
	struct num n;
	const char *params[] = { db_i64(&n, tid) };
	PGresult *res = db_query(db, sql, 1, params);
	int64_t v = res ? db_get_i64(res, 0, 0) : -1;

	PQclear(res);
	return v;
}

static int
dispatch_once(struct db *db, int nworkers, struct run *r)
{
	struct dispatch_opts o = { .bind = endpoint, .db = db, .spec = &spec,
	    .exit_when_done = true };
	static int runs;	/* each run its own tournament */
	char *text = xasprintf("tournament: bench-%d-%d\n", ++runs, nworkers);
	pid_t pids[16];
	bool finished;
	int64_t t0, cpu0, pg0, done;

	spec.name = xasprintf("bench-%d-%d", runs, nworkers);
	if (db_tournament_open(db, &spec, text, &o.tournament_id) < 0 ||
	    tournament_advance(db, &spec, o.tournament_id, &finished) < 0 ||
	    db_progress(db, o.tournament_id, &done, &r->games) < 0)
		return -1;
	/* Steady state: autovacuum analyzes a freshly stored stage within
	 * its naptime (a minute), far less than a contest lasts, while a
	 * run here lasts seconds; without statistics the planner may sort
	 * every queued game at each claim. */
	if (db_exec(db, "ANALYZE", 0, NULL) < 0)
		return -1;
	for (int i = 0; i < nworkers; i++)
		if ((pids[i] = fork_worker(i, slots)) == -1)
			return -1;
	for (int t = 0; t < T_COUNT; t++)
		timers[t].ns = timers[t].calls = 0;
	cpu0 = self_cpu_us();
	pg0 = pg_cpu_us();
	t0 = clock_now_ns();
	if (dispatch_run(&o) < 0)
		return -1;
	r->secs = (double)(clock_now_ns() - t0) / 1e9;
	r->self_us = self_cpu_us() - cpu0;
	r->pg_us = pg_cpu_us() - pg0;
	memcpy(r->t, timers, sizeof timers);
	for (int i = 0; i < nworkers; i++)
		if (reap_run(pids[i], i) < 0)
			return log_error("fake worker %d failed", i);
	r->workers = nworkers;
	r->gps = (double)r->games / r->secs;
	/* Exactly one counted result per game, or the run proves nothing. */
	r->results = count(db, "SELECT count(*) FROM results r "
	    "JOIN games g ON g.id = r.game_id AND g.result_id = r.id "
	    "JOIN matches m ON m.id = g.match_id "
	    "JOIN stages s ON s.id = m.stage_id WHERE s.tournament_id = $1",
	    o.tournament_id);
	free(text);
	return 0;
}

/* --- report --- */

static void
print_run(const struct run *r, const struct run *base, double wire_gps,
    double update_ps)
{
	double g = (double)r->games;
	double db_us = (double)(r->t[T_CLAIM].ns + r->t[T_RECORD].ns +
	    r->t[T_ADVANCE].ns + r->t[T_SEEN].ns) / 1e3 / g;

	printf("%7d %7lld %8.0f %6.2fx %6.2fx %7.3f %6.1f %6.1f %6.1f %6.1f "
	    "%6.1f %5.0f%% %6.2f %5.1f %5.1f  %s\n", r->workers,
	    (long long)r->games,
	    r->gps, r->gps / base->gps, r->gps / update_ps,
	    r->gps / wire_gps, (double)r->self_us / g, (double)r->pg_us / g,
	    (double)r->t[T_CLAIM].ns / 1e3 / g,
	    (double)r->t[T_RECORD].ns / 1e3 / g,
	    (double)r->t[T_ADVANCE].ns / 1e3 / g,
	    100.0 * db_us * g / (r->secs * 1e6), r->workers / r->gps * 1000.0,
	    g / (double)(r->t[T_RECORD].calls ? r->t[T_RECORD].calls : 1),
	    g / (double)(r->t[T_CLAIM].calls ? r->t[T_CLAIM].calls : 1),
	    r->results != r->games ? "WRONG COUNT" : r->gps >= TARGET_GPS ?
	    "PASS" : "MISS");
}

static int
remove_one(const char *path, const struct stat *st, int flag,
    struct FTW *ftw);

/* Whatever happens, the throwaway cluster goes (ARENA_BENCH_KEEP keeps
 * it); only the process that started it stops it. */
static pid_t owner;

static void
cleanup(void)
{
	if (getpid() != owner || dir[0] == '\0')
		return;
	pgembed_stop(dir);
	if (getenv("ARENA_BENCH_KEEP") == NULL)
		nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int
remove_one(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

static void
usage(void)
{
	fprintf(stderr, "usage: dispatch_bench [-e ENTRIES] [-s SLOTS] "
	    "[-w 1,2,4] [-n ROUNDS] [-a] [-W]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	const char *wlist = "1,2,4";
	struct run runs[MAX_RUNS];
	int nruns = 0, opt, rc = 0;
	double rt1, rtw, sel, upd;
	char *conninfo = NULL, *end;
	struct db *db;

	while ((opt = getopt(argc, argv, "ae:s:w:n:W")) != -1) {
		if (opt == 'a' && (async_commit = true))
			continue;
		if (opt == 'W' && !(warm_up = false))
			continue;
		if (opt == 'e' && (entries = atoi(optarg)) >= 2)
			continue;
		if (opt == 's' && (slots = (unsigned)atoi(optarg)) >= 1)
			continue;
		if (opt == 'n' && (rounds = atoi(optarg)) >= 100)
			continue;
		if (opt != 'w')
			usage();
		wlist = optarg;
	}
	log_init("dispatch_bench", false);
	signal(SIGPIPE, SIG_IGN);
	strcpy(dir, "/tmp/arena-dbench-XXXXXX");
	if (mkdtemp(dir) == NULL) {
		log_errno("cannot make '%s'", dir);
		return 1;
	}
	owner = getpid();
	atexit(cleanup);
	snprintf(endpoint, sizeof endpoint, "ipc://%s/coordinator.sock", dir);
	build_spec();
	if (pgembed_start(dir, &conninfo) < 0 || (db = db_open(conninfo)) ==
	    NULL)
		return 1;
	/* The commit returns before its WAL is on disk: a crash may lose
	 * the last few hundred ms of results (never corrupts; the games are
	 * played again). The session's setting, for every run and baseline. */
	if (async_commit && db_exec(db, "SET synchronous_commit = off", 0,
	    NULL) < 0)
		return 1;
	rt1 = wire_baseline(1);
	rtw = wire_baseline(slots);
	sel = sql_baseline(db, "SELECT 1");
	if (db_exec(db, "CREATE TABLE bench_row (id int PRIMARY KEY, "
	    "n bigint)", 0, NULL) < 0 || db_exec(db, "INSERT INTO bench_row "
	    "VALUES (1, 0)", 0, NULL) < 0)
		return 1;
	upd = sql_baseline(db, "UPDATE bench_row SET n = n + 1 WHERE id = 1");
	/* The first tournament of a fresh cluster runs 1.5-2x slower than
	 * the next ones, whatever their workers: a coordinator serves for
	 * days, so one is played first and not reported (-W: none). */
	if (warm_up) {
		fprintf(stderr, "dispatch_bench: warming up (not reported)...\n");
		if (dispatch_once(db, 2, &runs[0]) < 0)
			return 1;
	}
	for (const char *p = wlist; *p && nruns < MAX_RUNS; p = end + (*end == ',')) {
		int n = (int)strtol(p, &end, 10);

		if (end == p || n < 1 || n > 16)
			usage();
		fprintf(stderr, "dispatch_bench: %d worker%s x %u slots...\n",
		    n, n == 1 ? "" : "s", slots);
		if (dispatch_once(db, n, &runs[nruns]) < 0) {
			rc = 1;
			break;
		}
		nruns++;
	}
	printf("\nbaselines (same run), per second:\n"
	    "  wire GAME->RESULT, 1 in flight   %9.0f\n"
	    "  wire GAME->RESULT, %2u in flight  %9.0f  (coordinator, no db)\n"
	    "  libpq SELECT 1                   %9.0f  (db round trip)\n"
	    "  libpq UPDATE one row, autocommit %9.0f  (one commit)\n\n",
	    rt1, slots, rtw, sel, upd);
	printf("dispatch: %u slots a worker; /g = per game; x = ratio; "
	    "db%% = coordinator wall time inside db calls\n", slots);
	printf("workers   games  games/s   vs N=1 vs UPD  vs wire coord_us "
	    "pg_us  claim record advnce  db%%  ms*w/g g/rec g/clm  target "
	    "%.0f/s\n",
	    TARGET_GPS);
	for (int i = 0; i < nruns; i++)
		print_run(&runs[i], &runs[0], rtw, upd);
	for (int i = 0; i < nruns; i++)
		rc |= runs[i].results != runs[i].games;
	db_free(db);
	free(conninfo);
	return rc;
}
