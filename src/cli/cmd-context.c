/* cmd-context.c - `trax add-context -u -t TYPE...`: context fields recorded with each event. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"

/* The user-space context fields trax records (TRAX_CONTEXT names the same). */
static const char *const context_types[] = {"vpid", "vtid", "procname", "pthread_id", "ip"};
#define NTYPES (sizeof(context_types) / sizeof(context_types[0]))

void usage_add_context(FILE *f)
{
	fputs("Usage: trax add-context -u [-s SESSION] [-c CHANNEL] -t TYPE [-t TYPE]...\n"
	      "       trax add-context --list\n"
	      "Record context fields before the payload of every event of a channel (of\n"
	      "every channel of the session without -c).\n"
	      "\n"
	      "Options:\n"
	      "  -u, --userspace         the user-space domain (required)\n"
	      "  -t, --type=TYPE         the field: vpid, vtid, procname, pthread_id or ip\n"
	      "                          (repeat for several)\n"
	      "  -c, --channel=CHANNEL   only this channel\n"
	      "  -s, --session=SESSION   the session (default: the current one)\n"
	      "  -l, --list              list the context types and exit\n"
	      "  -h, --help              print this help\n",
	      f);
}

int cmd_add_context(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"userspace", no_argument, NULL, 'u'},
	    {"type", required_argument, NULL, 't'},
	    {"channel", required_argument, NULL, 'c'},
	    {"session", required_argument, NULL, 's'},
	    {"list", no_argument, NULL, 'l'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *session = NULL, *channel = NULL;
	const char **types;
	unsigned int ntypes = 0;
	bool userspace = false;
	struct trax_msg req, reply;
	int c, rc = CLI_OK;

	types = calloc((size_t)argc + 1, sizeof(*types));
	if (!types)
		return cli_error("out of memory");
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ut:c:s:lh", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
			userspace = true;
			break;
		case 't': {
			bool known = false;

			for (size_t i = 0; i < NTYPES; i++)
				known = known || !strcmp(optarg, context_types[i]);
			if (!known)
				rc = cli_usage_error("Unknown context type %s", optarg);
			types[ntypes++] = optarg;
			break;
		}
		case 'c':
			channel = optarg;
			break;
		case 's':
			session = optarg;
			break;
		case 'l':
			for (size_t i = 0; i < NTYPES; i++)
				printf("%s\n", context_types[i]);
			goto out;
		case 'h':
			usage_add_context(stdout);
			goto out;
		default:
			rc = cli_option_error("add-context", c, argv);
			break;
		}
		if (rc)
			goto out;
	}
	if (optind < argc) {
		rc = cli_extra_argument("add-context", argv[optind]);
		goto out;
	}
	if (!userspace) {
		rc = cli_missing_domain();
		goto out;
	}
	if (!ntypes) {
		rc = cli_usage_error("Missing context type: give -t TYPE (see 'trax add-context "
				     "--help')");
		goto out;
	}
	if ((channel && (rc = cli_check_name("channel", channel))) ||
	    (session && (rc = cli_check_name("session", session))))
		goto out;
	if (!(session = cli_session(session))) {
		rc = CLI_FAIL;
		goto out;
	}

	trax_msg_init(&req, TRAX_MSG_ADD_CONTEXT);
	trax_msg_add(&req, "session", "%s", session);
	if (channel)
		trax_msg_add(&req, "channel", "%s", channel);
	for (unsigned int i = 0; i < ntypes; i++)
		trax_msg_add(&req, "type", "%s", types[i]);
	rc = cli_request(&req, &reply, 0);
	for (unsigned int i = 0; rc == CLI_OK && i < ntypes; i++) {
		if (channel)
			printf("ust context %s added to channel %s\n", types[i], channel);
		else
			printf("ust context %s added to all channels\n", types[i]);
	}
	trax_msg_free(&req);
	trax_msg_free(&reply);
out:
	free(types);
	return rc;
}
