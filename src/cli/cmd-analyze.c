/*
 * cmd-analyze.c - `trax analyze NAME [OPTIONS] PATH...`: the analyses of
 * src/analysis (analysis.h) on the traces under the paths (or the current
 * session's trace), with lttng-analyses' options.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cli/cli.h"
#include "cli/client.h"

void usage_analyze(FILE *f)
{
	fputs("Usage: trax analyze NAME [OPTIONS] [PATH...]\n"
	      "       trax analyze --list\n"
	      "Answer a question about the CTF traces found under each PATH (without PATH,\n"
	      "the current session's trace), reading them once, as lttng-analyses'\n"
	      "commands of the same name do (their numbers, text and JSON).\n"
	      "\n"
	      "Analyses:\n",
	      f);
	an_list(f);
	fputs("\n"
	      "Options:\n"
	      "  --begin=T             start at the first event at or after T\n"
	      "  --end=T               stop at the last event at or before T\n"
	      "                        T: YYYY-MM-DD hh:mm:ss[.nnnnnnnnn], hh:mm:ss[.nnnnnnnnn]\n"
	      "                        (on the trace's day) or nanoseconds since the Epoch\n"
	      "  --gmt                 times in UTC rather than local time (given and printed)\n"
	      "  --tid=LIST            only these threads (comma-separated tids)\n"
	      "  --pid=LIST            only the threads of these processes\n"
	      "  --procname=LIST       only the threads of these names\n"
	      "  --cpu=LIST            only these CPUs\n"
	      "  --limit=N             rows of the top tables (default 10; 0: all)\n"
	      "  --top[=N]             syscallstats: also the N (default 10) slowest calls\n"
	      "  --no-intersection     also the events outside the time range all the\n"
	      "                        streams of a trace cover (by default, as Babeltrace 1,\n"
	      "                        only those inside)\n"
	      "  --format=FORMAT       text (default) or json (lttng-analyses' MI document)\n"
	      "  --html=FILE           syscallstats, iolatency, schedlatency, spans: also\n"
	      "                        write FILE, a self-contained HTML page of their\n"
	      "                        histograms (as --freq's) and summary tables\n"
	      "flow:\n"
	      "  --group               the intervals per thread, sorted (kept until the end,\n"
	      "                        in bounded memory: TRAX_ANALYZE_MEM; without it each\n"
	      "                        prints as it closes)\n"
	      "spans:\n"
	      "  --begin-event=NAME    the event that begins a span (e.g. prov:enter)\n"
	      "  --end-event=NAME      the event that ends it (e.g. prov:exit)\n"
	      "  --match=FIELD         pair them by this field's value (default: per thread,\n"
	      "                        from the vtid/tid context, else per stream)\n"
	      "  --top[=N]             list the N slowest spans (default 10; 0: none)\n"
	      "schedlatency, irqstats:\n"
	      "  --min=US, --max=US    only latencies (durations) of at least / at most US\n"
	      "                        microseconds\n"
	      "  --total, --per-tid, --per-prio\n"
	      "                        schedlatency's tables: over all wakeups, per thread\n"
	      "                        (the default), per priority\n"
	      "  --top=N, --log, --freq\n"
	      "                        schedlatency: the N longest latencies, every one, their\n"
	      "                        distributions (as lttng-schedtop --limit N, -schedlog,\n"
	      "                        -schedfreq); with them, --stats: also the statistics\n"
	      "                        iolatency: the slowest calls (--limit + 1 per kind), every\n"
	      "                        call, the histograms (lttng-iolatencytop, lttng-iolog,\n"
	      "                        -iolatencyfreq); --min/--max apply\n"
	      "                        irqstats: --freq, --log: the handlers' durations'\n"
	      "                        distributions, every handler run (lttng-irqfreq,\n"
	      "                        lttng-irqlog); with them, --stats: also the statistics\n"
	      "  --irq=LIST, --softirq=LIST\n"
	      "                        irqstats: only these hard IRQ numbers / soft IRQ\n"
	      "                        vectors (one option alone: only that kind)\n"
	      "  --list                list the analyses\n"
	      "  -h, --help            print this help\n",
	      f);
}

/* "1,2,3" into l: 0, or CLI_USAGE. */
static int parse_ints(const char *opt, const char *s, struct an_int_list *l)
{
	const char *p = s;

	free(l->v);
	l->v = NULL;
	l->n = 0;
	for (;;) {
		char *end;
		long long v;
		int64_t *nv;

		errno = 0;
		v = strtoll(p, &end, 10);
		if (end == p || errno || (*end && *end != ','))
			return cli_usage_error(
			    "Wrong value in --%s parameter: %s (a list of numbers)", opt, s);
		nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
		if (!nv)
			return cli_error("out of memory");
		l->v = nv;
		l->v[l->n++] = v;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

static int parse_names(const char *s, struct an_options *o)
{
	char *copy = strdup(s), *save = NULL;

	if (!copy)
		return cli_error("out of memory");
	free(o->procnames);
	o->procnames = NULL;
	o->nprocnames = 0;
	/* (the strings point into copy, kept until exit) */
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char **v = realloc(o->procnames, (o->nprocnames + 1) * sizeof(*v));

		if (!v)
			return cli_error("out of memory");
		o->procnames = v;
		o->procnames[o->nprocnames++] = t;
	}
	return 0;
}

/* the long options without a short letter */
enum {
	OPT_MIN = 256,
	OPT_MAX,
	OPT_TOTAL,
	OPT_PER_TID,
	OPT_PER_PRIO,
	OPT_STATS,
	OPT_LOG,
	OPT_FREQ,
	OPT_IRQ,
	OPT_SOFTIRQ,
	OPT_HTML,
};

int cmd_analyze(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"begin", required_argument, NULL, 'b'},
	    {"end", required_argument, NULL, 'e'},
	    {"gmt", no_argument, NULL, 'g'},
	    {"tid", required_argument, NULL, 't'},
	    {"pid", required_argument, NULL, 'p'},
	    {"procname", required_argument, NULL, 'n'},
	    {"cpu", required_argument, NULL, 'c'},
	    {"limit", required_argument, NULL, 'l'},
	    {"no-intersection", no_argument, NULL, 'I'},
	    {"format", required_argument, NULL, 'F'},
	    {"group", no_argument, NULL, 'G'},
	    {"begin-event", required_argument, NULL, 'B'},
	    {"end-event", required_argument, NULL, 'E'},
	    {"match", required_argument, NULL, 'M'},
	    {"top", optional_argument, NULL, 'T'},
	    {"min", required_argument, NULL, OPT_MIN},
	    {"max", required_argument, NULL, OPT_MAX},
	    {"total", no_argument, NULL, OPT_TOTAL},
	    {"per-tid", no_argument, NULL, OPT_PER_TID},
	    {"per-prio", no_argument, NULL, OPT_PER_PRIO},
	    {"stats", no_argument, NULL, OPT_STATS},
	    {"log", no_argument, NULL, OPT_LOG},
	    {"freq", no_argument, NULL, OPT_FREQ},
	    {"irq", required_argument, NULL, OPT_IRQ},
	    {"softirq", required_argument, NULL, OPT_SOFTIRQ},
	    {"html", required_argument, NULL, OPT_HTML},
	    {"list", no_argument, NULL, 'L'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct an_options o;
	const char *name = NULL;
	char err[2048], *current = NULL;
	const char *one[1];
	int c, rc;

	an_options_init(&o);
	optind = 0;
	opterr = 0;
	/* '+'-less: options may follow NAME and the paths (GNU getopt permutes) */
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o.begin = optarg;
			break;
		case 'e':
			o.end = optarg;
			break;
		case 'g':
			o.gmt = 1;
			break;
		case 't':
		case 'p':
		case 'c':
			if ((rc = parse_ints(c == 't'	? "tid"
					     : c == 'p' ? "pid"
							: "cpu",
					     optarg,
					     c == 't'	? &o.tids
					     : c == 'p' ? &o.pids
							: &o.cpus)))
				return rc;
			break;
		case 'n':
			if ((rc = parse_names(optarg, &o)))
				return rc;
			break;
		case 'l': {
			char *end;

			errno = 0;
			o.limit = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno)
				return cli_usage_error("Wrong value in --limit parameter: %s",
						       optarg);
			break;
		}
		case 'I':
			o.intersect = 0;
			break;
		case 'G':
			o.group = 1;
			break;
		case 'B':
			o.begin_event = optarg;
			break;
		case 'E':
			o.end_event = optarg;
			break;
		case 'M':
			o.match = optarg;
			break;
		case 'T': {
			char *end;

			o.top_list = 1;
			/* --top N as well as --top=N (without N: the default, 10) */
			if (!optarg && optind < argc && argv[optind][0] &&
			    strspn(argv[optind], "0123456789") == strlen(argv[optind]))
				optarg = argv[optind++];
			if (!optarg)
				break;
			errno = 0;
			o.top = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno || o.top < 0)
				return cli_usage_error("Wrong value in --top parameter: %s",
						       optarg);
			break;
		}
		case OPT_MIN:
		case OPT_MAX: {
			char *end;
			double v;

			errno = 0;
			v = strtod(optarg, &end);
			if (end == optarg || *end || errno)
				return cli_usage_error("Wrong value in --%s parameter: %s "
						       "(microseconds)",
						       c == OPT_MIN ? "min" : "max", optarg);
			if (c == OPT_MIN)
				o.has_min = 1, o.min_us = v;
			else
				o.has_max = 1, o.max_us = v;
			break;
		}
		case OPT_TOTAL:
			o.total = 1;
			break;
		case OPT_PER_TID:
			o.per_tid = 1;
			break;
		case OPT_PER_PRIO:
			o.per_prio = 1;
			break;
		case OPT_STATS:
			o.stats = 1;
			break;
		case OPT_LOG:
			o.log = 1;
			break;
		case OPT_FREQ:
			o.freq = 1;
			break;
		case OPT_IRQ:
		case OPT_SOFTIRQ:
			if ((rc = parse_ints(c == OPT_IRQ ? "irq" : "softirq", optarg,
					     c == OPT_IRQ ? &o.irqs : &o.softirqs)))
				return rc;
			if (c == OPT_IRQ)
				o.has_irqs = 1;
			else
				o.has_softirqs = 1;
			break;
		case OPT_HTML:
			if (!*optarg)
				return cli_usage_error("Wrong value in --html parameter: an empty "
						       "file name");
			o.html = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return cli_usage_error("Wrong value in --format parameter: %s "
						       "(text or json)",
						       optarg);
			o.json = !strcmp(optarg, "json");
			break;
		case 'L':
			an_list(stdout);
			return CLI_OK;
		case 'h':
			usage_analyze(stdout);
			return CLI_OK;
		default:
			return cli_option_error("analyze", c, argv);
		}
	}
	if (optind >= argc)
		return cli_usage_error("Missing analysis name (see 'trax analyze --list')");
	name = argv[optind++];
	if (!an_exists(name))
		return cli_usage_error("Unknown analysis '%s' (see 'trax analyze --list')", name);
	if (optind < argc) {
		rc = an_run(name, &o, (const char *const *)argv + optind, (size_t)(argc - optind),
			    stdout, err, sizeof(err));
	} else {
		char why[1280];

		if (!(current = cli_current_output(why, sizeof(why))))
			return cli_usage_error("%s", why);
		one[0] = current;
		rc = an_run(name, &o, one, 1, stdout, err, sizeof(err));
		free(current);
	}
	fflush(stdout);
	free(o.tids.v);
	free(o.pids.v);
	free(o.cpus.v);
	free(o.irqs.v);
	free(o.softirqs.v);
	if (rc == 0)
		return CLI_OK;
	/* scripts of lttng-analyses' MI commands read errors from the document */
	if (o.json)
		an_print_json_error(stdout, err);
	fflush(stdout);
	fprintf(stderr, "Error: %s\n", err);
	return rc == 2 ? CLI_USAGE : CLI_FAIL;
}
