/*
 * view.c - `trax view [OPTIONS] PATH...`: every event of the CTF traces
 * found under the paths, merged in time order, printed as Babeltrace 2's
 * sink.text.pretty does by default (docs/text-format.md).
 *
 * A client of the installed reader library (trax/reader.h) and nothing
 * else of it: this file parses the options and hands the traces to
 * trax_reader_print() or trax_reader_count(), which read on two threads.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "cli/view.h"
#include "cli/cli.h"
#include "cli/client.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "legacy/legacy.h"
#include "trax/reader.h"

static void usage_to(FILE *f)
{
	fputs("Usage: trax view [OPTIONS] [PATH...]\n"
	      "Print the events of the CTF traces found under each PATH, in time order,\n"
	      "as babeltrace2 does by default. Without PATH, the trace of the current\n"
	      "session (its output directory, or its newest snapshot).\n"
	      "\n"
	      "Options:\n"
	      "  --clock-cycles        print time stamps in clock cycles\n"
	      "  --clock-date          print the date with the time stamps\n"
	      "  --clock-gmt           print time stamps in UTC instead of local time\n"
	      "  --clock-seconds       print time stamps as seconds since the Epoch\n"
	      "  --no-delta            do not print the time since the previous event\n"
	      "  --names=LIST          field names to print: payload, context, scope, header,\n"
	      "                        all, none (default: payload,context)\n"
	      "  --fields=LIST         header items to print: trace, trace:hostname,\n"
	      "                        trace:domain, trace:procname, trace:vpid, loglevel,\n"
	      "                        emf, callsite, all\n"
	      "                        (default: trace:hostname,trace:procname,trace:vpid)\n"
	      "  --format=FORMAT       output format: text (default, as babeltrace2) or json\n"
	      "                        (one JSON object per event and line: timestamp in ns\n"
	      "                        from the origin or null, name, stream_id, fields,\n"
	      "                        context, packet_context)\n"
	      "  --count               decode every event, print only \"N events\"\n"
	      "  -h, --help            print this help\n",
	      f);
}

void trax_view_usage(void *stream)
{
	usage_to(stream);
}

static int fatal(const char *msg)
{
	fflush(stdout);
	fprintf(stderr, "trax view: %s\n", msg);
	return CLI_FAIL;
}

/* A --names or --fields LIST: 0, or CLI_USAGE naming its unknown item. */
static int check_list(bool names, const char *list)
{
	char bad[128];

	if (!trax_print_check_list(names, list, bad, sizeof(bad)))
		return 0;
	return cli_usage_error("Wrong value in --%s parameter: %s (unknown item '%s')",
			       names ? "names" : "fields", list, bad);
}

/*
 * The reader's tuning, for the tests only (man/trax.1, ENVIRONMENT):
 * TRAX_VIEW_THREADS=1 reads on one thread, TRAX_VIEW_CHUNK=N has each of
 * the two threads format chunks of N events, TRAX_READ_WINDOW=BYTES reads
 * the stream files BYTES at a time (0: through the mapping),
 * TRAX_NO_JIT=1 decodes with the interpreter.
 */
static void tuning_from_env(struct trax_reader_options *ro, struct trax_print_options *po)
{
	const char *e;

	if ((e = getenv("TRAX_VIEW_THREADS")) && !strcmp(e, "1"))
		ro->threads = 1;
	if ((e = getenv("TRAX_VIEW_CHUNK")) && atoi(e) > 0)
		po->chunk_events = (size_t)atoi(e);
	if ((e = getenv("TRAX_READ_WINDOW")) && *e)
		ro->read_window =
		    strtoull(e, NULL, 10) ? strtoull(e, NULL, 10) : TRAX_READ_WINDOW_NONE;
	if ((e = getenv("TRAX_NO_JIT")) && *e && strcmp(e, "0"))
		ro->jit = 0;
}

/* Reads the traces under paths and prints them (or their count): the exit status. */
static int view(const char *const *paths, size_t npaths, bool count,
		const struct trax_reader_options *ro, const struct trax_print_options *po)
{
	struct trax_reader *r;
	uint64_t n;
	int st;

	/*
	 * A legacy trace is read from a private converted copy, which the
	 * reader removes when closed: a reader of the output that goes away
	 * (| head) must end this with EPIPE, not kill it, or the copy stays.
	 */
	for (size_t i = 0; i < npaths; i++)
		if (ltt_probe_dir(paths[i]) != LTT_FORMAT_NONE)
			signal(SIGPIPE, SIG_IGN);
	r = trax_reader_open_with(paths, npaths, ro);
	if (!r)
		return fatal(trax_reader_error(NULL));
	if (count) {
		st = trax_reader_count(r, &n);
		if (!st)
			printf("%llu events\n", (unsigned long long)n);
	} else {
		st = trax_reader_print(r, STDOUT_FILENO, po);
	}
	if (st == -1) {
		st = fatal(trax_reader_error(r));
	} else if (st == -2 && errno != EPIPE) {
		fprintf(stderr, "trax view: standard output: %s\n", strerror(errno));
		st = CLI_FAIL;
	} else if (count && (fflush(stdout) || ferror(stdout)) && errno != EPIPE) {
		fprintf(stderr, "trax view: standard output: %s\n", strerror(errno));
		st = CLI_FAIL;
	} else {
		st = CLI_OK;
	}
	trax_reader_close(r);
	return st;
}

int trax_view_main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"clock-cycles", no_argument, NULL, 'C'},
	    {"clock-date", no_argument, NULL, 'D'},
	    {"clock-gmt", no_argument, NULL, 'G'},
	    {"clock-seconds", no_argument, NULL, 'S'},
	    {"no-delta", no_argument, NULL, 'd'},
	    {"names", required_argument, NULL, 'n'},
	    {"fields", required_argument, NULL, 'f'},
	    {"format", required_argument, NULL, 'F'},
	    {"count", no_argument, NULL, 'c'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct trax_reader_options ro;
	struct trax_print_options po;
	bool count = false;
	char *current = NULL;
	const char *one[1];
	int c, rc;

	trax_reader_options_init(&ro);
	ro.trace_order = TRAX_TRACE_ORDER_BY_NAME; /* as babeltrace2 */
	trax_print_options_init(&po);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":n:f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'C':
			po.clock_cycles = 1;
			break;
		case 'D':
			po.clock_date = 1;
			break;
		case 'G':
			po.clock_gmt = 1;
			break;
		case 'S':
			po.clock_seconds = 1;
			break;
		case 'd':
			po.no_delta = 1;
			break;
		case 'n':
		case 'f':
			if ((rc = check_list(c == 'n', optarg)))
				return rc;
			*(c == 'n' ? &po.names : &po.fields) = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return cli_usage_error("Wrong value in --format parameter: %s "
						       "(text or json)",
						       optarg);
			po.format = strcmp(optarg, "json") ? TRAX_PRINT_TEXT : TRAX_PRINT_JSON;
			break;
		case 'c':
			count = true;
			break;
		case 'h':
			usage_to(stdout);
			return CLI_OK;
		default:
			return cli_option_error("view", c, argv);
		}
	}
	tuning_from_env(&ro, &po);
	if (optind < argc)
		return view((const char *const *)argv + optind, (size_t)(argc - optind), count, &ro,
			    &po);
	/* the current session's trace (trax list SESSION: its output) */
	char why[1280];

	if (!(current = cli_current_output(why, sizeof(why))))
		return cli_usage_error("%s", why);
	one[0] = current;
	rc = view(one, 1, count, &ro, &po);
	free(current);
	return rc;
}
