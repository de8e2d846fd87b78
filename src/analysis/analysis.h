/*
 * analysis.h - `trax analyze`: answers computed from a trace in one
 * streaming pass, as lttng-analyses computes them (cputop,
 * docs/analyses-reference.md) or as LTTV's statistics view did (stats).
 * The entry point the command line calls; the analyses are clients of
 * the public reader API (trax/reader.h).
 */
#ifndef TRAX_ANALYSIS_ANALYSIS_H
#define TRAX_ANALYSIS_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses of an_run(), as the `trax` command's. */
#define AN_OK	 0
#define AN_FAIL	 1 /* the traces could not be read, or lack the events needed */
#define AN_USAGE 2 /* a bad option value (a time that does not parse) */

/* A list given to --tid, --pid or --cpu. */
struct an_int_list {
	int64_t *v;
	size_t n;
};

struct an_options {
	const char *begin, *end; /* --begin, --end as given (NULL: none; range.h's forms) */
	int gmt;		 /* times in UTC rather than local time */
	int intersect;		 /* 1 (default): only the time range all streams cover */
	int json;		 /* lttng-analyses' MI document rather than text */
	long limit;		 /* --limit: rows of the top tables (<= 0: all) */
	struct an_int_list tids, pids, cpus;
	char **procnames; /* --procname */
	size_t nprocnames;
	/* flow */
	int group; /* --group: the intervals grouped per thread (kept in a spool) */
	/* spans */
	const char *begin_event, *end_event; /* --begin-event, --end-event: full names */
	const char *match; /* --match FIELD: pairs by its value (NULL: per thread) */
	long top;	   /* --top: the slowest spans listed (default 10) */
	/* --min, --max: only durations (latencies) in [min, max] microseconds */
	int has_min, has_max;
	double min_us, max_us;
	/* schedlatency's tables: --total, --per-tid, --per-prio (none given: per-TID) */
	int total, per_tid, per_prio;
	/* schedlatency's lists: --top given (the top rows), --log, --freq; --stats: also the stats
	 */
	int top_list, log, freq, stats;
	/* irqstats: --irq, --softirq (only those numbers; one given alone: only that kind) */
	int has_irqs, has_softirqs;
	struct an_int_list irqs, softirqs;
	/* --html FILE: also a page of the histograms (html-hist.h; NULL: none) */
	const char *html;
};

/* Fills o with the defaults (intersection on, text, limit 10, top 10). */
void an_options_init(struct an_options *o);

/* 1 when name is an analysis trax has. */
int an_exists(const char *name);
/* Prints the analyses, one per line: name and what it answers. */
void an_list(FILE *f);

/*
 * Runs analysis name on the traces under paths, printing to out. Returns
 * AN_OK, or AN_FAIL / AN_USAGE with a one-line message (without
 * "Error: ") in err.
 */
int an_run(const char *name, const struct an_options *o, const char *const *paths, size_t npaths,
	   FILE *out, char *err, size_t errlen);

/*
 * Prints an error as lttng-analyses' MI commands do, on one line:
 * {"error-message": "Error: MSG"}.
 */
void an_print_json_error(FILE *f, const char *msg);

#endif /* TRAX_ANALYSIS_ANALYSIS_H */
