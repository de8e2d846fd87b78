/*
 * freqdist.h - lttng-analyses' frequency distribution of durations as its
 * irq and sched commands compute it (cli's _fill_freq_result_table() in
 * 0.6.1): AN_FREQ_BUCKETS buckets of equal width, in microseconds as
 * floats, from --min (else the smallest duration) to --max (else the
 * largest); a duration at the maximum goes in the last bucket, one beyond
 * nowhere. Printed as its FreqGraph (text) or an MI "freq" table.
 * (iolatency's histograms are computed otherwise: an-iolatency.c.)
 */
#ifndef TRAX_ANALYSIS_FREQDIST_H
#define TRAX_ANALYSIS_FREQDIST_H

#include <stdint.h>

#include "analysis/analysis.h"
#include "analysis/table.h"
#include "common/strbuf.h"

/* --freq-resolution's default */
#define AN_FREQ_BUCKETS 20

struct an_freq {
	double min, max, step; /* µs */
	uint64_t counts[AN_FREQ_BUCKETS];
};

/*
 * Empty buckets for durations whose smallest and largest (ns) are lo and
 * hi, --min/--max (o) replacing them: 0, or -1 when the width is 0 (no
 * distribution: lttng-analyses prints none).
 */
int an_freq_init(struct an_freq *f, const struct an_options *o, int64_t lo, int64_t hi);
/* Counts one duration (ns). */
void an_freq_add(struct an_freq *f, int64_t ns);
/* FreqGraph: "TITLE (µs)", 80 '#', a line per bucket, an empty line. */
void an_freq_text(struct strbuf *sb, const char *title, const struct an_freq *f);
/* An MI "freq" table titled title: lower and upper bounds (ns, floats) and counts. */
void an_freq_mi(struct an_mi *mi, const char *title, const struct an_freq *f, int64_t begin,
		int64_t end);

#endif /* TRAX_ANALYSIS_FREQDIST_H */
