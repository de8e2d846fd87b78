/*
 * cmd-list.c - `trax list` (sessions, one session's setup, or the
 * tracepoints of registered applications) and `trax status` (the current
 * session's setup), printed as lttng-list(1) prints them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"

void usage_list(FILE *f)
{
	fputs("Usage: trax list [-u [-f]]\n"
	      "       trax list [-c CHANNEL | -d] SESSION\n"
	      "Without argument, list the tracing sessions. With SESSION, list its domain,\n"
	      "trackers, channels (attributes and statistics), context fields and event\n"
	      "rules. With -u, list the tracepoints of the registered applications.\n"
	      "\n"
	      "Options:\n"
	      "  -u, --userspace        the tracepoints of registered applications, with\n"
	      "                         their log levels\n"
	      "  -f, --fields           with -u: the fields of each tracepoint too\n"
	      "  -c, --channel=CHANNEL  with SESSION: only this channel\n"
	      "  -d, --domain           with SESSION: only its tracing domains\n"
	      "  -h, --help             print this help\n",
	      f);
}

void usage_status(FILE *f)
{
	fputs("Usage: trax status\n"
	      "Show the current session's setup, as 'trax list SESSION' does.\n"
	      "\n"
	      "Options:\n"
	      "  -h, --help   print this help\n",
	      f);
}

static const char * or (const char *v, const char *dflt)
{
	return v && *v ? v : dflt;
}

static const char *enabled_str(const char *v)
{
	if (!v)
		return "";
	return cli_is_true(v) ? " [enabled]" : " [disabled]";
}

static void print_sessions(const struct trax_msg *m)
{
	const char *rec = NULL;
	int n = 0;

	while ((rec = cli_record_next(m, rec, "session"))) {
		const char *out = cli_record_get(m, rec, "output");

		if (!n)
			printf("Available recording sessions:\n");
		n++;
		printf("  %d) %s [%s%s]\n", n, or (cli_record_get(m, rec, "name"), "?"),
		       or (cli_record_get(m, rec, "state"), "inactive"),
		       cli_is_true(cli_record_get(m, rec, "snapshot")) ? " snapshot" : "");
		if (out && *out)
			printf("    Trace output: %s\n", out);
		printf("\n");
	}
	if (!n)
		printf("Currently no available recording session\n");
	else
		printf("\nUse trax list <session_name> for more details\n");
}

/* "      Switch timer:     1000 us" */
static void print_timer(const char *name, int pad, const char *v)
{
	printf("      %s:%*s%s%s\n", name, pad, "", v && strcmp(v, "0") ? v : "inactive",
	       v && strcmp(v, "0") ? " us" : "");
}

static void print_tracker(const struct trax_msg *m, const char *kind, const char *label)
{
	const char *rec = NULL, *it = NULL, *v;
	int n = 0;

	while ((rec = cli_record_next(m, rec, "tracker")))
		if (!strcmp(or (cli_record_get(m, rec, "kind"), ""), kind))
			break;
	printf("  %-22s", label);
	if (!rec || cli_is_true(cli_record_get(m, rec, "all"))) {
		printf("all\n");
		return;
	}
	while ((v = cli_record_each(m, rec, "value", &it)))
		printf("%s%s", n++ ? ", " : "", v);
	printf("%s\n", n ? "" : "none");
}

/* Whether a tracker of the session lets fewer than every process be traced. */
static bool trackers_set(const struct trax_msg *m)
{
	const char *rec = NULL;

	while ((rec = cli_record_next(m, rec, "tracker")))
		if (!cli_is_true(cli_record_get(m, rec, "all")))
			return true;
	return false;
}

static bool in_channel(const struct trax_msg *m, const char *rec, const char *channel)
{
	const char *c = cli_record_get(m, rec, "channel");

	/* a context without a channel is in every channel */
	return !c || !*c || !strcmp(c, channel);
}

static void print_event_rule(const struct trax_msg *m, const char *rec)
{
	const char *name = or (cli_record_get(m, rec, "name"), "?");
	const char *lv = cli_record_get(m, rec, "loglevel");
	const char *en = enabled_str(cli_record_get(m, rec, "enabled"));
	const char *it = NULL, *x;
	int level = lv ? atoi(lv) : -1, n = 0;

	if (lv && *lv && level >= 0) {
		const char *lname = cli_loglevel_name(level);

		printf("      %s (loglevel%s %s (%d)) (type: tracepoint)%s", name,
		       cli_is_true(cli_record_get(m, rec, "loglevel_only")) ? " ==" : " <=",
		       lname ? lname : "TRACE_UNKNOWN", level, en);
	} else {
		printf("      %s (type: tracepoint)%s", name, en);
	}
	while ((x = cli_record_each(m, rec, "exclude", &it)))
		printf("%s%s", n++ ? "," : " [exclusions: ", x);
	printf("%s", n ? "]" : "");
	if ((x = cli_record_get(m, rec, "filter")))
		printf(" [filter: '%s']", x);
	printf("\n");
}

