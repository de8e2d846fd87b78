/*
 * cmd-timeline.c - `trax timeline [OPTIONS] PATH... -o FILE.html`: the
 * traces as one self-contained HTML page (src/analysis/timeline.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timeline.h"
#include "cli/cli.h"
#include "cli/client.h"

void usage_timeline(FILE *f)
{
	fputs("Usage: trax timeline [OPTIONS] [PATH...] -o FILE.html\n"
	      "Draw the CTF traces found under each PATH (without PATH, the current\n"
	      "session's trace) as one self-contained HTML page, for any browser, no\n"
	      "network: a row per CPU and per thread coloured by state as LTTV's\n"
	      "control-flow view did (user mode, system call, IRQ, softirq, waiting for a\n"
	      "CPU, blocked, ...), user-space events as marks, spans between pairs of\n"
	      "events; zoom and pan with the mouse, details on hover; the stats tables.\n"
	      "\n"
	      "Options:\n"
	      "  -o, --output=FILE     the page to write ('-': standard output)\n"
	      "  --span=BEGIN,END      events named BEGIN and END, matched per thread\n"
	      "                        (nested), drawn as spans (repeatable)\n"
	      "  --title=TEXT          the page's title (default: the first PATH)\n"
	      "  --begin=T, --end=T    the time range (as trax analyze)\n"
	      "  --gmt                 times in UTC in the stats tables\n"
	      "  --tid/--pid/--procname=LIST, --cpu=LIST\n"
	      "                        only these threads' and CPUs' rows\n"
	      "  --limit=N             rows of the stats tables' top lists (default 20)\n"
	      "  --no-intersection     also the events outside the time range all the\n"
	      "                        streams of a trace cover\n"
	      "  --max-changes=N       the rows' state changes kept (default 1000000),\n"
	      "                        and marks: beyond, what lasts less than a width\n"
	      "                        is merged into the state covering most of it,\n"
	      "                        marks closer are one (the page says so); memory\n"
	      "                        and the page's size stay bounded\n"
	      "  -h, --help            print this help\n",
	      f);
}

static int parse_ints(const char *opt, const char *s, struct an_int_list *l)
{
	const char *p = s;

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

static int add_span(const char *s, struct an_span_pair **v, size_t *n)
{
	const char *comma = strchr(s, ',');
	struct an_span_pair *nv;

	if (!comma || comma == s || !comma[1] || strchr(comma + 1, ','))
		return cli_usage_error("Wrong value in --span parameter: %s (BEGIN,END)", s);
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return cli_error("out of memory");
	*v = nv;
	/* (freed by cmd_timeline) */
	nv[*n].begin = strndup(s, (size_t)(comma - s));
	nv[*n].end = comma + 1;
	if (!nv[*n].begin)
		return cli_error("out of memory");
	(*n)++;
	return 0;
}

/* What the options allocate, freed whatever the outcome. */
struct timeline_args {
	struct an_options o;
	struct an_timeline_options to;
	struct an_span_pair *spans;
	char **copies; /* --procname's strings */
	size_t ncopies;
};

static int timeline(int argc, char **argv, struct timeline_args *a);

int cmd_timeline(int argc, char **argv)
{
	struct timeline_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	an_options_init(&a.o);
	rc = timeline(argc, argv, &a);
	for (size_t i = 0; i < a.to.nspans; i++)
		free((char *)a.spans[i].begin);
	free(a.spans);
	for (size_t i = 0; i < a.ncopies; i++)
		free(a.copies[i]);
	free(a.copies);
	free(a.o.tids.v);
	free(a.o.pids.v);
	free(a.o.cpus.v);
	free(a.o.procnames);
	return rc;
}

