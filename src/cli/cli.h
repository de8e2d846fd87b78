/*
 * cli.h - what the `trax` commands share: the command table, error and
 * warning messages, and the parsing of option values (sizes, timers, log
 * levels, lists) that lttng(1) users know.
 *
 * Exit status of every command: 0 success, 1 the command failed (the
 * daemon refused it, no daemon, no session), 2 a wrong command line
 * (unknown option, missing or bad value), found before any daemon is asked.
 */
#ifndef TRAX_CLI_CLI_H
#define TRAX_CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_OK	  0
#define CLI_FAIL  1
#define CLI_USAGE 2

/* Longest session or channel name (the daemon's TRAXD_NAME_MAX). */
#define CLI_NAME_MAX 255

struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the command's name */
	void (*usage)(FILE *f);
	const char *summary;
};

/* The commands, in the order `trax help` lists them; NULL-terminated. */
extern const struct cli_command cli_commands[];
const struct cli_command *cli_command_find(const char *name);

/* "Error: ..." on stderr; returns CLI_FAIL. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "Error: ..." on stderr; returns CLI_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "Warning: ..." on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * After getopt_long returned '?' or ':' (option strings start with ':'):
 * the one-line error for the unknown option or the missing value; CLI_USAGE.
 */
int cli_option_error(const char *cmd, int c, char **argv);
/* An argument left over after the expected ones: CLI_USAGE. */
int cli_extra_argument(const char *cmd, const char *arg);
/*
 * The options of a command that takes only -h/--help: -1 when the command
 * goes on (its arguments start at optind), else the exit status (the help
 * printed with usage, or a wrong option reported).
 */
int cli_parse_help_only(int argc, char **argv, const char *cmd, void (*usage)(FILE *));
/* The same for a command that takes -s/--session too (*session: its value). */
int cli_parse_session_only(int argc, char **argv, const char *cmd, void (*usage)(FILE *),
			   const char **session);
/* Neither -k nor -u given: "Please specify a domain (-k/-u)", CLI_USAGE. */
int cli_missing_domain(void);
/*
 * The domain options of a command that takes exactly one: CLI_OK when one
 * of kernel (-k) and userspace (-u) is set, else CLI_USAGE after the error
 * (none, or both: "Only one domain can be specified").
 */
int cli_check_domain(bool kernel, bool userspace);

/*
 * Option values. Each returns 0, or CLI_USAGE after printing
 * "Error: Wrong value in --OPT parameter: VALUE" (opt without dashes).
 */
/* SIZE: decimal or 0x hexadecimal, optional k/K, m/M, g/G suffix (KiB, MiB, GiB). */
int cli_parse_size(const char *opt, const char *s, uint64_t *v);
/* A plain non-negative integer no larger than max. */
int cli_parse_uint(const char *opt, const char *s, uint64_t max, uint64_t *v);
/* Microseconds, with an optional us, ms or s suffix. */
int cli_parse_usec(const char *opt, const char *s, uint64_t *v);
/* A log level: TRACE_EMERG..TRACE_DEBUG (the TRACE_ prefix optional, any case) or 0..14. */
int cli_parse_loglevel(const char *s, int *level);
/* The name of a level ("TRACE_INFO"), or NULL. */
const char *cli_loglevel_name(int level);

/*
 * Splits a comma-separated list ("\," is a literal comma) and appends the
 * items to *items (*n of them, growing the array). 0, or CLI_USAGE after an
 * error naming `what` when an item is empty.
 */
int cli_split_list(const char *s, const char *what, char ***items, unsigned int *n);
void cli_free_list(char **items, unsigned int n);

/* A session or channel name the daemon can take: CLI_OK, or CLI_USAGE after an error. */
int cli_check_name(const char *what, const char *name);

/* An absolute form of path (relative to the working directory); malloc'ed, NULL: out of memory. */
char *cli_absolute_path(const char *path);

/* Rounds up to a power of two (0 stays 0). */
uint64_t cli_pow2_ceil(uint64_t v);

/* The commands (cmd-*.c). */
int cmd_create(int argc, char **argv);
void usage_create(FILE *f);
int cmd_destroy(int argc, char **argv);
void usage_destroy(FILE *f);
int cmd_set_session(int argc, char **argv);
void usage_set_session(FILE *f);
int cmd_list(int argc, char **argv);
void usage_list(FILE *f);
int cmd_status(int argc, char **argv);
void usage_status(FILE *f);
int cmd_enable_channel(int argc, char **argv);
void usage_enable_channel(FILE *f);
int cmd_disable_channel(int argc, char **argv);
void usage_disable_channel(FILE *f);
int cmd_enable_event(int argc, char **argv);
void usage_enable_event(FILE *f);
int cmd_disable_event(int argc, char **argv);
void usage_disable_event(FILE *f);
int cmd_add_context(int argc, char **argv);
void usage_add_context(FILE *f);
int cmd_start(int argc, char **argv);
void usage_start(FILE *f);
int cmd_stop(int argc, char **argv);
void usage_stop(FILE *f);
int cmd_snapshot(int argc, char **argv);
void usage_snapshot(FILE *f);
int cmd_regenerate(int argc, char **argv);
void usage_regenerate(FILE *f);
int cmd_analyze(int argc, char **argv);
void usage_analyze(FILE *f);
int cmd_timeline(int argc, char **argv);
void usage_timeline(FILE *f);
int cmd_export(int argc, char **argv);
void usage_export(FILE *f);
int cmd_convert(int argc, char **argv);
void usage_convert(FILE *f);
int cmd_track(int argc, char **argv);
void usage_track(FILE *f);
int cmd_untrack(int argc, char **argv);
void usage_untrack(FILE *f);

#endif /* TRAX_CLI_CLI_H */
