/* durstat.c - duration statistics as lttng-analyses computes them (durstat.h). */
#include "analysis/durstat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Unsigned integers of 384 bits, enough to compare a variance with a double's square exactly. */
#define BIG_LIMBS 12
struct big {
	uint32_t w[BIG_LIMBS]; /* least significant first */
};

static void big_set(struct big *b, unsigned __int128 v)
{
	memset(b, 0, sizeof(*b));
	for (int i = 0; i < 4; i++, v >>= 32)
		b->w[i] = (uint32_t)v;
}

static void big_mul(struct big *r, const struct big *a, const struct big *b)
{
	struct big t;

	memset(&t, 0, sizeof(t));
	for (int i = 0; i < BIG_LIMBS; i++) {
		uint64_t carry = 0;

		for (int j = 0; i + j < BIG_LIMBS; j++) {
			uint64_t cur = (uint64_t)a->w[i] * b->w[j] + t.w[i + j] + carry;

			t.w[i + j] = (uint32_t)cur;
			carry = cur >> 32;
		}
	}
	*r = t;
}

static void big_shl(struct big *b, int n)
{
	struct big t;

	memset(&t, 0, sizeof(t));
	for (int i = BIG_LIMBS - 1; i >= 0; i--) {
		int src = i - n / 32, sh = n % 32;
		uint64_t v;

		if (src < 0)
			continue;
		v = (uint64_t)b->w[src] << sh;
		if (sh && src > 0)
			v |= b->w[src - 1] >> (32 - sh);
		t.w[i] = (uint32_t)v;
	}
	*b = t;
}

static int big_cmp(const struct big *a, const struct big *b)
{
	for (int i = BIG_LIMBS - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

/* The sign of num/den - m^2, exactly (m a long double, > 0). */
static int cmp_square(unsigned __int128 num, unsigned __int128 den, long double m)
{
	int k;
	long double fr = frexpl(m, &k);
	uint64_t mant = (uint64_t)ldexpl(fr, 64);
	int e = k - 64; /* m = mant * 2^e */
	struct big lhs, rhs, t;

	big_set(&lhs, num);
	big_set(&rhs, mant);
	big_set(&t, mant);
	big_mul(&rhs, &rhs, &t);
	big_set(&t, den);
	big_mul(&rhs, &rhs, &t);
	if (2 * e >= 0)
		big_shl(&rhs, 2 * e);
	else
		big_shl(&lhs, -2 * e);
	return big_cmp(&lhs, &rhs);
}

/*
 * The square root of num/den correctly rounded to a double, as Python's
 * statistics module gives it: an estimate, moved to a neighbour while
 * the exact value lies beyond the midpoint with it.
 */
static double sqrt_frac(unsigned __int128 num, unsigned __int128 den)
{
	double y;

	if (!num)
		return 0;
	y = (double)sqrtl((long double)num / (long double)den);
	for (int i = 0; i < 4; i++) {
		double up = nextafter(y, INFINITY), down = nextafter(y, 0);
		int c;

		c = cmp_square(num, den, ((long double)y + up) / 2);
		if (c > 0 || (c == 0 && ((uint64_t)ldexp(frexp(up, &(int){0}), 53) & 1) == 0)) {
			y = up;
			continue;
		}
		c = cmp_square(num, den, ((long double)y + down) / 2);
		if (c < 0 || (c == 0 && ((uint64_t)ldexp(frexp(down, &(int){0}), 53) & 1) == 0)) {
			y = down;
			continue;
		}
		break;
	}
	return y;
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
		return sqrt_frac((unsigned __int128)num,
				 (unsigned __int128)d->count * (unsigned __int128)(d->count - 1));
	}
	{
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
