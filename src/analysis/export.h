/*
 * export.h - `trax export`: a trace rewritten for other tools' viewers,
 * streaming (one pass, memory bounded by the threads and CPUs the trace
 * knows, not by its events). The format: Chrome's Trace Event format
 * (JSON), which Perfetto's UI and chrome://tracing open
 * (docs/analyses.md, "trax export").
 */
#ifndef TRAX_ANALYSIS_EXPORT_H
#define TRAX_ANALYSIS_EXPORT_H

#include <stddef.h>
#include <stdio.h>

struct ex_options {
	/*
	 * ts: microseconds since the clock's origin (the Unix epoch for LTTng)
	 * rather than since the first event (a double cannot hold those to the
	 * nanosecond: viewers round them).
	 */
	int absolute;
	/* --span BEGIN,END: event name pairs whose matches on a thread are slices */
	const char *const *spans;
	size_t nspans;
	/* --counter NAME.FIELD: the numeric field of events NAME as a counter track */
	const char *const *counters;
	size_t ncounters;
};

void ex_options_init(struct ex_options *o);

/*
 * Writes the traces under paths to out in Chrome's Trace Event format.
 * Returns AN_OK, or AN_FAIL / AN_USAGE (analysis.h) with a one-line message
 * in err (a bad --span or --counter: AN_USAGE).
 */
int ex_chrome(const struct ex_options *o, const char *const *paths, size_t npaths, FILE *out,
	      char *err, size_t errlen);

#endif /* TRAX_ANALYSIS_EXPORT_H */
