/*
 * an-impl.h - what the analyses share with their driver (an-run.c): the
 * run's context (reader, event classes, system state, time range) and the
 * description of an analysis.
 */
#ifndef TRAX_ANALYSIS_AN_IMPL_H
#define TRAX_ANALYSIS_AN_IMPL_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "analysis/html-hist.h"
#include "analysis/kev.h"
#include "analysis/kstate.h"
#include "analysis/range.h"
#include "trax/reader.h"

struct an_def;

struct an_run {
	const struct an_options *o;
	const struct an_def *def;
	void *an; /* the analysis's own state */
	struct trax_reader *r;
	struct kev_table kev;
	struct kstate st;
	struct an_bounds bounds;
	int has_begin, has_end;
	int64_t begin, end; /* --begin, --end */
	int clip;	    /* the stream intersection applies (bounds.traces) */
	/* lttng-analyses' period: from the first event at or after --begin to the last one used */
	int started;
	int64_t period_begin;
	int any;	 /* an event was used */
	int64_t last_ts; /* the last one's time */
	uint64_t events; /* events read in the range */
	FILE *out;
	const void *extra; /* what a command other than `analyze` gives its analysis (timeline) */
	char *err;
	size_t errlen;
};

struct an_def {
	const char *name;
	const char *summary;
	/* kinds of events the analysis cannot do without (bits 1 << enum kev_kind), 0: none */
	uint32_t needs;
	const char *needs_names; /* their names, for the error */
	const char *record_hint; /* the trax commands that record them */
	const struct kstate_hooks *hooks;
	/* its state, allocated and freed by the analysis */
	void *(*create)(struct an_run *run);
	void (*destroy)(void *an);
	/* every event of the period, before the system state sees it (NULL: none) */
	int (*event)(void *an, const struct trax_event *ev, const struct kev_class *c, int64_t ts);
	/*
	 * every event of the trace (before the period too), after the system
	 * state saw it: for the state an analysis keeps beside kstate (ksys.h).
	 * 0, or -1 when memory ran out. NULL: none.
	 */
	int (*state_event)(void *an, const struct trax_event *ev, const struct kev_class *c,
			   int64_t ts);
	/* event also gets the events before the period (run->started 0), as the state does */
	int before;
	/* prints the results: AN_OK, or AN_FAIL with run->err set */
	int (*report)(void *an);
	/* --html: after report, gives the page its histograms and tables: 0, -1 (memory). NULL:
	 * the analysis has none (--html refused) */
	int (*html)(void *an, struct an_html *page);
};

extern const struct an_def an_cputop_def;
extern const struct an_def an_stats_def;
extern const struct an_def an_syscallstats_def;
extern const struct an_def an_iolatency_def;
extern const struct an_def an_flow_def;
extern const struct an_def an_spans_def;
extern const struct an_def an_schedlat_def;
extern const struct an_def an_irqstats_def;

/* Runs the analysis def (an_run() by name), extra in run->extra. */
int an_run_def(const struct an_def *def, const void *extra, const struct an_options *o,
	       const char *const *paths, size_t npaths, FILE *out, char *err, size_t errlen);

/* --tid, --pid, --procname: whether thread t is one of those asked for (all without them). */
int an_thread_passes(const struct an_run *run, const struct kthread *t);
/* The same test on a thread's ids and name (pid -1: unknown). */
int an_ids_pass(const struct an_run *run, int64_t tid, int64_t pid, const char *comm);
/* --cpu */
int an_cpu_passes(const struct an_run *run, int64_t cpu);
/* Prints "Timerange: [begin, end]" as lttng-analyses' text commands. */
void an_print_timerange(const struct an_run *run, int64_t begin, int64_t end);
/* Does the traces' range span several days (times then print with their date)? */
int an_multi_day(const struct an_run *run);
/*
 * v, an array of *cap elements of size bytes, grown (doubling, from 16) to
 * hold need, the new elements zeroed: the new array (*cap updated), or NULL
 * with *failed set (v is then still valid, *cap unchanged).
 */
void *an_grow(void *v, size_t *cap, size_t need, size_t size, int *failed);

#endif /* TRAX_ANALYSIS_AN_IMPL_H */
