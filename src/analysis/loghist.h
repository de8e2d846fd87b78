/*
 * loghist.h - a histogram of durations in bounded memory, for the pages
 * of analyses that keep no list of their durations (syscallstats):
 * log-linear bins, 64 per power of two (exact below 128 ns, each 1/64 of
 * its power of two above), counted in arrays allocated per power of two
 * as values reach it (512 bytes each, 58 at most). The page's bins are
 * unions of whole bins, so their counts are exact.
 */
#ifndef TRAX_ANALYSIS_LOGHIST_H
#define TRAX_ANALYSIS_LOGHIST_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/html-hist.h"

#define AN_LOGHIST_SUB_BITS 6
#define AN_LOGHIST_SUB	    (1 << AN_LOGHIST_SUB_BITS)
#define AN_LOGHIST_CHUNKS   58 /* durations up to 2^63 - 1 */
/* the most bins an_loghist_bins() gives */
#define AN_LOGHIST_MAX_BINS (AN_LOGHIST_CHUNKS + 2)

struct an_loghist {
	uint64_t *chunks[AN_LOGHIST_CHUNKS];
	uint64_t count;
	int64_t min, max;
	int failed; /* memory ran out: a value was not counted */
};

void an_loghist_init(struct an_loghist *h);
void an_loghist_free(struct an_loghist *h);
/* Counts v (ns; below 0 counted as 0): 0, or -1 (memory; h->failed set). */
int an_loghist_add(struct an_loghist *h, int64_t v);
/*
 * The bins the page shows, in out[AN_LOGHIST_MAX_BINS]: adjacent, from
 * the bin of min to that of max, each 2^j of the log-linear bins of one
 * power of two, j the smallest that makes at most target of them (when
 * no j does, one per power of two). Returns their number (0: empty).
 */
size_t an_loghist_bins(const struct an_loghist *h, size_t target, struct an_html_bin *out);

#endif /* TRAX_ANALYSIS_LOGHIST_H */
