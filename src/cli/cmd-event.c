/* cmd-event.c - `trax enable-event` and `trax disable-event` (user-space event rules). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"

#define DEFAULT_CHANNEL "channel0"

void usage_enable_event(FILE *f)
{
	fputs("Usage: trax enable-event -u [OPTIONS] (NAME[,NAME]... | --all)\n"
	      "Create (or enable) rules recording the user-space tracepoints whose full name\n"
	      "(PROVIDER:EVENT) matches NAME, a pattern where '*' matches anything (quote\n"
	      "it for the shell: 'my_provider:*'). Without --channel, the rules go to\n"
	      "channel0, created when missing.\n"
	      "\n"
	      "Options:\n"
	      "  -u, --userspace            the user-space domain (required)\n"
	      "  -a, --all                  every tracepoint (the pattern '*')\n"
	      "  -c, --channel=CHANNEL      the channel (default: channel0)\n"
	      "  -s, --session=SESSION      the session (default: the current one)\n"
	      "      --loglevel=LEVEL       only tracepoints at least as severe as LEVEL\n"
	      "      --loglevel-only=LEVEL  only tracepoints of exactly LEVEL\n"
	      "      --exclude=XNAME[,XNAME]...\n"
	      "                             not the tracepoints matching XNAME (with a\n"
	      "                             pattern or --all only)\n"
	      "  -f, --filter=EXPR          only the events for which EXPR is true: LTTng's\n"
	      "                             filter language, e.g. 'n > 10 && name == \"a*\"'\n"
	      "                             (fields by name, $ctx.vpid, $ctx.procname, ...;\n"
	      "                             see trax(1))\n"
	      "  -h, --help                 print this help\n"
	      "LEVEL, from the most to the least severe: TRACE_EMERG (0), TRACE_ALERT,\n"
	      "TRACE_CRIT, TRACE_ERR, TRACE_WARNING, TRACE_NOTICE, TRACE_INFO (6),\n"
	      "TRACE_DEBUG_SYSTEM, TRACE_DEBUG_PROGRAM, TRACE_DEBUG_PROCESS, TRACE_DEBUG_MODULE,\n"
	      "TRACE_DEBUG_UNIT, TRACE_DEBUG_FUNCTION, TRACE_DEBUG_LINE, TRACE_DEBUG (14): a\n"
	      "name (any case, TRACE_ prefix optional) or its number.\n",
	      f);
}

void usage_disable_event(FILE *f)
{
	fputs("Usage: trax disable-event -u [OPTIONS] (NAME[,NAME]... | --all)\n"
	      "Disable the event rules NAME (as given to enable-event) of a channel.\n"
	      "\n"
	      "Options:\n"
	      "  -u, --userspace         the user-space domain (required)\n"
	      "  -a, --all, --all-events every rule of the channel\n"
	      "  -c, --channel=CHANNEL   the channel (default: channel0)\n"
	      "  -s, --session=SESSION   the session (default: the current one)\n"
	      "  -h, --help              print this help\n",
	      f);
}

enum { OPT_LOGLEVEL = 256, OPT_LOGLEVEL_ONLY, OPT_EXCLUDE };

/* ' excluding "a", "b"' (lttng's wording), or "". */
static void print_exclusions(char **x, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		printf("%s\"%s\"", i ? ", " : " excluding ", x[i]);
}

