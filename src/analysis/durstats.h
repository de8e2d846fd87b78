/*
 * durstats.h - statistics of durations (latencies) as lttng-analyses
 * prints them (docs/analyses-reference.md section 1.5): count, min, max,
 * the average as Python's int / int (one correctly rounded division) and
 * the sample standard deviation as Python's statistics.stdev (exact
 * rational sums, then a correctly rounded square root), kept in constant
 * memory: integer sums rather than the list of samples.
 */
#ifndef TRAX_ANALYSIS_DURSTATS_H
#define TRAX_ANALYSIS_DURSTATS_H

#include <stdint.h>

struct an_durstats {
	uint64_t count;
	int64_t min, max;
	__int128 sum;		  /* of the durations (ns) */
	unsigned __int128 sumsq;  /* of their squares */
	int inexact;		  /* sumsq overflowed: the stdev is approximate */
	long double lsum, lsumsq; /* the same sums, for then */
};

void an_durstats_init(struct an_durstats *s);
void an_durstats_add(struct an_durstats *s, int64_t ns);
/* sum / count as Python's true division (0 when empty). */
double an_durstats_avg(const struct an_durstats *s);
/* The sample standard deviation in *out: 0, or -1 when count < 2. */
int an_durstats_stdev(const struct an_durstats *s, double *out);

/* sqrt(n / m) correctly rounded (m > 0): Python's _float_sqrt_of_frac. */
double an_sqrt_frac(unsigned __int128 n, unsigned __int128 m);

#endif /* TRAX_ANALYSIS_DURSTATS_H */