static int timeline(int argc, char **argv, struct timeline_args *a)
{
	static const struct option opts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"span", required_argument, NULL, 's'},
	    {"title", required_argument, NULL, 'T'},
	    {"begin", required_argument, NULL, 'b'},
	    {"end", required_argument, NULL, 'e'},
	    {"gmt", no_argument, NULL, 'g'},
	    {"tid", required_argument, NULL, 't'},
	    {"pid", required_argument, NULL, 'p'},
	    {"procname", required_argument, NULL, 'n'},
	    {"cpu", required_argument, NULL, 'c'},
	    {"limit", required_argument, NULL, 'l'},
	    {"no-intersection", no_argument, NULL, 'I'},
	    {"max-changes", required_argument, NULL, 'M'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct an_options *o = &a->o;
	const char *output = NULL;
	char err[2048], *current = NULL;
	const char *one[1];
	FILE *f;
	int c, rc;

	o->limit = 20;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 's':
			if ((rc = add_span(optarg, &a->spans, &a->to.nspans)))
				return rc;
			break;
		case 'T':
			a->to.title = optarg;
			break;
		case 'b':
			o->begin = optarg;
			break;
		case 'e':
			o->end = optarg;
			break;
		case 'g':
			o->gmt = 1;
			break;
		case 't':
		case 'p':
		case 'c':
			if ((rc = parse_ints(c == 't'	? "tid"
					     : c == 'p' ? "pid"
							: "cpu",
					     optarg,
					     c == 't'	? &o->tids
					     : c == 'p' ? &o->pids
							: &o->cpus)))
				return rc;
			break;
		case 'n': {
			char *copy = strdup(optarg), *save = NULL;
			char **cv =
			    copy ? realloc(a->copies, (a->ncopies + 1) * sizeof(*cv)) : NULL;

			if (!cv) {
				free(copy);
				return cli_error("out of memory");
			}
			a->copies = cv;
			a->copies[a->ncopies++] = copy;
			for (char *t = strtok_r(copy, ",", &save); t;
			     t = strtok_r(NULL, ",", &save)) {
				char **v = realloc(o->procnames, (o->nprocnames + 1) * sizeof(*v));

				if (!v)
					return cli_error("out of memory");
				o->procnames = v;
				o->procnames[o->nprocnames++] = t;
			}
			break;
		}
		case 'l': {
			char *end;

			errno = 0;
			o->limit = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno)
				return cli_usage_error("Wrong value in --limit parameter: %s",
						       optarg);
			break;
		}
		case 'I':
			o->intersect = 0;
			break;
		case 'M': {
			char *end;
			long long v;

			errno = 0;
			v = strtoll(optarg, &end, 10);
			if (end == optarg || *end || errno || v < 2)
				return cli_usage_error(
				    "Wrong value in --max-changes parameter: %s (2 or more)",
				    optarg);
			a->to.max_changes = (size_t)v;
			break;
		}
		case 'h':
			usage_timeline(stdout);
			return CLI_OK;
		default:
			return cli_option_error("timeline", c, argv);
		}
	}
	if (!output)
		return cli_usage_error("Missing the page to write (-o FILE.html)");
	a->to.spans = a->spans;
	f = strcmp(output, "-") ? fopen(output, "w") : stdout;
	if (!f)
		return cli_error("%s: %s", output, strerror(errno));
	if (optind < argc) {
		rc = an_timeline(o, &a->to, (const char *const *)argv + optind,
				 (size_t)(argc - optind), f, err, sizeof(err));
	} else {
		char why[1280];

		if (!(current = cli_current_output(why, sizeof(why)))) {
			if (f != stdout) {
				fclose(f);
				remove(output);
			}
			return cli_usage_error("%s", why);
		}
		one[0] = current;
		rc = an_timeline(o, &a->to, one, 1, f, err, sizeof(err));
		free(current);
	}
	if (f != stdout) {
		if (fclose(f) && rc == 0) {
			snprintf(err, sizeof(err), "%s: %s", output, strerror(errno));
			rc = AN_FAIL;
		}
		if (rc)
			remove(output);
	} else if (fflush(f) && rc == 0) {
		snprintf(err, sizeof(err), "standard output: %s", strerror(errno));
		rc = AN_FAIL;
	}
	if (rc == 0)
		return CLI_OK;
	fprintf(stderr, "Error: %s\n", err);
	return rc == AN_USAGE ? CLI_USAGE : CLI_FAIL;
}
