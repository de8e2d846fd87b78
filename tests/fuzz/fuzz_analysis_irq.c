/*
 * fuzz_analysis_irq.c - libFuzzer target for the interrupt state and the
 * duration statistics of `trax analyze` (src/analysis kirq.c, durstats.c):
 *  - any sequence of IRQ events (entry, exit, soft raise/entry/exit on any
 *    CPU, number, vector; times never decreasing) never crashes; what ends
 *    began before it ended, on its own CPU, with its own number, and a soft
 *    IRQ's raise came before its entry;
 *  - the sample standard deviation of any durations is within a relative
 *    1e-9 of a long double one, and the correctly rounded square root of
 *    any fraction is the double nearest it (no other double is nearer).
 *
 * FUZZ-SOURCES: src/analysis/kirq.c src/analysis/durstats.c
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "analysis/durstats.h"
#include "analysis/kirq.h"
#include "check.h"

static void fuzz_irq(const uint8_t *data, size_t size)
{
	struct kirq s;
	int64_t ts = 0;

	kirq_init(&s);
	for (size_t i = 0; i + 3 <= size; i += 3) {
		int op = data[i] % 5;
		int64_t cpu = data[i] / 5 % 6; /* a few CPUs, some beyond the first four */
		int64_t nr = (int8_t)data[i + 1] % 20;
		const struct kirq_hard *h;
		const struct kirq_soft *x;

		ts += data[i + 2];
		switch (op) {
		case 0:
			kirq_hard_entry(&s, cpu, nr, ts);
			break;
		case 1:
			h = kirq_hard_exit(&s, cpu, nr, ts);
			CHECK(!h || (h->cpu == cpu && h->irq == nr && h->begin <= h->end &&
				     h->end == ts));
			break;
		case 2:
			kirq_soft_raise(&s, cpu, nr, ts);
			break;
		case 3:
			kirq_soft_entry(&s, cpu, nr, ts);
			break;
		default:
			x = kirq_soft_exit(&s, cpu, nr, ts);
			CHECK(!x ||
			      (x->cpu == cpu && x->vec == nr && x->entered && x->begin <= x->end &&
			       (!x->raised || x->raise_ts <= x->begin)));
			break;
		}
		CHECK(!s.failed);
	}
	kirq_free(&s);
}

static void fuzz_stats(const uint8_t *data, size_t size)
{
	struct an_durstats d;
	long double sum = 0, sumsq = 0, mean, var;
	double sd;
	size_t n = size / 4;

	an_durstats_init(&d);
	for (size_t i = 0; i < n; i++) {
		uint32_t v;

		memcpy(&v, data + 4 * i, 4);
		an_durstats_add(&d, (int64_t)v);
		sum += v;
	}
	if (n < 2) {
		CHECK(an_durstats_stdev(&d, &sd) == -1);
		return;
	}
	mean = sum / n;
	for (size_t i = 0; i < n; i++) {
		uint32_t v;

		memcpy(&v, data + 4 * i, 4);
		sumsq += (v - mean) * (v - mean);
	}
	var = sumsq / (n - 1);
	CHECK(an_durstats_stdev(&d, &sd) == 0);
	CHECK(fabsl(sd - sqrtl(var)) <= 1e-9L * sqrtl(var) + 1e-9L, "%a vs %La", sd, sqrtl(var));
}

static void fuzz_sqrt(const uint8_t *data, size_t size)
{
	uint64_t a = 0, b = 0;
	double r, lo, hi;
	long double exact;

	if (size < 16)
		return;
	memcpy(&a, data, 8);
	memcpy(&b, data + 8, 8);
	if (!b)
		return;
	r = an_sqrt_frac(a, b);
	exact = sqrtl((long double)a / (long double)b);
	/* the neighbours are no nearer (long double has 11 more bits: enough to tell apart) */
	lo = nextafter(r, 0);
	hi = nextafter(r, INFINITY);
	CHECK(fabsl((long double)r - exact) <= fabsl((long double)lo - exact) &&
		  fabsl((long double)r - exact) <= fabsl((long double)hi - exact),
	      "sqrt(%llu/%llu) = %a", (unsigned long long)a, (unsigned long long)b, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % 3) {
	case 0:
		fuzz_irq(data + 1, size - 1);
		break;
	case 1:
		fuzz_stats(data + 1, size - 1);
		break;
	default:
		fuzz_sqrt(data + 1, size - 1);
		break;
	}
	return 0;
}
