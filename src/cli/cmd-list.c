/*
 * cmd-list.c - `trax list` (sessions, one session's setup, the tracepoints
 * of registered applications, or the kernel's tracepoints and system
 * calls) and `trax status` (the current session's setup), printed as
 * lttng-list(1) prints them.
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
	      "       trax list -k [--syscall] [-f]\n"
	      "       trax list [-u | -k] [-c CHANNEL | -d] SESSION\n"
	      "Without argument, list the tracing sessions. With SESSION, list its domains,\n"
	      "trackers, channels (attributes and statistics), context fields and event\n"
	      "rules. With -u, list the tracepoints of the registered applications; with\n"
	      "-k, the kernel's tracepoints (or system calls).\n"
	      "\n"
	      "Options:\n"
	      "  -u, --userspace        the tracepoints of registered applications, with\n"
	      "                         their log levels; with SESSION: only its user-space\n"
	      "                         domain\n"
	      "  -k, --kernel           the kernel's tracepoints, under LTTng's names; with\n"
	      "                         SESSION: only its kernel domain\n"
	      "      --syscall          with -k: the system calls instead\n"
	      "  -f, --fields           with -u or -k: the fields of each tracepoint (or\n"
	      "                         the arguments of each system call) too\n"
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

/*
 * The record kinds of one domain in a session's listing (docs/daemon.md):
 * user space's channel, event, context, tracker; the kernel's kchannel,
 * kevent, kcontext, ktracker.
 */
struct domain_records {
	bool kernel;
	const char *channel, *event, *context, *tracker;
};

static const struct domain_records ust_records = {false, "channel", "event", "context", "tracker"};
static const struct domain_records kernel_records = {true, "kchannel", "kevent", "kcontext",
						     "ktracker"};

