/* cmd-snapshot.c - `trax snapshot record [-s SESSION] [OUTPUT]`. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"

void usage_snapshot(FILE *f)
{
	fputs("Usage: trax snapshot record [-s SESSION] [OUTPUT]\n"
	      "Write what the buffers of a session (default: the current one) hold now, as\n"
	      "a trace, without stopping it. The session is usually in snapshot mode\n"
	      "('trax create --snapshot') and must have been started. The snapshot goes to\n"
	      "a new directory under OUTPUT (a path, or file://PATH), by default under the\n"
	      "session's output.\n"
	      "\n"
	      "Options:\n"
	      "  -s, --session=SESSION   the session (default: the current one)\n"
	      "  -h, --help              print this help\n",
	      f);
}

int cmd_snapshot(int argc, char **argv)
{
	const char *session = NULL, *output = NULL, *rec, *path;
	struct trax_msg req, reply;
	char *abs = NULL;
	int rc;

	if (argc < 2)
		return cli_usage_error("Missing snapshot command: record (see 'trax snapshot "
				       "--help')");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage_snapshot(stdout);
		return CLI_OK;
	}
	if (strcmp(argv[1], "record"))
		return cli_usage_error("Unknown snapshot command '%s': trax has 'snapshot record' "
				       "(see 'trax snapshot --help')",
				       argv[1]);
	argc--;
	argv++;
	if ((rc = cli_parse_session_only(argc, argv, "snapshot", usage_snapshot, &session)) >= 0)
		return rc;
	if (optind < argc)
		output = argv[optind++];
	if (optind < argc)
		return cli_extra_argument("snapshot", argv[optind]);
	if (output && !strncmp(output, "file://", 7))
		output += 7;
	if (output && !*output)
		return cli_usage_error("The snapshot output is empty");
	if (output && strstr(output, "://"))
		return cli_usage_error("Unsupported snapshot output '%s': give a path or "
				       "file://PATH",
				       output);
	if (session && (rc = cli_check_name("session", session)))
		return rc;
	if (!(session = cli_session(session)))
		return CLI_FAIL;
	if (output && !(abs = cli_absolute_path(output)))
		return cli_error("Cannot make %s an absolute path", output);

	trax_msg_init(&req, TRAX_MSG_SNAPSHOT_RECORD);
	trax_msg_add(&req, "session", "%s", session);
	if (abs)
		trax_msg_add(&req, "output", "%s", abs);
	rc = cli_request(&req, &reply, CLI_REQ_NO_TIMEOUT);
	if (rc == CLI_OK) {
		printf("Snapshot recorded successfully for session %s\n", session);
		rec = cli_record_next(&reply, NULL, "snapshot");
		path = rec ? cli_record_get(&reply, rec, "path") : NULL;
		if (path && *path)
			printf("Snapshot written at: %s\n", path);
	}
	trax_msg_free(&req);
	trax_msg_free(&reply);
	free(abs);
	return rc;
}
