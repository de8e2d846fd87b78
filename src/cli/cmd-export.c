/*
 * cmd-export.c - `trax export --format=chrome [OPTIONS] [-o FILE] PATH...`:
 * the traces under the paths (or the current session's trace) rewritten
 * for another tool (src/analysis/export.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/export.h"
#include "cli/cli.h"
#include "cli/client.h"

void usage_export(FILE *f)
{
	fputs("Usage: trax export --format=chrome [OPTIONS] [-o FILE] [PATH...]\n"
	      "Write the CTF traces found under each PATH (without PATH, the current\n"
	      "session's trace) in Chrome's Trace Event format (JSON), which Perfetto's UI\n"
	      "(ui.perfetto.dev) and chrome://tracing open, reading them once, streaming.\n"
	      "\n"
	      "What it holds: a track per thread (its system calls and --span pairs as\n"
	      "slices, its other events as instants with their fields), a track per CPU\n"
	      "(the threads that ran on it, from sched_switch), counter tracks (perf_*\n"
	      "contexts, --counter); threads and processes named. Times in microseconds\n"
	      "since the first event (otherData.time_origin_ns: its time).\n"
	      "\n"
	      "Options:\n"
	      "  --format=chrome       the output format (the only one)\n"
	      "  -o, --output=FILE     write to FILE (default, or '-': standard output)\n"
	      "  --span=BEGIN,END      events BEGIN and END (e.g. prov:enter,prov:exit) of\n"
	      "                        a thread as slices (repeatable)\n"
	      "  --counter=NAME.FIELD  the numeric FIELD of events NAME as a counter track\n"
	      "                        (repeatable)\n"
	      "  --absolute            times since the clock's origin (the Epoch), not the\n"
	      "                        first event (viewers round them: doubles)\n"
	      "  -h, --help            print this help\n",
	      f);
}

static int add(const char ***v, size_t *n, const char *s)
{
	const char **nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return cli_error("out of memory");
	nv[(*n)++] = s;
	*v = nv;
	return 0;
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"format", required_argument, NULL, 'F'},
	    {"output", required_argument, NULL, 'o'},
	    {"span", required_argument, NULL, 's'},
	    {"counter", required_argument, NULL, 'c'},
	    {"absolute", no_argument, NULL, 'a'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct ex_options o;
	const char **spans = NULL, **counters = NULL, *format = NULL, *output = NULL;
	char err[2048], *current = NULL;
	const char *one[1];
	FILE *f = stdout;
	int c, rc;

	ex_options_init(&o);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'F':
			format = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 's':
			if ((rc = add(&spans, &o.nspans, optarg)))
				return rc;
			break;
		case 'c':
			if ((rc = add(&counters, &o.ncounters, optarg)))
				return rc;
			break;
		case 'a':
			o.absolute = 1;
			break;
		case 'h':
			usage_export(stdout);
			return CLI_OK;
		default:
			return cli_option_error("export", c, argv);
		}
	}
	o.spans = spans;
	o.counters = counters;
	if (!format)
		return cli_usage_error("Missing --format (chrome)");
	if (strcmp(format, "chrome"))
		return cli_usage_error("Wrong value in --format parameter: %s (chrome)", format);
	if (output && strcmp(output, "-") && !(f = fopen(output, "w")))
		return cli_error("cannot create %s: %s", output, strerror(errno));
	if (optind < argc) {
		rc = ex_chrome(&o, (const char *const *)argv + optind, (size_t)(argc - optind), f,
			       err, sizeof(err));
	} else {
		char why[1280];

		if (!(current = cli_current_output(why, sizeof(why)))) {
			if (f != stdout)
				fclose(f);
			return cli_usage_error("%s", why);
		}
		one[0] = current;
		rc = ex_chrome(&o, one, 1, f, err, sizeof(err));
		free(current);
	}
	if (f != stdout && fclose(f) && rc == AN_OK) {
		snprintf(err, sizeof(err), "cannot write %s: %s", output, strerror(errno));
		rc = AN_FAIL;
	}
	free(spans);
	free(counters);
	if (rc == AN_OK)
		return CLI_OK;
	fprintf(stderr, "Error: %s\n", err);
	return rc == AN_USAGE ? CLI_USAGE : CLI_FAIL;
}
