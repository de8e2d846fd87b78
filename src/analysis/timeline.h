/*
 * timeline.h - `trax timeline`: one self-contained HTML page drawing a
 * trace as LTTV's control-flow and resource views did (a row per CPU and
 * per thread, coloured by state), user-space events as marks, spans
 * between pairs of events, and the `stats` tables. The rows' intervals are
 * computed here, in C, at several resolutions, so that the page draws a
 * million-event trace without work proportional to the trace.
 */
#ifndef TRAX_ANALYSIS_TIMELINE_H
#define TRAX_ANALYSIS_TIMELINE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"

/* A pair of event names whose events, matched per thread, make a span. */
struct an_span_pair {
	const char *begin, *end;
};

struct an_timeline_options {
	const struct an_span_pair *spans; /* --span BEGIN,END */
	size_t nspans;
	const char *title; /* the page's title (NULL: the first path) */
	/*
	 * the rows' state changes kept, and marks (memory and the page's size
	 * grow with them): beyond, the finest detail is merged (the page says
	 * how much); 0: TL_MAX_CHANGES
	 */
	size_t max_changes;
};

#define TL_MAX_CHANGES 1000000

/*
 * Writes the page for the traces under paths to out. o: the time range
 * and intersection options of `trax analyze` (the filters and --limit
 * apply to the stats tables only). Returns AN_OK, or AN_FAIL / AN_USAGE
 * with a message in err.
 */
int an_timeline(const struct an_options *o, const struct an_timeline_options *to,
		const char *const *paths, size_t npaths, FILE *out, char *err, size_t errlen);

#endif /* TRAX_ANALYSIS_TIMELINE_H */
