/*
 * cli: the subcommands of the one `arena` binary. Each takes the arguments
 * after its own name (argv[0] is the subcommand) and returns the process
 * exit status: 0 success, 1 a failure the user can act on (bad spec, a
 * tournament that cannot run), 2 bad usage.
 */
#ifndef ARENA_CLI_H
#define ARENA_CLI_H

#include <stdint.h>

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_coordinator(int argc, char **argv);
int cmd_worker(int argc, char **argv);
int cmd_standings(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_db(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_sandbox(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_rerun(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_replay(int argc, char **argv);

/* Plays what the database has queued for the tournament of spec_path, as
 * `arena run` does (same serve path: local workers on a private endpoint)
 * until it is finished; no standings printed. 0, or 1 after logging. */
int cli_run_queued(const char *spec_path, const char *db_url,
    const char *data_arg, long workers);

/* Writes every stage's standings of the tournament as tables, as
 * `arena standings` does. 0, or -1 after logging. */
struct db;
int cli_print_standings(struct db *db, int64_t tournament_id,
    const char *title);

/* Parses arg, the value of option opt, as an integer in min..max; -1 after
 * saying what it takes. */
int cli_parse_count(const char *opt, const char *arg, long min, long max,
    long *out);

#endif
