/*
 * test_analysis_html.c - what `trax analyze --html` computes before
 * drawing: the unit a duration is shown in (html-hist.c) and the bins of
 * syscallstats' log-linear histograms (loghist.c): exact below 128 ns,
 * adjacent, as few as the target asks and no fewer, and counts that are
 * those of the values in each bin's [low, high), checked one by one on
 * pseudo-random durations.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/html-hist.h"
#include "analysis/loghist.h"
#include "check.h"

static void check_unit(double ns, const char *unit, double scale)
{
	double s = 0;
	const char *u = an_html_unit(ns, &s);

	CHECK(!strcmp(u, unit) && s == scale, "%.17g ns: %s (%g), expected %s (%g)", ns, u, s,
	      unit, scale);
}

/* Adjacent bins from min's to max's, summing to the count. */
static void check_shape(const struct an_loghist *h, const struct an_html_bin *b, size_t n)
{
	uint64_t sum = 0;

	CHECK(n >= 1 && n <= AN_LOGHIST_MAX_BINS, "%zu bins", n);
	for (size_t i = 0; i < n; i++) {
		CHECK(b[i].low < b[i].high, "bin %zu: [%g, %g)", i, b[i].low, b[i].high);
		if (i)
			CHECK(b[i].low == b[i - 1].high, "bin %zu starts at %g, %zu ends at %g", i,
			      b[i].low, i - 1, b[i - 1].high);
		sum += b[i].count;
	}
	CHECK(b[0].low <= (double)h->min && (double)h->min < b[0].high, "min %" PRId64 " not in [%g, %g)",
	      h->min, b[0].low, b[0].high);
	/* (<=: INT64_MAX is 2^63 as a double) */
	CHECK(b[n - 1].low <= (double)h->max && (double)h->max <= b[n - 1].high,
	      "max %" PRId64 " not in [%g, %g)", h->max, b[n - 1].low, b[n - 1].high);
	CHECK_EQ(sum, h->count);
}

int main(void)
{
	struct an_html_bin b[AN_LOGHIST_MAX_BINS];
	struct an_loghist h;
	size_t n;

	/* the largest unit the value is at least one of */
	check_unit(0, "ns", 1);
	check_unit(999, "ns", 1);
	check_unit(1000, "us", 1e3);
	check_unit(999999, "us", 1e3);
	check_unit(1e6, "ms", 1e6);
	check_unit(999999999, "ms", 1e6);
	check_unit(1e9, "s", 1e9);
	check_unit(3.6e12, "s", 1e9);

	/* empty: no bin */
	an_loghist_init(&h);
	CHECK_EQ(an_loghist_bins(&h, 40, b), 0);

	/* below 128 ns every ns has its bin: 5, 5, 100 in 1-ns bins would be 96 > 40, 2-ns
	 * bins 49, 4-ns bins 25 (chunk 0: [4, 8) .. [60, 64), 15; chunk 1: [64, 68) .. [100,
	 * 104), 10) */
	an_loghist_add(&h, 5);
	an_loghist_add(&h, 5);
	an_loghist_add(&h, 100);
	n = an_loghist_bins(&h, 40, b);
	CHECK_EQ(n, 25);
	check_shape(&h, b, n);
	CHECK(b[0].low == 4 && b[0].high == 8 && b[0].count == 2);
	CHECK(b[n - 1].low == 100 && b[n - 1].high == 104 && b[n - 1].count == 1);
	/* a target of 100: 1-ns bins, 96 > AN_LOGHIST_MAX_BINS: clamped, 2-ns bins 49 */
	n = an_loghist_bins(&h, 100, b);
	CHECK_EQ(n, 49);
	CHECK(b[0].low == 4 && b[0].high == 6 && b[0].count == 2);
	an_loghist_free(&h);

	/* 1 ns to 1 s: one bin per power of two, [0, 64), [64, 128), [128, 256) .. [2^29, 2^30) */
	an_loghist_init(&h);
	an_loghist_add(&h, 1);
	an_loghist_add(&h, 1000000000);
	an_loghist_add(&h, -5); /* counted as 0 */
	n = an_loghist_bins(&h, 40, b);
	CHECK_EQ(n, 25);
	check_shape(&h, b, n);
	CHECK(b[0].low == 0 && b[0].high == 64 && b[0].count == 2);
	CHECK(b[2].low == 128 && b[2].high == 256 && b[2].count == 0);
	CHECK(b[24].low == 536870912.0 && b[24].high == 1073741824.0 && b[24].count == 1);
	an_loghist_free(&h);

	/* the largest durations */
	an_loghist_init(&h);
	an_loghist_add(&h, INT64_MAX);
	an_loghist_add(&h, (int64_t)1 << 62);
	n = an_loghist_bins(&h, 40, b);
	check_shape(&h, b, n);
	CHECK(b[n - 1].high == 9223372036854775808.0, "last high %g", b[n - 1].high);
	an_loghist_free(&h);

	/* pseudo-random durations over three decades: each bin holds exactly the values in it */
	for (int round = 0; round < 3; round++) {
		static int64_t v[20000];
		uint64_t x = 88172645463325252ULL + (uint64_t)round;
		size_t target = round == 0 ? 40 : round == 1 ? 12 : 60;

		an_loghist_init(&h);
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			v[i] = 1000 + (int64_t)((x >> 33) % (round == 2 ? 3000 : 5000000));
			an_loghist_add(&h, v[i]);
		}
		n = an_loghist_bins(&h, target, b);
		check_shape(&h, b, n);
		for (size_t k = 0; k < n; k++) {
			uint64_t c = 0;

			for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
				c += (double)v[i] >= b[k].low && (double)v[i] < b[k].high;
			CHECK(c == b[k].count, "round %d bin %zu [%g, %g): %" PRIu64 ", values %" PRIu64,
			      round, k, b[k].low, b[k].high, b[k].count, c);
		}
		/* the finest bins that fit: halving them would make more than the target; when
		 * none fit (12 for 3 decades), one per power of two */
		if (n <= target)
			CHECK(2 * n > target, "round %d: %zu bins, twice as many fit in %zu", round, n,
			      target);
		else
			for (size_t k = 1; k < n; k++)
				CHECK(b[k].high == 2 * b[k].low, "round %d: %zu bins, bin %zu [%g, %g)",
				      round, n, k, b[k].low, b[k].high);
		CHECK(round != 1 || n == 13, "round 1: %zu bins", n);
		an_loghist_free(&h);
	}
	return CHECK_RESULT();
}
