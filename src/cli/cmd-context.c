/*
 * cmd-context.c - `trax add-context (-u | -k) -t TYPE...`: context fields
 * recorded with each event of the user-space or kernel domain.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "common/perf-counter.h"

/* The user-space context fields trax records (TRAX_CONTEXT names the same). */
static const char *const ust_types[] = {"vpid", "vtid", "procname", "pthread_id", "ip", NULL};
/* The kernel's (LTTng's names; src/kernel/ktrace.h, enum kctx). */
static const char *const kernel_types[] = {"pid",  "tid",  "ppid",   "vpid",	 "vtid", "procname",
					   "prio", "nice", "cpu_id", "hostname", NULL};

static bool known_type(const char *const *types, const char *name)
{
	for (const char *const *t = types; *t; t++)
		if (!strcmp(*t, name))
			return true;
	/* the kernel's per-CPU counters (whether this machine has one is traxd's to say) */
	return types == kernel_types && perf_counter_find(name) >= 0;
}

/* --list: the domain's context types; -k: and the perf:cpu: counters this machine has. */
static void list_types(bool kernel)
{
	for (const char *const *t = kernel ? kernel_types : ust_types; *t; t++)
		printf("%s\n", *t);
	for (unsigned int i = 0; kernel && i < perf_counter_count(); i++)
		if (perf_counter_available(perf_counter_at(i)))
			printf("%s\n", perf_counter_at(i)->name);
}

void usage_add_context(FILE *f)
{
	fputs("Usage: trax add-context (-u | -k) [-s SESSION] [-c CHANNEL] -t TYPE [-t TYPE]...\n"
	      "       trax add-context [-k] --list\n"
	      "Record context fields before the payload of every event of a channel (of\n"
	      "every channel of the session's domain without -c).\n"
	      "\n"
	      "Options:\n"
	      "  -u, --userspace         the user-space domain\n"
	      "  -k, --kernel            the kernel domain\n"
	      "  -t, --type=TYPE         the field (repeat for several); -u: vpid, vtid,\n"
	      "                          procname, pthread_id or ip; -k: pid, tid, ppid,\n"
	      "                          vpid, vtid, procname, prio, nice, cpu_id,\n"
	      "                          hostname or a per-CPU counter perf:cpu:NAME\n"
	      "                          (-k --list: those this machine has)\n"
	      "  -c, --channel=CHANNEL   only this channel\n"
	      "  -s, --session=SESSION   the session (default: the current one)\n"
	      "  -l, --list              list the context types (-k: the kernel's) and exit\n"
	      "  -h, --help              print this help\n",
	      f);
}

int cmd_add_context(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"userspace", no_argument, NULL, 'u'},     {"kernel", no_argument, NULL, 'k'},
	    {"type", required_argument, NULL, 't'},    {"channel", required_argument, NULL, 'c'},
	    {"session", required_argument, NULL, 's'}, {"list", no_argument, NULL, 'l'},
	    {"help", no_argument, NULL, 'h'},	       {NULL, 0, NULL, 0},
	};
	const char *session = NULL, *channel = NULL;
	const char **types;
	unsigned int ntypes = 0;
	bool userspace = false, kernel = false, list = false;
	struct trax_msg req, reply;
	int c, rc = CLI_OK;

	types = calloc((size_t)argc + 1, sizeof(*types));
	if (!types)
		return cli_error("out of memory");
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ukt:c:s:lh", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
			userspace = true;
			break;
		case 'k':
			kernel = true;
			break;
		case 't':
			/* checked once the domain is known */
			types[ntypes++] = optarg;
			break;
		case 'c':
			channel = optarg;
			break;
		case 's':
			session = optarg;
			break;
		case 'l':
			list = true;
			break;
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
	if (list) {
		list_types(kernel);
		goto out;
	}
	if ((rc = cli_check_domain(kernel, userspace)))
		goto out;
	for (unsigned int i = 0; i < ntypes; i++) {
		if (!known_type(kernel ? kernel_types : ust_types, types[i])) {
			rc = cli_usage_error("Unknown context type %s", types[i]);
			goto out;
		}
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
	if (kernel)
		trax_msg_add(&req, "domain", "kernel");
	if (channel)
		trax_msg_add(&req, "channel", "%s", channel);
	for (unsigned int i = 0; i < ntypes; i++)
		trax_msg_add(&req, "type", "%s", types[i]);
	rc = cli_request(&req, &reply, 0);
	for (unsigned int i = 0; rc == CLI_OK && i < ntypes; i++) {
		const char *dom = kernel ? "kernel" : "ust";

		if (channel)
			printf("%s context %s added to channel %s\n", dom, types[i], channel);
		else
			printf("%s context %s added to all channels\n", dom, types[i]);
	}
	trax_msg_free(&req);
	trax_msg_free(&reply);
out:
	free(types);
	return rc;
}
