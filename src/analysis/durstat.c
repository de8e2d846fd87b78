/* durstat.c - duration statistics as lttng-analyses computes them (durstat.h). */
#include "analysis/durstat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void durstat_init(struct durstat *d)
{
	d->count = 0;
	d->min = d->max = 0;
	d->sum = 0;
	d->sumsq = 0;
	d->lsumsq = 0;
	d->sq_overflow = 0;
}

void durstat_add(struct durstat *d, int64_t ns)
{
	unsigned __int128 a = (unsigned __int128)(ns < 0 ? -(__int128)ns : ns), sq = a * a;

	if (!d->count || ns < d->min)
		d->min = ns;
	if (!d->count || ns > d->max)
		d->max = ns;
	d->count++;
	d->sum += ns;
	d->lsumsq += (long double)ns * (long double)ns;
	if (!d->sq_overflow && __builtin_add_overflow(d->sumsq, sq, &d->sumsq))
		d->sq_overflow = 1;
}

double durstat_mean(const struct durstat *d)
{
	if (!d->count)
		return 0;
	/* both exact below 2^53: one correctly rounded division, as Python */
	if (d->sum < ((__int128)1 << 53) && d->sum > -((__int128)1 << 53))
		return (double)(int64_t)d->sum / (double)d->count;
	return (double)((long double)d->sum / (long double)d->count);
}

double durstat_stdev(const struct durstat *d)
{
	__int128 n = (__int128)d->count, s1 = d->sum, num, s1sq, nsq;
	long double v;

	if (d->count < 2)
		return 0;
	/* variance = (n * S2 - S1^2) / (n (n - 1)), exactly when it fits */
	if (!d->sq_overflow && d->sumsq < ((unsigned __int128)1 << 126) &&
	    !__builtin_mul_overflow((__int128)d->sumsq, n, &nsq) &&
	    !__builtin_mul_overflow(s1, s1, &s1sq)) {
		num = nsq - s1sq;
		if (num < 0)
			num = 0;
		v = (long double)num / ((long double)d->count * (long double)(d->count - 1));
	} else {
		long double mean = (long double)d->sum / (long double)d->count;

		v = (d->lsumsq - mean * (long double)d->sum) / (long double)(d->count - 1);
		if (v < 0)
			v = 0;
	}
	return (double)sqrtl(v);
}

double an_py_round3(double x)
{
	char buf[64];

	if (!isfinite(x))
		return x;
	snprintf(buf, sizeof(buf), "%.3f", x);
	return strtod(buf, NULL);
}