static int event_cmd(int argc, char **argv, bool enable)
{
	static const struct option enable_opts[] = {
	    {"userspace", no_argument, NULL, 'u'},
	    {"all", no_argument, NULL, 'a'},
	    {"channel", required_argument, NULL, 'c'},
	    {"session", required_argument, NULL, 's'},
	    {"loglevel", required_argument, NULL, OPT_LOGLEVEL},
	    {"loglevel-only", required_argument, NULL, OPT_LOGLEVEL_ONLY},
	    {"exclude", required_argument, NULL, OPT_EXCLUDE},
	    {"filter", required_argument, NULL, 'f'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	static const struct option disable_opts[] = {
	    {"userspace", no_argument, NULL, 'u'},
	    {"all", no_argument, NULL, 'a'},
	    {"all-events", no_argument, NULL, 'a'},
	    {"channel", required_argument, NULL, 'c'},
	    {"session", required_argument, NULL, 's'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *cmd = enable ? "enable-event" : "disable-event";
	const char *session = NULL, *channel = NULL, *level_arg = NULL, *filter = NULL, *rec;
	bool userspace = false, all = false, only = false;
	char **names = NULL, **excl = NULL;
	unsigned int nnames = 0, nexcl = 0;
	struct trax_msg req, reply;
	int c, rc = CLI_OK, level = -1;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, enable ? ":uac:s:f:h" : ":uac:s:h",
				enable ? enable_opts : disable_opts, NULL)) != -1) {
		switch (c) {
		case 'u':
			userspace = true;
			break;
		case 'a':
			all = true;
			break;
		case 'c':
			channel = optarg;
			break;
		case 's':
			session = optarg;
			break;
		case OPT_LOGLEVEL:
		case OPT_LOGLEVEL_ONLY:
			if (level_arg && only != (c == OPT_LOGLEVEL_ONLY))
				rc = cli_usage_error(
				    "--loglevel and --loglevel-only cannot be used together");
			else
				rc = cli_parse_loglevel(optarg, &level);
			level_arg = optarg;
			only = c == OPT_LOGLEVEL_ONLY;
			break;
		case OPT_EXCLUDE:
			rc = cli_split_list(optarg, "exclusion", &excl, &nexcl);
			break;
		case 'f':
			filter = optarg; /* the daemon compiles it, and says where it is wrong */
			break;
		case 'h':
			(enable ? usage_enable_event : usage_disable_event)(stdout);
			goto out;
		default:
			rc = cli_option_error(cmd, c, argv);
			break;
		}
		if (rc)
			goto out;
	}
	if (!userspace) {
		rc = cli_missing_domain();
		goto out;
	}
	for (; optind < argc && !rc; optind++)
		rc = cli_split_list(argv[optind], "event name", &names, &nnames);
	if (rc)
		goto out;
	if (all && nnames) {
		rc = cli_usage_error("Give event names or --all, not both");
		goto out;
	}
	if (!all && !nnames) {
		rc = cli_usage_error("Missing event name(s) (see 'trax %s --help')", cmd);
		goto out;
	}
	for (unsigned int i = 0; nexcl && i < nnames; i++) {
		if (!strchr(names[i], '*')) {
			rc = cli_usage_error(
			    "Event %s: Exclusions can only be used with a globbing pattern",
			    names[i]);
			goto out;
		}
	}
	if ((channel && (rc = cli_check_name("channel", channel))) ||
	    (session && (rc = cli_check_name("session", session))))
		goto out;
	if (!(session = cli_session(session))) {
		rc = CLI_FAIL;
		goto out;
	}

	trax_msg_init(&req, enable ? TRAX_MSG_ENABLE_EVENT : TRAX_MSG_DISABLE_EVENT);
	trax_msg_add(&req, "session", "%s", session);
	/* enable-event: the daemon applies the default channel (docs/daemon.md) */
	if (channel || !enable)
		trax_msg_add(&req, "channel", "%s", channel ? channel : DEFAULT_CHANNEL);
	if (all)
		trax_msg_add(&req, "all", "1");
	for (unsigned int i = 0; i < nnames; i++)
		trax_msg_add(&req, "name", "%s", names[i]);
	if (level_arg) {
		trax_msg_add(&req, "loglevel", "%d", level);
		if (only)
			trax_msg_add(&req, "loglevel_only", "1");
	}
	for (unsigned int i = 0; i < nexcl; i++)
		trax_msg_add(&req, "exclude", "%s", excl[i]);
	if (filter)
		trax_msg_add(&req, "filter", "%s", filter);
	rc = cli_request(&req, &reply, 0);
	/* the daemon tells the channel of the rules (enable-event without -c) */
	if (rc == CLI_OK && (rec = cli_record_next(&reply, NULL, "event")))
		channel = cli_record_get(&reply, rec, "channel");
	if (!channel)
		channel = DEFAULT_CHANNEL;
	if (rc == CLI_OK && enable && all) {
		printf("All ust events");
		print_exclusions(excl, nexcl);
		printf(" are enabled in channel %s", channel);
		if (level_arg)
			printf(" for loglevel %s", level_arg);
		printf("\n");
	} else if (rc == CLI_OK && enable) {
		for (unsigned int i = 0; i < nnames; i++) {
			printf("ust event %s", names[i]);
			print_exclusions(excl, nexcl);
			printf(" created in channel %s\n", channel);
		}
	} else if (rc == CLI_OK && all) {
		printf("All ust events are disabled in channel %s\n", channel);
	} else if (rc == CLI_OK) {
		for (unsigned int i = 0; i < nnames; i++)
			printf("ust event %s disabled in channel %s for session %s\n", names[i],
			       channel, session);
	}
	if (rc == CLI_OK && enable && filter) {
		/* as lttng says it */
		for (unsigned int i = 0; i < (all ? 1 : nnames); i++) {
			printf("Event %s", all ? "*" : names[i]);
			print_exclusions(excl, nexcl);
			printf(": Filter '%s' successfully set\n", filter);
		}
	}
	trax_msg_free(&req);
	trax_msg_free(&reply);
out:
	cli_free_list(names, nnames);
	cli_free_list(excl, nexcl);
	return rc;
}

int cmd_enable_event(int argc, char **argv)
{
	return event_cmd(argc, argv, true);
}

int cmd_disable_event(int argc, char **argv)
{
	return event_cmd(argc, argv, false);
}