static void print_channel(const struct trax_msg *m, const char *ch, bool snapshot)
{
	const char *name = or (cli_record_get(m, ch, "name"), "?");
	bool overwrite = cli_is_true(cli_record_get(m, ch, "overwrite"));
	const char *v, *rec;
	int n;

	printf("- %s:%s\n\n", name, enabled_str(or (cli_record_get(m, ch, "enabled"), "1")));
	printf("    Attributes:\n");
	printf("      Event-loss mode:  %s\n", overwrite ? "overwrite" : "discard");
	printf("      Sub-buffer size:  %s bytes\n",
	       or (cli_record_get(m, ch, "subbuf_size"), "?"));
	printf("      Sub-buffer count: %s\n", or (cli_record_get(m, ch, "num_subbuf"), "?"));
	print_timer("Switch timer", 5, cli_record_get(m, ch, "switch_timer"));
	print_timer("Read timer", 7, cli_record_get(m, ch, "read_timer"));
	if (!overwrite) {
		v = or (cli_record_get(m, ch, "blocking_timeout"), "0");
		if (!strcmp(v, "-1"))
			printf("      Blocking timeout: infinite\n");
		else
			printf("      Blocking timeout: %s us\n", v);
	}
	v = or (cli_record_get(m, ch, "tracefile_count"), "0");
	printf("      Trace file count: %s per stream\n", strcmp(v, "0") ? v : "1");
	v = or (cli_record_get(m, ch, "tracefile_size"), "0");
	if (strcmp(v, "0"))
		printf("      Trace file size:  %s bytes\n", v);
	else
		printf("      Trace file size:  unlimited\n");

	printf("\n    Statistics:\n");
	if (snapshot)
		printf("      None\n");
	else if (!overwrite)
		printf("      Discarded events: %s\n",
		       or (cli_record_get(m, ch, "discarded"), "0"));
	else
		printf("      Lost packets:     %s\n", or (cli_record_get(m, ch, "lost"), "0"));

	n = 0;
	for (rec = NULL; (rec = cli_record_next(m, rec, "context"));) {
		if (!in_channel(m, rec, name))
			continue;
		if (!n++)
			printf("\n    Context fields:\n");
		printf("      %s\n", or (cli_record_get(m, rec, "type"), "?"));
	}

	printf("\n    Recording event rules:\n");
	n = 0;
	for (rec = NULL; (rec = cli_record_next(m, rec, "event"));) {
		const char *c = cli_record_get(m, rec, "channel");

		if (c && strcmp(c, name))
			continue;
		print_event_rule(m, rec);
		n++;
	}
	if (!n)
		printf("      None\n");
	printf("\n");
}

/* One session's setup (LIST name=S, STATUS): lttng list SESSION. */
static int print_session(const struct trax_msg *m, const char *channel, bool domains_only)
{
	const char *s = cli_record_next(m, NULL, "session"), *ch, *out;
	bool snapshot, found = false;
	int nchan = 0;

	if (!s)
		return cli_error("The session daemon sent no session record");
	snapshot = cli_is_true(cli_record_get(m, s, "snapshot"));
	printf("Recording session %s: [%s%s]\n", or (cli_record_get(m, s, "name"), "?"),
	       or (cli_record_get(m, s, "state"), "inactive"), snapshot ? " snapshot" : "");
	out = cli_record_get(m, s, "output");
	if (out && *out)
		printf("    Trace output: %s\n\n", out);
	for (ch = NULL; (ch = cli_record_next(m, ch, "channel"));)
		nchan++;
	if (domains_only) {
		printf("Domains:\n-------------\n");
		printf("%s\n", nchan || trackers_set(m) ? "  - UST global" : "  None");
		return CLI_OK;
	}
	if (!nchan && !trackers_set(m)) {
		if (channel)
			return cli_error("Channel %s not found", channel);
		return CLI_OK;
	}
	ch = cli_record_next(m, NULL, "channel");
	printf("=== Domain: User space ===\n\n");
	printf("Buffering scheme: %s\n\n",
	       ch && !strcmp(or (cli_record_get(m, ch, "buffers"), "uid"), "pid") ? "per-process"
										  : "per-user");
	printf("Tracked process attributes\n");
	print_tracker(m, "vpid", "Virtual process IDs:");
	print_tracker(m, "vuid", "Virtual user IDs:");
	printf("\n");
	if (nchan)
		printf("Channels:\n-------------\n");
	for (ch = NULL; (ch = cli_record_next(m, ch, "channel"));) {
		if (channel && strcmp(or (cli_record_get(m, ch, "name"), ""), channel))
			continue;
		found = true;
		print_channel(m, ch, snapshot);
	}
	if (channel && !found)
		return cli_error("Channel %s not found", channel);
	return CLI_OK;
}

