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

/* What the stream files say of the traces' time. */
struct an_bounds {
	int has_bounds;		/* some stream file has packets with times */
	int64_t begin, end;	/* first packet begin, last packet end, over all files */
	int has_intersection;	/* every trace's streams overlap */
	int64_t inter_begin;	/* the union over the traces of [latest first-packet */
	int64_t inter_end;	/* begin, earliest last-packet end] of their stream files */
};

/* Computes *b from the reader's stream files: 0, or -1 (trax_reader_error(r)). */
int an_bounds(struct trax_reader *r, struct an_bounds *b);

#endif /* TRAX_ANALYSIS_RANGE_H */
