/*
 * cmd-event.c - `trax enable-event` and `trax disable-event`: event rules of
 * the user-space domain (-u: tracepoints by PROVIDER:EVENT pattern) and of
 * the kernel domain (-k: kernel tracepoints and system calls).
 */
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
	      "       trax enable-event -k [--tracepoint | --syscall] [OPTIONS]\n"
	      "                         (NAME[,NAME]... | --all)\n"
	      "Create (or enable) rules recording the user-space tracepoints whose full name\n"
	      "(PROVIDER:EVENT) matches NAME, or the kernel's tracepoints (sched_switch) or\n"
	      "system calls (openat) named NAME: a pattern where '*' matches anything (quote\n"
	      "it for the shell: 'my_provider:*'). Without --channel, the rules go to\n"
	      "channel0, created when missing.\n"
	      "\n"
	      "Options:\n"
	      "  -u, --userspace            the user-space domain\n"
	      "  -k, --kernel               the kernel domain (root's daemon)\n"
	      "      --tracepoint           with -k: kernel tracepoints (the default for names)\n"
	      "      --syscall              with -k: system calls (entry and exit)\n"
	      "  -a, --all                  every tracepoint (the pattern '*'); with -k and\n"
	      "                             neither --tracepoint nor --syscall, every\n"
	      "                             tracepoint and every system call\n"
	      "  -c, --channel=CHANNEL      the channel (default: channel0)\n"
	      "  -s, --session=SESSION      the session (default: the current one)\n"
	      "      --loglevel=LEVEL       with -u: only tracepoints at least as severe as\n"
	      "                             LEVEL\n"
	      "      --loglevel-only=LEVEL  with -u: only tracepoints of exactly LEVEL\n"
	      "      --exclude=XNAME[,XNAME]...\n"
	      "                             with -u: not the tracepoints matching XNAME\n"
	      "                             (with a pattern or --all only)\n"
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
	      "       trax disable-event -k [--syscall] [OPTIONS] (NAME[,NAME]... | --all)\n"
	      "Disable the event rules NAME (as given to enable-event) of a channel.\n"
	      "\n"
	      "Options:\n"
	      "  -u, --userspace         the user-space domain\n"
	      "  -k, --kernel            the kernel domain\n"
	      "      --syscall           with -k: the system call rules (else the\n"
	      "                          tracepoint rules)\n"
	      "  -a, --all, --all-events every rule of the channel (with -k and without\n"
	      "                          --syscall: tracepoints and system calls)\n"
	      "  -c, --channel=CHANNEL   the channel (default: channel0)\n"
	      "  -s, --session=SESSION   the session (default: the current one)\n"
	      "  -h, --help              print this help\n",
	      f);
}

enum {
	OPT_LOGLEVEL = 256,
	OPT_LOGLEVEL_ONLY,
	OPT_EXCLUDE,
	OPT_TRACEPOINT,
	OPT_SYSCALL,
};

/* Which kernel instrumentation a command names (lttng's event types). */
enum event_type { TYPE_ANY, TYPE_TRACEPOINT, TYPE_SYSCALL };

struct event_args {
	bool enable, kernel, userspace, all, only;
	enum event_type type;
	const char *session, *channel, *level_arg, *filter;
	int level;
	char **names, **excl;
	unsigned int nnames, nexcl;
};

/* ' excluding "a", "b"' (lttng's wording), or "". */
static void print_exclusions(char **x, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		printf("%s\"%s\"", i ? ", " : " excluding ", x[i]);
}

