/* cmd-regenerate.c - `trax regenerate statedump [-s SESSION]`. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"

void usage_regenerate(FILE *f)
{
	fputs("Usage: trax regenerate statedump [-s SESSION]\n"
	      "Record the state dump of every application of a started session (default:\n"
	      "the current one) again: the lttng_ust_statedump events (loaded objects,\n"
	      "build ids, debug links, process name) where the session enables them. For\n"
	      "snapshot sessions and flight recorders, whose buffers overwrite the dump\n"
	      "recorded at start.\n"
	      "\n"
	      "Options:\n"
	      "  -s, --session=SESSION   the session (default: the current one)\n"
	      "  -h, --help              print this help\n",
	      f);
}

int cmd_regenerate(int argc, char **argv)
{
	const char *session = NULL;
	struct trax_msg req, reply;
	int rc;

	if (argc < 2)
		return cli_usage_error(
		    "Missing what to regenerate: statedump (see 'trax regenerate "
		    "--help')");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage_regenerate(stdout);
		return CLI_OK;
	}
	if (!strcmp(argv[1], "metadata"))
		return cli_error("Cannot regenerate the metadata: trax's traces take the clock's "
				 "offset when they are created ('trax regenerate statedump' is "
				 "supported)");
	if (strcmp(argv[1], "statedump"))
		return cli_usage_error("Unknown thing to regenerate '%s': trax has 'regenerate "
				       "statedump' (see 'trax regenerate --help')",
				       argv[1]);
	argc--;
	argv++;
	if ((rc = cli_parse_session_only(argc, argv, "regenerate", usage_regenerate, &session)) >=
	    0)
		return rc;
	if (optind < argc)
		return cli_extra_argument("regenerate", argv[optind]);
	if (session && (rc = cli_check_name("session", session)))
		return rc;
	if (!(session = cli_session(session)))
		return CLI_FAIL;

	trax_msg_init(&req, TRAX_MSG_REGENERATE_STATEDUMP);
	trax_msg_add(&req, "session", "%s", session);
	rc = cli_request(&req, &reply, 0);
	if (rc == CLI_OK)
		printf("State dump successfully regenerated for session %s\n", session);
	trax_msg_free(&req);
	trax_msg_free(&reply);
	return rc;
}
