/*
 * range.h - the time range of an analysis (docs/analyses-reference.md
 * sections 1.1, 1.2): --begin/--end in lttng-analyses' forms, and
 * Babeltrace 1's stream intersection.
 */
#ifndef TRAX_ANALYSIS_RANGE_H
#define TRAX_ANALYSIS_RANGE_H

#include <stddef.h>
#include <stdint.h>

#include "trax/reader.h"

/*
 * Parses a time as lttng-analyses does: "YYYY-MM-DD hh:mm:ss.nnnnnnnnn",
 * "YYYY-MM-DD hh:mm:ss" (a 'T' may separate date and time),
 * "hh:mm:ss.nnnnnnnnn", "hh:mm:ss" (on the day of day_ns; an error when
 * multi_day), or nanoseconds since the epoch; in local time, or UTC with
 * gmt. 0 with *ns, -1 with a message in err.
 */
int an_parse_time(const char *s, int gmt, int64_t day_ns, int multi_day, int64_t *ns, char *err,
		  size_t errlen);

/* A trace's part of the stream intersection. */
struct an_trace_clip {
	int set;	    /* its events are kept only in [begin, end] (possibly empty) */
	int64_t begin, end; /* latest first-packet begin, earliest last-packet end of its files */
};

/*
 * What the stream files say of the traces' time, and Babeltrace 1's
 * stream intersection (ctf_find_stream_intersection() and its union): a
 * trace with a stream file without packets is left whole; any other
 * trace keeps only the events in the range all its stream files cover,
 * which may be empty; the command fails when the union of those ranges
 * is empty.
 */
struct an_bounds {
	int has_bounds;			/* some stream file has packets with times */
	int64_t begin, end;		/* first packet begin, last packet end, over all files */
	int has_intersection;		/* the union is not empty */
	int64_t inter_begin, inter_end; /* the union */
	struct an_trace_clip *traces;	/* per trace index */
	size_t ntraces;
	int all_set; /* every trace is clipped: nothing after inter_end is kept */
};

/* Computes *b from the reader's stream files: 0, or -1 (trax_reader_error(r)). */
int an_bounds(struct trax_reader *r, struct an_bounds *b);
void an_bounds_free(struct an_bounds *b);

#endif /* TRAX_ANALYSIS_RANGE_H */
