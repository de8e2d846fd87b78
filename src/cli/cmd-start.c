/* cmd-start.c - `trax start [SESSION]` and `trax stop [SESSION]`. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>

#include "cli/cli.h"
#include "cli/client.h"

void usage_start(FILE *f)
{
	fputs("Usage: trax start [SESSION]\n"
	      "Start tracing in a session (default: the current one): its enabled event\n"
	      "rules record events.\n"
	      "\n"
	      "Options:\n"
	      "  -h, --help   print this help\n",
	      f);
}

void usage_stop(FILE *f)
{
	fputs("Usage: trax stop [SESSION]\n"
	      "Stop tracing in a session (default: the current one). Returns once every\n"
	      "packet recorded so far is on disk, so the trace can be read at once.\n"
	      "\n"
	      "Options:\n"
	      "  -h, --help   print this help\n",
	      f);
}

static int start_stop(int argc, char **argv, bool start)
{
	const char *cmd = start ? "start" : "stop", *session = NULL;
	struct trax_msg req, reply;
	int rc;

	if ((rc = cli_parse_help_only(argc, argv, cmd, start ? usage_start : usage_stop)) >= 0)
		return rc;
	if (optind < argc)
		session = argv[optind++];
	if (optind < argc)
		return cli_extra_argument(cmd, argv[optind]);
	if (session && (rc = cli_check_name("session", session)))
		return rc;
	if (!(session = cli_session(session)))
		return CLI_FAIL;

	trax_msg_init(&req, start ? TRAX_MSG_START : TRAX_MSG_STOP);
	trax_msg_add(&req, "session", "%s", session);
	if (!start) {
		/* "Waiting" only once a daemon is there to wait for */
		if (cli_connect(0)) {
			trax_msg_free(&req);
			return CLI_FAIL;
		}
		printf("Waiting for data availability");
		fflush(stdout);
	}
	rc = cli_request(&req, &reply, start ? 0 : CLI_REQ_NO_TIMEOUT | CLI_REQ_QUIET);
	if (!start) {
		printf("\n");
		if (rc)
			cli_error("%s", cli_last_error());
	}
	if (rc == CLI_OK)
		printf("Tracing %s for session %s\n", start ? "started" : "stopped", session);
	trax_msg_free(&req);
	trax_msg_free(&reply);
	return rc;
}

int cmd_start(int argc, char **argv)
{
	return start_stop(argc, argv, true);
}

int cmd_stop(int argc, char **argv)
{
	return start_stop(argc, argv, false);
}
