/* arena: the one binary; dispatches to a subcommand from a table. */
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
};

static const struct command commands[] = {
	{ "run", cmd_run,
	    "run SPEC [--workers N] [--bind ENDPOINT] [--db URL] [--data DIR]\n"
	    "        [--key FILE --allow DIR]" },
	{ "check", cmd_check, "check SPEC" },
	{ "plan", cmd_plan, "plan SPEC [--json]" },
	{ "gen", cmd_gen, "gen GAME --seed N [GAME OPTIONS]" },
	{ "coordinator", cmd_coordinator,
	    "coordinator SPEC [--bind ENDPOINT] [--workers N] [--db URL]"
	    " [--data DIR]\n        [--key FILE --allow DIR]" },
	{ "worker", cmd_worker,
	    "worker --connect ENDPOINT [--slots N] [--data DIR] [--name NAME]\n"
	    "        [--key FILE --coordinator-key FILE]" },
	{ "keygen", cmd_keygen, "keygen NAME" },
	{ "standings", cmd_standings,
	    "standings [SPEC] [--tournament NAME] [--stage NAME]\n"
	    "        [--format table|csv|md|json|html] [--db URL] [--data DIR]" },
	{ "export", cmd_export,
	    "export games [SPEC] [--tournament NAME] [--format csv|json]\n"
	    "        [--db URL] [--data DIR]" },
	{ "show", cmd_show,
	    "show game ID | match ID [--replay] [--db URL] [--data DIR]" },
	{ "verify", cmd_verify,
	    "verify GAME... | --all [SPEC] [--db URL] [--data DIR]" },
	{ "replay", cmd_replay,
	    "replay GAME [--html FILE] [--delay MS] [--db URL] [--data DIR]" },
	{ "rerun", cmd_rerun,
	    "rerun [SPEC] (--game ID | --match ID)... --reason TEXT [--by NAME]\n"
	    "        [--workers N] [--queue-only] [--db URL] [--data DIR]" },
	{ "status", cmd_status, "status [SPEC] [--db URL] [--data DIR]" },
	{ "db", cmd_db, "db start|stop|url [--data DIR]" },
	{ "sandbox", cmd_sandbox,
	    "sandbox [--memory-mb N] [--time-ms N] [--pids N] [--dir DIR]"
	    " [--processes] -- CMD ARGS..." },
	{ "doctor", cmd_doctor, "doctor" },
};

int
cli_parse_count(const char *opt, const char *arg, long min, long max,
    long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end != '\0' || n < min || n > max) {
		fprintf(stderr, "arena: %s takes %ld..%ld, not '%s'\n", opt, min,
		    max, arg);
		return -1;
	}
	*out = n;
	return 0;
}

static int
usage(FILE *out)
{
	fprintf(out, "usage:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  arena %s\n", commands[i].usage);
	return 2;
}

int
main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr);
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (strcmp(argv[1], commands[i].name) == 0) {
			log_init(commands[i].name, getenv("ARENA_DEBUG") != NULL);
			return commands[i].run(argc - 1, argv + 1);
		}
	}
	fprintf(stderr, "arena: unknown command '%s'\n", argv[1]);
	return usage(stderr);
}
