/* cmd-set-session.c - `trax set-session NAME`: the session commands act on by default. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>

#include "cli/cli.h"
#include "cli/client.h"

void usage_set_session(FILE *f)
{
	fputs("Usage: trax set-session NAME\n"
	      "Make NAME the current session: the one commands act on when no session is\n"
	      "given (kept in $TRAX_HOME/.traxrc).\n"
	      "\n"
	      "Options:\n"
	      "  -h, --help   print this help\n",
	      f);
}

int cmd_set_session(int argc, char **argv)
{
	struct trax_msg req, reply;
	const char *name;
	int rc;

	if ((rc = cli_parse_help_only(argc, argv, "set-session", usage_set_session)) >= 0)
		return rc;
	if (optind >= argc)
		return cli_usage_error("Missing session name (see 'trax set-session --help')");
	name = argv[optind++];
	if (optind < argc)
		return cli_extra_argument("set-session", argv[optind]);
	if ((rc = cli_check_name("session", name)))
		return rc;

	/* the session must exist */
	trax_msg_init(&req, TRAX_MSG_LIST);
	trax_msg_add(&req, "name", "%s", name);
	rc = cli_request(&req, &reply, 0);
	if (rc == CLI_OK) {
		rc = cli_set_current_session(name);
		if (rc == CLI_OK)
			printf("Session set to %s\n", name);
	}
	trax_msg_free(&req);
	trax_msg_free(&reply);
	return rc;
}
