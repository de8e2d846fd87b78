/*
 * test_analysis_durstat.c - duration statistics (src/analysis/durstats.c)
 * give the digits Python's statistics.stdev and true division give (the
 * values below were computed by Python 3.11 from the same numbers; the
 * generated lists come from the same 64-bit LCG), and round(x, 3)
 * (pyround.c).
 */
#include <stdint.h>
#include <stdio.h>

#include "analysis/durstats.h"
#include "analysis/pyround.h"
#include "check.h"

static double stdev_of(const struct an_durstats *d)
{
	double v = 0;

	an_durstats_stdev(d, &v);
	return v;
}

static void check_case(const int64_t *v, size_t n, double sd, double mean)
{
	struct an_durstats d;

	an_durstats_init(&d);
	for (size_t i = 0; i < n; i++)
		an_durstats_add(&d, v[i]);
	CHECK(stdev_of(&d) == sd, "%zu values: stdev %.17g, Python %.17g", n, stdev_of(&d), sd);
	CHECK(an_durstats_avg(&d) == mean, "%zu values: mean %.17g, Python %.17g", n,
	      an_durstats_avg(&d), mean);
}

static void check_gen(uint64_t seed, size_t n, int64_t lo, int64_t range, double sd, double mean)
{
	struct an_durstats d;
	uint64_t x = seed;

	an_durstats_init(&d);
	for (size_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		an_durstats_add(&d, lo + (int64_t)((x >> 33) % (uint64_t)range));
	}
	CHECK(stdev_of(&d) == sd, "seed %llu: stdev %.17g, Python %.17g", (unsigned long long)seed,
	      stdev_of(&d), sd);
	CHECK(an_durstats_avg(&d) == mean, "seed %llu: mean %.17g, Python %.17g",
	      (unsigned long long)seed, an_durstats_avg(&d), mean);
}

int main(void)
{
	{
		static const int64_t v[] = {1, 2, 3, 4};

		check_case(v, 4, 1.2909944487358056, 2.5);
	}
	{
		static const int64_t v[] = {1000, 1000, 1000};

		check_case(v, 3, 0.0, 1000.0);
	}
	{
		static const int64_t v[] = {2073, 6309, 55943, 811, 26800};

		check_case(v, 5, 23463.653598704528, 18387.2);
	}
	check_gen(1, 1000, 1, 10000000000, 621799358.5137893, 1090805564.762);
	check_gen(2, 100000, 100, 4900, 1413.765748847006, 2556.01852);
	check_gen(3, 5000, 0, 3, 0.8169237864663869, 1.013);
	check_gen(4, 200, 1000000000, 1000000000000, 640228416.0526098, 2095412330.735);
	/* round(x, 3): correctly rounded decimals of the double (0.0625 -> 0.062, half to even) */
	CHECK(an_py_round3(6.879751572327044) == 6.88);
	CHECK(an_py_round3(0.0625) == 0.062);
	CHECK(an_py_round3(2.0005) == 2.001); /* the double is 2.000500000000000167 */
	CHECK(an_py_round3(4515.7885) == 4515.788);
	return CHECK_RESULT();
}
