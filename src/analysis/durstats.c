/*
 * durstats.c - duration statistics with Python's numbers (durstats.h).
 *
 * The variance of n samples is (n * sum(x^2) - sum(x)^2) / (n * (n - 1))
 * exactly (128-bit integers), and its square root is rounded once: a
 * first guess from long double, then moved by one double at a time until
 * the exact square lies between the midpoints around it (compared in
 * 320-bit integers).
 */
#include "analysis/durstats.h"

#include <math.h>
#include <string.h>

void an_durstats_init(struct an_durstats *s)
{
	memset(s, 0, sizeof(*s));
}

void an_durstats_add(struct an_durstats *s, int64_t ns)
{
	unsigned __int128 sq = (unsigned __int128)((__int128)ns * ns);

	if (!s->count || ns < s->min)
		s->min = ns;
	if (!s->count || ns > s->max)
		s->max = ns;
	s->count++;
	s->sum += ns;
	if (__builtin_add_overflow(s->sumsq, sq, &s->sumsq))
		s->inexact = 1;
	s->lsum += ns;
	s->lsumsq += (long double)ns * ns;
}

double an_durstats_avg(const struct an_durstats *s)
{
	const __int128 exact = (__int128)1 << 53;

	if (!s->count)
		return 0;
	if (s->sum < exact && s->sum > -exact && s->count < (1ULL << 53))
		return (double)(int64_t)s->sum / (double)s->count;
	return (double)((long double)s->sum / (long double)s->count);
}

/* ---- 320-bit unsigned integers, little-endian limbs ---- */

#define LIMBS 5

struct big {
	uint64_t w[LIMBS];
};

static void big_set(struct big *b, unsigned __int128 v)
{
	memset(b, 0, sizeof(*b));
	b->w[0] = (uint64_t)v;
	b->w[1] = (uint64_t)(v >> 64);
}

static void big_mul(struct big *b, uint64_t k)
{
	unsigned __int128 carry = 0;

	for (int i = 0; i < LIMBS; i++) {
		unsigned __int128 p = (unsigned __int128)b->w[i] * k + carry;

		b->w[i] = (uint64_t)p;
		carry = p >> 64;
	}
}

static int big_bits(const struct big *b)
{
	for (int i = LIMBS - 1; i >= 0; i--)
		if (b->w[i])
			return i * 64 + 64 - __builtin_clzll(b->w[i]);
	return 0;
}

/* b <<= n (the caller makes sure it fits) */
static void big_shl(struct big *b, int n)
{
	int words = n / 64, bits = n % 64;

	for (int i = LIMBS - 1; i >= 0; i--) {
		uint64_t hi = i - words >= 0 ? b->w[i - words] : 0;
		uint64_t lo = i - words - 1 >= 0 ? b->w[i - words - 1] : 0;

		b->w[i] = bits ? (hi << bits) | (lo >> (64 - bits)) : hi;
	}
}

static int big_cmp(const struct big *a, const struct big *b)
{
	for (int i = LIMBS - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

/*
 * The sign of (K * 2^E)^2 * m - n: where the square of the number K * 2^E
 * (K < 2^54) lies with respect to n / m.
 */
static int cmp_square(uint64_t k, int e, unsigned __int128 n, unsigned __int128 m)
{
	struct big lhs, rhs;

	big_set(&lhs, m);
	big_mul(&lhs, k);
	big_mul(&lhs, k);
	big_set(&rhs, n);
	if (e >= 0) {
		if (big_bits(&lhs) && big_bits(&lhs) + 2 * e >= LIMBS * 64 - 1)
			return 1;
		big_shl(&lhs, 2 * e);
	} else {
		if (big_bits(&rhs) && big_bits(&rhs) - 2 * e >= LIMBS * 64 - 1)
			return -1;
		big_shl(&rhs, -2 * e);
	}
	return big_cmp(&lhs, &rhs);
}

/* The midpoint between d > 0 and the next double up, as K * 2^E. */
static void upper_mid(double d, uint64_t *k, int *e)
{
	int x;
	double f = frexp(d, &x); /* d = f * 2^x, f in [0.5, 1) */
	uint64_t mant = (uint64_t)ldexp(f, 53);

	*k = 2 * mant + 1;
	*e = x - 53 - 1;
}

double an_sqrt_frac(unsigned __int128 n, unsigned __int128 m)
{
	double d;
	uint64_t k;
	int e;

	if (!n || !m)
		return 0;
	d = (double)sqrtl((long double)n / (long double)m);
	if (!(d > 0) || isinf(d))
		return d;
	for (int guard = 0; guard < 64; guard++) {
		double p = nextafter(d, 0);
		int c;

		upper_mid(d, &k, &e);
		c = cmp_square(k, e, n, m);
		if (c < 0 || (c == 0 && ((k >> 1) & 1))) {
			d = nextafter(d, INFINITY); /* above the upper midpoint (a tie: to even) */
			continue;
		}
		if (p > 0) {
			upper_mid(p, &k, &e);
			c = cmp_square(k, e, n, m);
			if (c > 0 || (c == 0 && !((k >> 1) & 1))) {
				d = p; /* below the lower midpoint */
				continue;
			}
		}
		break;
	}
	return d;
}

int an_durstats_stdev(const struct an_durstats *s, double *out)
{
	unsigned __int128 n = s->count, nsq, sq, num, den;
	__int128 sum = s->sum;
	unsigned __int128 asum = (unsigned __int128)(sum < 0 ? -sum : sum);

	if (s->count < 2)
		return -1;
	if (!s->inexact && !__builtin_mul_overflow(n, s->sumsq, &nsq) &&
	    !__builtin_mul_overflow(asum, asum, &sq) && !__builtin_mul_overflow(n, n - 1, &den) &&
	    nsq >= sq) {
		num = nsq - sq;
		*out = an_sqrt_frac(num, den);
		return 0;
	}
	/* beyond 128 bits: long double, one rounding more */
	{
		long double ln = (long double)s->count;
		long double var = (s->lsumsq - s->lsum * s->lsum / ln) / (ln - 1);

		*out = (double)sqrtl(var > 0 ? var : 0);
	}
	return 0;
}
