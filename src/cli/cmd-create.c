/* cmd-create.c - `trax create [NAME]`: a new tracing session, made current. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"

void usage_create(FILE *f)
{
	fputs("Usage: trax create [NAME] [--output=DIR | --no-output] [--snapshot]\n"
	      "Create a tracing session and make it the current one ($TRAX_HOME/.traxrc).\n"
	      "Without NAME, the session is named auto-YYYYMMDD-HHMMSS. Starts the session\n"
	      "daemon (traxd) when none is running.\n"
	      "\n"
	      "Options:\n"
	      "  -o, --output=DIR   write the trace to DIR (default:\n"
	      "                     $TRAX_HOME/trax-traces/NAME-YYYYMMDD-HHMMSS)\n"
	      "      --no-output    write no trace (snapshots give their own output)\n"
	      "      --snapshot     snapshot mode: events stay in the buffers until\n"
	      "                     'trax snapshot record' (DIR is the default snapshot output)\n"
	      "  -h, --help         print this help\n",
	      f);
}

int cmd_create(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"no-output", no_argument, NULL, 'N'},
	    {"snapshot", no_argument, NULL, 'S'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *output = NULL, *name = NULL, *rec, *got_name, *got_output;
	bool snapshot = false, no_output = false;
	struct trax_msg req, reply;
	char *abs = NULL;
	int c, rc;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'N':
			no_output = true;
			break;
		case 'S':
			snapshot = true;
			break;
		case 'h':
			usage_create(stdout);
			return CLI_OK;
		default:
			return cli_option_error("create", c, argv);
		}
	}
	if (optind < argc)
		name = argv[optind++];
	if (optind < argc)
		return cli_extra_argument("create", argv[optind]);
	if (name && (rc = cli_check_name("session", name)))
		return rc;
	if (output && no_output)
		return cli_usage_error("--output and --no-output cannot be used together");
	if (output && !*output)
		return cli_usage_error("Wrong value in --output parameter: (empty)");
	if (output && !(abs = cli_absolute_path(output)))
		return cli_error("Cannot make %s an absolute path", output);

	trax_msg_init(&req, TRAX_MSG_CREATE);
	if (name)
		trax_msg_add(&req, "name", "%s", name);
	if (abs)
		trax_msg_add(&req, "output", "%s", abs);
	if (snapshot)
		trax_msg_add(&req, "snapshot", "1");
	if (no_output)
		trax_msg_add(&req, "no_output", "1");
	rc = cli_request(&req, &reply, CLI_REQ_AUTOSTART);
	if (rc == CLI_OK) {
		rec = cli_record_next(&reply, NULL, "session");
		got_name = rec ? cli_record_get(&reply, rec, "name") : NULL;
		got_output = rec ? cli_record_get(&reply, rec, "output") : NULL;
		if (!got_name)
			got_name = name;
		if (!got_output || no_output)
			got_output = no_output ? NULL : abs;
		if (!got_name || !*got_name) {
			rc = cli_error("The session daemon did not say which session it created");
		} else {
			if (snapshot) {
				printf("Snapshot session %s created.\n", got_name);
				if (got_output && *got_output)
					printf("Default snapshot output set to %s\n", got_output);
			} else {
				printf("Session %s created.\n", got_name);
				if (got_output && *got_output)
					printf("Traces will be output to %s\n", got_output);
			}
			rc = cli_set_current_session(got_name);
		}
	}
	trax_msg_free(&req);
	trax_msg_free(&reply);
	free(abs);
	return rc;
}
