/* main.c - the `trax` command: dispatch to its subcommands (cli.h). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/view.h"

#ifndef TRAX_VERSION
#define TRAX_VERSION "0.1.0"
#endif

static int cmd_view(int argc, char **argv)
{
	return trax_view_main(argc, argv);
}

static void usage_view(FILE *f)
{
	trax_view_usage(f);
}

static int cmd_version(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("Usage: trax version\nPrint the version of trax.");
		return CLI_OK;
	}
	if (argc > 1)
		return cli_extra_argument("version", argv[1]);
	printf("trax %s\n", TRAX_VERSION);
	return CLI_OK;
}

static void usage_version(FILE *f)
{
	fputs("Usage: trax version\nPrint the version of trax.\n", f);
}

static void usage(FILE *f);

static void usage_help(FILE *f)
{
	fputs("Usage: trax help [COMMAND]\n"
	      "Print the list of commands, or the help of one (as 'trax COMMAND --help').\n",
	      f);
}

static int cmd_help(int argc, char **argv)
{
	const struct cli_command *c;

	if (argc < 2) {
		usage(stdout);
		return CLI_OK;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage_help(stdout);
		return CLI_OK;
	}
	if (argc > 2)
		return cli_extra_argument("help", argv[2]);
	c = cli_command_find(argv[1]);
	if (!c)
		return cli_usage_error("Unknown command '%s' (see 'trax help')", argv[1]);
	c->usage(stdout);
	return CLI_OK;
}

const struct cli_command cli_commands[] = {
    {"create", cmd_create, usage_create, "create a tracing session"},
    {"destroy", cmd_destroy, usage_destroy, "destroy a tracing session (or all)"},
    {"set-session", cmd_set_session, usage_set_session, "set the current session"},
    {"list", cmd_list, usage_list, "list sessions, a session's setup, or tracepoints"},
    {"status", cmd_status, usage_status, "show the current session's setup"},
    {"enable-channel", cmd_enable_channel, usage_enable_channel, "create or enable a channel"},
    {"disable-channel", cmd_disable_channel, usage_disable_channel, "disable a channel"},
    {"enable-event", cmd_enable_event, usage_enable_event, "create or enable event rules"},
    {"disable-event", cmd_disable_event, usage_disable_event, "disable event rules"},
    {"add-context", cmd_add_context, usage_add_context, "record context fields with each event"},
    {"track", cmd_track, usage_track, "allow processes (by vpid, vuid; -k: pid) to be traced"},
    {"untrack", cmd_untrack, usage_untrack, "disallow processes to be traced"},
    {"start", cmd_start, usage_start, "start tracing"},
    {"stop", cmd_stop, usage_stop, "stop tracing (waits until the trace is on disk)"},
    {"snapshot", cmd_snapshot, usage_snapshot, "record a snapshot of a session's buffers"},
    {"regenerate", cmd_regenerate, usage_regenerate, "record the applications' state dump again"},
    {"view", cmd_view, usage_view, "print the events of CTF traces as text"},
    {"analyze", cmd_analyze, usage_analyze, "answer questions about traces (cputop, stats)"},
    {"timeline", cmd_timeline, usage_timeline, "draw traces as an HTML timeline (CPUs, threads)"},
    {"export", cmd_export, usage_export, "write traces for Perfetto / chrome://tracing (JSON)"},
    {"convert", cmd_convert, usage_convert, "write a pre-CTF (LTTV, LTTng 0.x) trace as CTF"},
    {"help", cmd_help, usage_help, "print this help, or a command's"},
    {"version", cmd_version, usage_version, "print the version"},
    {NULL, NULL, NULL, NULL},
};

const struct cli_command *cli_command_find(const char *name)
{
	for (const struct cli_command *c = cli_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void usage(FILE *f)
{
	fputs("Usage: trax COMMAND [OPTIONS] [ARGS]\n"
	      "\n"
	      "Control tracing sessions (traxd, started when needed) and read traces.\n"
	      "\n"
	      "Commands:\n",
	      f);
	for (const struct cli_command *c = cli_commands; c->name; c++)
		fprintf(f, "  %-16s %s\n", c->name, c->summary);
	fputs("\n"
	      "'trax help COMMAND' or 'trax COMMAND --help' describes a command; trax(1)\n"
	      "describes them all.\n",
	      f);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	const struct cli_command *c;

	if (!cmd) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		usage(stdout);
		return CLI_OK;
	}
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version"))
		cmd = "version";
	c = cli_command_find(cmd);
	if (!c)
		return cli_usage_error("Unknown command '%s' (see 'trax help')", cmd);
	return c->run(argc - 1, argv + 1);
}