static int parse_options(int argc, char **argv, struct event_args *a)
{
	static const struct option enable_opts[] = {
	    {"userspace", no_argument, NULL, 'u'},
	    {"kernel", no_argument, NULL, 'k'},
	    {"tracepoint", no_argument, NULL, OPT_TRACEPOINT},
	    {"syscall", no_argument, NULL, OPT_SYSCALL},
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
	    {"kernel", no_argument, NULL, 'k'},
	    {"syscall", no_argument, NULL, OPT_SYSCALL},
	    {"all", no_argument, NULL, 'a'},
	    {"all-events", no_argument, NULL, 'a'},
	    {"channel", required_argument, NULL, 'c'},
	    {"session", required_argument, NULL, 's'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *cmd = a->enable ? "enable-event" : "disable-event";
	int c, rc = CLI_OK;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, a->enable ? ":ukac:s:f:h" : ":ukac:s:h",
				a->enable ? enable_opts : disable_opts, NULL)) != -1) {
		switch (c) {
		case 'u':
			a->userspace = true;
			break;
		case 'k':
			a->kernel = true;
			break;
		case OPT_TRACEPOINT:
		case OPT_SYSCALL: {
			enum event_type t = c == OPT_SYSCALL ? TYPE_SYSCALL : TYPE_TRACEPOINT;

			if (a->type != TYPE_ANY && a->type != t)
				rc = cli_usage_error("Multiple event type not supported.");
			a->type = t;
			break;
		}
		case 'a':
			a->all = true;
			break;
		case 'c':
			a->channel = optarg;
			break;
		case 's':
			a->session = optarg;
			break;
		case OPT_LOGLEVEL:
		case OPT_LOGLEVEL_ONLY:
			if (a->level_arg && a->only != (c == OPT_LOGLEVEL_ONLY))
				rc = cli_usage_error(
				    "--loglevel and --loglevel-only cannot be used together");
			else
				rc = cli_parse_loglevel(optarg, &a->level);
			a->level_arg = optarg;
			a->only = c == OPT_LOGLEVEL_ONLY;
			break;
		case OPT_EXCLUDE:
			rc = cli_split_list(optarg, "exclusion", &a->excl, &a->nexcl);
			break;
		case 'f':
			a->filter = optarg; /* the daemon compiles it, and says where it is wrong */
			break;
		case 'h':
			(a->enable ? usage_enable_event : usage_disable_event)(stdout);
			return -1;
		default:
			rc = cli_option_error(cmd, c, argv);
			break;
		}
		if (rc)
			return rc;
	}
	return CLI_OK;
}

/* What the options and names allow, as lttng checks it: CLI_OK or CLI_USAGE. */
static int check_args(const struct event_args *a)
{
	const char *cmd = a->enable ? "enable-event" : "disable-event";
	int rc;

	if ((rc = cli_check_domain(a->kernel, a->userspace)))
		return rc;
	if (a->userspace && a->type != TYPE_ANY)
		return cli_usage_error("Event type not available for user-space tracing");
	if (a->kernel && a->level_arg)
		return cli_usage_error("Kernel loglevels are not supported.");
	if (a->kernel && a->nexcl)
		return cli_usage_error(
		    "Event name exclusions are not yet implemented for kernel events");
	if (a->all && a->nnames)
		return cli_usage_error("Give event names or --all, not both");
	if (!a->all && !a->nnames)
		return cli_usage_error("Missing event name(s) (see 'trax %s --help')", cmd);
	for (unsigned int i = 0; a->nexcl && i < a->nnames; i++)
		if (!strchr(a->names[i], '*'))
			return cli_usage_error(
			    "Event %s: Exclusions can only be used with a globbing pattern",
			    a->names[i]);
	if ((a->channel && (rc = cli_check_name("channel", a->channel))) ||
	    (a->session && (rc = cli_check_name("session", a->session))))
		return rc;
	return CLI_OK;
}

/*
 * One request: the rules of names (or all) in one kind of instrumentation
 * (syscall: the kernel's system calls). The channel the daemon put them
 * in goes to *channel when the reply names one. CLI_OK or CLI_FAIL.
 */
static int send_rules(const struct event_args *a, const char *session, char **names,
		      unsigned int nnames, bool syscall, const char **channel, char **chbuf)
{
	struct trax_msg req, reply;
	const char *rec;
	int rc;

	trax_msg_init(&req, a->enable ? TRAX_MSG_ENABLE_EVENT : TRAX_MSG_DISABLE_EVENT);
	trax_msg_add(&req, "session", "%s", session);
	if (a->kernel)
		trax_msg_add(&req, "domain", "kernel");
	/* enable-event: the daemon applies the default channel (docs/daemon.md) */
	if (a->channel || !a->enable)
		trax_msg_add(&req, "channel", "%s", a->channel ? a->channel : DEFAULT_CHANNEL);
	if (a->all)
		trax_msg_add(&req, "all", "1");
	for (unsigned int i = 0; i < nnames; i++)
		trax_msg_add(&req, "name", "%s", names[i]);
	if (syscall)
		trax_msg_add(&req, "syscall", "1");
	if (a->level_arg) {
		trax_msg_add(&req, "loglevel", "%d", a->level);
		if (a->only)
			trax_msg_add(&req, "loglevel_only", "1");
	}
	for (unsigned int i = 0; i < a->nexcl; i++)
		trax_msg_add(&req, "exclude", "%s", a->excl[i]);
	if (a->filter)
		trax_msg_add(&req, "filter", "%s", a->filter);
	rc = cli_request(&req, &reply, 0);
	/* the daemon tells the channel of the rules (enable-event without -c) */
	if (rc == CLI_OK && !*chbuf && (rec = cli_record_next(&reply, NULL, "event")) &&
	    (rec = cli_record_get(&reply, rec, "channel")) && (*chbuf = strdup(rec)))
		*channel = *chbuf;
	trax_msg_free(&req);
	trax_msg_free(&reply);
	return rc;
}

