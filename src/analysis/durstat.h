/*
 * durstat.h - statistics of durations (integer nanoseconds) kept in
 * constant memory: count, min, max, total and the sums the sample
 * standard deviation needs, computed as Python's statistics.stdev does
 * (exact sums, then one square root), for lttng-analyses' tables.
 */
#ifndef TRAX_ANALYSIS_DURSTAT_H
#define TRAX_ANALYSIS_DURSTAT_H

#include <stddef.h>
#include <stdint.h>

struct durstat {
	uint64_t count;
	int64_t min, max;
	__int128 sum;
	unsigned __int128 sumsq; /* saturates (then the deviation is computed in long double) */
	long double lsumsq;	 /* the same in long double, for the saturated case */
	int sq_overflow;
};

void durstat_init(struct durstat *d);
void durstat_add(struct durstat *d, int64_t ns);
/* total / count as Python's true division of two integers (0 when empty). */
double durstat_mean(const struct durstat *d);
/* The sample standard deviation (n - 1), count >= 2. */
double durstat_stdev(const struct durstat *d);

/* Python's round(x, 3) (correctly rounded to 3 decimals, then back to a double). */
double an_py_round3(double x);

#endif /* TRAX_ANALYSIS_DURSTAT_H */
