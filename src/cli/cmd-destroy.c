/* cmd-destroy.c - `trax destroy [NAME | --all]`. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"

void usage_destroy(FILE *f)
{
	fputs("Usage: trax destroy [NAME | --all]\n"
	      "Destroy a tracing session (default: the current one), after writing what\n"
	      "its buffers hold. The trace stays on disk.\n"
	      "\n"
	      "Options:\n"
	      "  -a, --all    destroy every session\n"
	      "  -h, --help   print this help\n",
	      f);
}

int cmd_destroy(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"all", no_argument, NULL, 'a'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *name = NULL, *rec;
	struct trax_msg req, reply;
	bool all = false;
	unsigned int n = 0;
	int c, rc;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ah", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			all = true;
			break;
		case 'h':
			usage_destroy(stdout);
			return CLI_OK;
		default:
			return cli_option_error("destroy", c, argv);
		}
	}
	if (optind < argc)
		name = argv[optind++];
	if (optind < argc)
		return cli_extra_argument("destroy", argv[optind]);
	if (all && name)
		return cli_usage_error("Give a session name or --all, not both");
	if (name && (rc = cli_check_name("session", name)))
		return rc;
	if (!all && !(name = cli_session(name)))
		return CLI_FAIL;

	trax_msg_init(&req, TRAX_MSG_DESTROY);
	if (all)
		trax_msg_add(&req, "all", "1");
	else
		trax_msg_add(&req, "name", "%s", name);
	rc = cli_request(&req, &reply, CLI_REQ_NO_TIMEOUT);
	if (rc == CLI_OK) {
		for (rec = NULL; (rec = cli_record_next(&reply, rec, "session"));) {
			const char *got = cli_record_get(&reply, rec, "name");

			if (!got)
				continue;
			printf("Session %s destroyed\n", got);
			cli_clear_current_session(got);
			n++;
		}
		if (!n && all)
			printf("No session found, nothing to do.\n");
		else if (!n) {
			printf("Session %s destroyed\n", name);
			cli_clear_current_session(name);
		}
	}
	trax_msg_free(&req);
	trax_msg_free(&reply);
	return rc;
}