/*
 * The requests: one for the names (or all) in their kind, and in the
 * kernel domain without a type, where lttng takes '*' (or --all) for every
 * tracepoint and every system call, a second one for the system calls.
 */
static int send_requests(const struct event_args *a, const char *session, const char **channel,
			 char **chbuf)
{
	static char star[] = "*";
	char *stars[1] = {star};
	bool any_star = false;
	int rc;

	rc = send_rules(a, session, a->names, a->nnames, a->type == TYPE_SYSCALL, channel, chbuf);
	if (rc || !a->kernel || a->type != TYPE_ANY)
		return rc;
	for (unsigned int i = 0; i < a->nnames; i++)
		any_star = any_star || !strcmp(a->names[i], "*");
	if (a->all)
		return send_rules(a, session, NULL, 0, true, channel, chbuf);
	if (any_star)
		return send_rules(a, session, stars, 1, true, channel, chbuf);
	return CLI_OK;
}

/* "tracepoints", "system calls" or "events" (lttng's words for --all). */
static const char *all_what(const struct event_args *a)
{
	if (!a->kernel || a->type == TYPE_ANY)
		return "events";
	return a->type == TYPE_SYSCALL ? "system calls" : "tracepoints";
}

/* What lttng prints once the rules are set. */
static void print_done(const struct event_args *a, const char *session, const char *channel)
{
	const char *dom = a->kernel ? "kernel" : "ust";

	if (a->enable && a->all) {
		printf("All %s %s", dom, all_what(a));
		print_exclusions(a->excl, a->nexcl);
		printf(" are enabled in channel %s", channel);
		if (a->level_arg)
			printf(" for loglevel %s", a->level_arg);
		printf("\n");
	} else if (a->enable) {
		for (unsigned int i = 0; i < a->nnames; i++) {
			printf("%s event %s", dom, a->names[i]);
			print_exclusions(a->excl, a->nexcl);
			printf(" created in channel %s\n", channel);
		}
	} else if (a->all) {
		printf("All %s %s are disabled in channel %s\n", dom, all_what(a), channel);
	} else {
		for (unsigned int i = 0; i < a->nnames; i++)
			printf("%s %s %s disabled in channel %s for session %s\n", dom,
			       a->type == TYPE_SYSCALL ? "system call" : "event", a->names[i],
			       channel, session);
	}
	if (a->enable && a->filter) {
		/* as lttng says it */
		for (unsigned int i = 0; i < (a->all ? 1 : a->nnames); i++) {
			printf("Event %s", a->all ? "*" : a->names[i]);
			print_exclusions(a->excl, a->nexcl);
			printf(": Filter '%s' successfully set\n", a->filter);
		}
	}
}

static int event_cmd(int argc, char **argv, bool enable)
{
	struct event_args a = {.enable = enable, .type = TYPE_ANY, .level = -1};
	const char *session, *channel;
	char *chbuf = NULL;
	int rc;

	rc = parse_options(argc, argv, &a);
	if (rc) {
		rc = rc < 0 ? CLI_OK : rc; /* -1: the help was printed */
		goto out;
	}
	for (; optind < argc && !rc; optind++)
		rc = cli_split_list(argv[optind], "event name", &a.names, &a.nnames);
	if (rc || (rc = check_args(&a)))
		goto out;
	if (!(session = cli_session(a.session))) {
		rc = CLI_FAIL;
		goto out;
	}
	channel = a.channel ? a.channel : DEFAULT_CHANNEL;
	rc = send_requests(&a, session, &channel, &chbuf);
	if (rc == CLI_OK)
		print_done(&a, session, channel);
out:
	free(chbuf);
	cli_free_list(a.names, a.nnames);
	cli_free_list(a.excl, a.nexcl);
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