/* "type name, type name" -> "        field: name (type)" lines. */
static void print_fields(const char *fields)
{
	const char *p = fields;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *sp;

		while (len && *p == ' ') {
			p++;
			len--;
		}
		while (len && p[len - 1] == ' ')
			len--;
		sp = memrchr(p, ' ', len);
		if (len && sp)
			printf("        field: %.*s (%.*s)\n", (int)(len - (size_t)(sp + 1 - p)),
			       sp + 1, (int)(sp - p), p);
		else if (len)
			printf("        field: %.*s (unknown)\n", (int)len, p);
		p = end ? end + 1 : NULL;
	}
}

/* The first word of a process's command line, as lttng list -u shows it. */
static const char *cmdline_of(const char *pid, char *buf, size_t size)
{
	char path[64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%s/cmdline", pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = 0;
	return n && buf[0] ? buf : NULL;
}

/* LIST domain=ust: lttng list -u (and --fields). */
static void print_tracepoints(const struct trax_msg *m, bool fields)
{
	const char *rec = NULL;
	bool any = false;

	printf("UST events:\n-------------\n");
	while ((rec = cli_record_next(m, rec, NULL))) {
		const char *kind = cli_record_kind(rec);

		if (!strcmp(kind, "app")) {
			const char *pid = or (cli_record_get(m, rec, "pid"), "?");
			char cmd[4096];
			const char *name = cmdline_of(pid, cmd, sizeof(cmd));

			printf("\nPID: %s - Name: %s\n", pid,
			       name ? name : or (cli_record_get(m, rec, "name"), "?"));
			any = true;
		} else if (!strcmp(kind, "tracepoint")) {
			const char *name = or (cli_record_get(m, rec, "name"), "?");
			const char *lv = cli_record_get(m, rec, "loglevel");
			int level = lv && *lv ? atoi(lv) : -1;

			if (level >= 0) {
				const char *lname = cli_loglevel_name(level);

				printf("      %s (loglevel: %s (%d)) (type: tracepoint)\n", name,
				       lname ? lname : "TRACE_UNKNOWN", level);
			} else {
				printf("      %s (type: tracepoint)\n", name);
			}
			if (fields)
				print_fields(cli_record_get(m, rec, "fields"));
			any = true;
		}
	}
	if (!any)
		printf("None\n");
	printf("\n");
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"userspace", no_argument, NULL, 'u'},     {"fields", no_argument, NULL, 'f'},
	    {"channel", required_argument, NULL, 'c'}, {"domain", no_argument, NULL, 'd'},
	    {"help", no_argument, NULL, 'h'},	       {NULL, 0, NULL, 0},
	};
	const char *session = NULL, *channel = NULL;
	bool userspace = false, fields = false, domains = false;
	struct trax_msg req, reply;
	int c, rc;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ufc:dh", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
			userspace = true;
			break;
		case 'f':
			fields = true;
			break;
		case 'c':
			channel = optarg;
			break;
		case 'd':
			domains = true;
			break;
		case 'h':
			usage_list(stdout);
			return CLI_OK;
		default:
			return cli_option_error("list", c, argv);
		}
	}
	if (optind < argc)
		session = argv[optind++];
	if (optind < argc)
		return cli_extra_argument("list", argv[optind]);
	if (session && (rc = cli_check_name("session", session)))
		return rc;
	if ((channel || domains) && !session)
		return cli_usage_error("--%s needs a session name (see 'trax list --help')",
				       channel ? "channel" : "domain");
	if (channel && (rc = cli_check_name("channel", channel)))
		return rc;

	trax_msg_init(&req, TRAX_MSG_LIST);
	if (session)
		trax_msg_add(&req, "name", "%s", session);
	else if (userspace)
		trax_msg_add(&req, "domain", "ust");
	rc = cli_request(&req, &reply, 0);
	if (rc == CLI_OK) {
		if (session)
			rc = print_session(&reply, channel, domains);
		else if (userspace)
			print_tracepoints(&reply, fields);
		else
			print_sessions(&reply);
	}
	trax_msg_free(&req);
	trax_msg_free(&reply);
	return rc;
}

int cmd_status(int argc, char **argv)
{
	struct trax_msg req, reply;
	const char *session;
	int rc;

	if ((rc = cli_parse_help_only(argc, argv, "status", usage_status)) >= 0)
		return rc;
	if (optind < argc)
		return cli_extra_argument("status", argv[optind]);
	if (!(session = cli_session(NULL)))
		return CLI_FAIL;

	trax_msg_init(&req, TRAX_MSG_STATUS);
	trax_msg_add(&req, "session", "%s", session);
	rc = cli_request(&req, &reply, 0);
	if (rc == CLI_OK)
		rc = print_session(&reply, NULL, false);
	trax_msg_free(&req);
	trax_msg_free(&reply);
	return rc;
}