static void print_tracker(const struct trax_msg *m, const struct domain_records *d,
			  const char *kind, const char *label)
{
	const char *rec = NULL, *it = NULL, *v;
	int n = 0;

	while ((rec = cli_record_next(m, rec, d->tracker)))
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

/* Whether a tracker of the domain lets fewer than every process be traced. */
static bool trackers_set(const struct trax_msg *m, const struct domain_records *d)
{
	const char *rec = NULL;

	while ((rec = cli_record_next(m, rec, d->tracker)))
		if (!cli_is_true(cli_record_get(m, rec, "all")))
			return true;
	return false;
}

static int count_records(const struct trax_msg *m, const char *kind)
{
	const char *rec = NULL;
	int n = 0;

	while ((rec = cli_record_next(m, rec, kind)))
		n++;
	return n;
}

/* Whether the session has anything in the domain (lttng lists the domain then). */
static bool domain_present(const struct trax_msg *m, const struct domain_records *d)
{
	return count_records(m, d->channel) > 0 || trackers_set(m, d);
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

/*
 * A kernel rule (record=kevent), as lttng lists them: a tracepoint with
 * the log level LTTng-modules gives every kernel event, a system call
 * with its type only. The daemon lists enabled rules, maybe without
 * saying so.
 */
static void print_kernel_rule(const struct trax_msg *m, const char *rec)
{
	const char *name = or (cli_record_get(m, rec, "name"), "?");
	const char *en = enabled_str(or (cli_record_get(m, rec, "enabled"), "1"));
	const char *filter = cli_record_get(m, rec, "filter");

	if (!strcmp(or (cli_record_get(m, rec, "kind"), "tracepoint"), "syscall"))
		printf("      %s (type:syscall)%s", name, en);
	else
		printf("      %s (loglevel: TRACE_EMERG (0)) (type: tracepoint)%s", name, en);
	if (filter)
		printf(" [filter: '%s']", filter);
	printf("\n");
}

static void print_channel(const struct trax_msg *m, const struct domain_records *d, const char *ch,
			  bool snapshot)
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
	for (rec = NULL; (rec = cli_record_next(m, rec, d->context));) {
		if (!in_channel(m, rec, name))
			continue;
		if (!n++)
			printf("\n    Context fields:\n");
		printf("      %s\n", or (cli_record_get(m, rec, "type"), "?"));
	}

	printf("\n    Recording event rules:\n");
	n = 0;
	for (rec = NULL; (rec = cli_record_next(m, rec, d->event));) {
		const char *c = cli_record_get(m, rec, "channel");

		if (c && strcmp(c, name))
			continue;
		(d->kernel ? print_kernel_rule : print_event_rule)(m, rec);
		n++;
	}
	if (!n)
		printf("      None\n");
	printf("\n");
}

/*
 * One domain of a session: its header, trackers and channels (only
 * `channel` when not NULL). Whether that channel was among them.
 */
static bool print_domain(const struct trax_msg *m, const struct domain_records *d,
			 const char *channel, bool snapshot)
{
	const char *ch = cli_record_next(m, NULL, d->channel);
	bool found = false;

	if (d->kernel) {
		printf("=== Domain: Linux kernel ===\n\n");
	} else {
		printf("=== Domain: User space ===\n\n");
		printf("Buffering scheme: %s\n\n",
		       ch && !strcmp(or (cli_record_get(m, ch, "buffers"), "uid"), "pid")
			   ? "per-process"
			   : "per-user");
	}
	printf("Tracked process attributes\n");
	if (d->kernel) {
		print_tracker(m, d, "pid", "Process IDs:");
		print_tracker(m, d, "uid", "User IDs:");
		print_tracker(m, d, "gid", "Group IDs:");
	} else {
		print_tracker(m, d, "vpid", "Virtual process IDs:");
		print_tracker(m, d, "vuid", "Virtual user IDs:");
	}
	printf("\n");
	if (ch)
		printf("Channels:\n-------------\n");
	for (; ch; ch = cli_record_next(m, ch, d->channel)) {
		if (channel && strcmp(or (cli_record_get(m, ch, "name"), ""), channel))
			continue;
		found = true;
		print_channel(m, d, ch, snapshot);
	}
	return found;
}

/*
 * One session's setup (LIST name=S, STATUS): lttng list SESSION, the
 * kernel domain first as lttng lists it; only the domain given (-k or
 * -u) when kernel_only or ust_only.
 */
static int print_session(const struct trax_msg *m, const char *channel, bool domains_only,
			 bool kernel_only, bool ust_only)
{
	const char *s = cli_record_next(m, NULL, "session"), *out;
	bool snapshot, found = false;
	bool kernel = !ust_only && domain_present(m, &kernel_records);
	bool ust = !kernel_only && domain_present(m, &ust_records);

	if (!s)
		return cli_error("The session daemon sent no session record");
	snapshot = cli_is_true(cli_record_get(m, s, "snapshot"));
	printf("Recording session %s: [%s%s]\n", or (cli_record_get(m, s, "name"), "?"),
	       or (cli_record_get(m, s, "state"), "inactive"), snapshot ? " snapshot" : "");
	out = cli_record_get(m, s, "output");
	if (out && *out)
		printf("    Trace output: %s\n\n", out);
	if (domains_only) {
		printf("Domains:\n-------------\n");
		if (kernel)
			printf("  - Kernel\n");
		if (ust)
			printf("  - UST global\n");
		if (!kernel && !ust)
			printf("  None\n");
		return CLI_OK;
	}
	if (kernel)
		found = print_domain(m, &kernel_records, channel, snapshot) || found;
	if (ust)
		found = print_domain(m, &ust_records, channel, snapshot) || found;
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

/*
 * LIST domain=kernel: lttng list -k (every kernel tracepoint has the log
 * level LTTng-modules gives them all), or with --syscall lttng list -k
 * --syscall (the system calls of this machine's word size: the kernel's
 * syscall events are those of its native table).
 */
static void print_kernel_events(const struct trax_msg *m, bool syscalls, bool fields)
{
	const char *rec = NULL;

	printf("%s\n-------------\n", syscalls ? "System calls:" : "Kernel events:");
	while ((rec = cli_record_next(m, rec, NULL))) {
		const char *kind = cli_record_kind(rec);
		const char *name = or (cli_record_get(m, rec, "name"), "?");

		if (strcmp(kind, "tracepoint") && strcmp(kind, "syscall"))
			continue;
		if (syscalls) {
			/* the ABIs the call is traced in: "32", "64", "32/64" */
			const char *bits = cli_record_get(m, rec, "bits");

			if (bits)
				printf("      %s [%s-bit]\n", name, bits);
			else
				printf("      %s [%d-bit]\n", name, (int)sizeof(long) * 8);
		} else
			printf("      %s (loglevel: TRACE_EMERG (0)) (type: tracepoint)\n", name);
		if (fields)
			print_fields(cli_record_get(m, rec, "fields"));
	}
	printf("\n");
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"userspace", no_argument, NULL, 'u'},     {"kernel", no_argument, NULL, 'k'},
	    {"syscall", no_argument, NULL, 'S'},       {"fields", no_argument, NULL, 'f'},
	    {"channel", required_argument, NULL, 'c'}, {"domain", no_argument, NULL, 'd'},
	    {"help", no_argument, NULL, 'h'},	       {NULL, 0, NULL, 0},
	};
	const char *session = NULL, *channel = NULL;
	bool userspace = false, kernel = false, syscalls = false, fields = false, domains = false;
	struct trax_msg req, reply;
	int c, rc;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ukfc:dh", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
			userspace = true;
			break;
		case 'k':
			kernel = true;
			break;
		case 'S':
			syscalls = true;
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
	if (kernel && userspace)
		return cli_usage_error("Only one domain can be specified");
	if (syscalls && (!kernel || session))
		return cli_usage_error(
		    "--syscall needs -k and no session (see 'trax list --help')");

	trax_msg_init(&req, TRAX_MSG_LIST);
	if (session) {
		trax_msg_add(&req, "name", "%s", session);
	} else if (userspace) {
		trax_msg_add(&req, "domain", "ust");
	} else if (kernel) {
		trax_msg_add(&req, "domain", "kernel");
		if (syscalls)
			trax_msg_add(&req, "syscall", "1");
	}
	rc = cli_request(&req, &reply, 0);
	if (rc == CLI_OK) {
		if (session)
			rc = print_session(&reply, channel, domains, kernel, userspace);
		else if (userspace)
			print_tracepoints(&reply, fields);
		else if (kernel)
			print_kernel_events(&reply, syscalls, fields);
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
		rc = print_session(&reply, NULL, false, false, false);
	trax_msg_free(&req);
	trax_msg_free(&reply);
	return rc;
}
