/*
 * cli: the subcommands of the one `arena` binary. Each takes the arguments
 * after its own name (argv[0] is the subcommand) and returns the process
 * exit status: 0 success, 1 a failure the user can act on (bad spec, a
 * tournament that cannot run), 2 bad usage.
 */
#ifndef ARENA_CLI_H
#define ARENA_CLI_H

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

/* Parses arg, the value of option opt, as an integer in min..max; -1 after
 * saying what it takes. */
int cli_parse_count(const char *opt, const char *arg, long min, long max,
    long *out);

#endif
