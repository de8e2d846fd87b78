/*
 * loghist.c - log-linear histograms of durations and the page's bins
 * made from them (loghist.h).
 *
 * Bin of v: below 2 * SUB, v itself (chunks 0 and 1, bins 1 ns wide);
 * above, with m = floor(log2 v) and shift = m - SUB_BITS, chunk shift + 1
 * and sub-bin (v >> shift) - SUB: 2^shift ns wide, from (SUB + sub) << shift.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/loghist.h"

#define SUB AN_LOGHIST_SUB

void an_loghist_init(struct an_loghist *h)
{
	memset(h, 0, sizeof(*h));
}

void an_loghist_free(struct an_loghist *h)
{
	for (size_t c = 0; c < AN_LOGHIST_CHUNKS; c++)
		free(h->chunks[c]);
	an_loghist_init(h);
}

static void locate(int64_t v, size_t *chunk, size_t *sub)
{
	int shift;

	if (v < 2 * SUB) {
		*chunk = (size_t)v / SUB;
		*sub = (size_t)v % SUB;
		return;
	}
	shift = 63 - __builtin_clzll((unsigned long long)v) - AN_LOGHIST_SUB_BITS;
	*chunk = (size_t)shift + 1;
	*sub = (size_t)((v >> shift) - SUB);
}

/* The smallest value of sub-bin sub of chunk c (sub may be SUB: the next chunk's first). */
static double low_of(size_t c, size_t sub)
{
	if (c == 0)
		return (double)sub;
	return (double)(SUB + sub) * (double)(1ULL << (c - 1));
}

int an_loghist_add(struct an_loghist *h, int64_t v)
{
	size_t c, s;

	if (v < 0)
		v = 0;
	locate(v, &c, &s);
	if (!h->chunks[c] && !(h->chunks[c] = calloc(SUB, sizeof(uint64_t)))) {
		h->failed = 1;
		return -1;
	}
	h->chunks[c][s]++;
	if (!h->count || v < h->min)
		h->min = v;
	if (!h->count || v > h->max)
		h->max = v;
	h->count++;
	return 0;
}

/* The page's bins of g sub-bins each, from min's to max's (out NULL: only counted). */
static size_t make_bins(const struct an_loghist *h, size_t g, struct an_html_bin *out)
{
	size_t c0, s0, c1, s1, n = 0;

	locate(h->min, &c0, &s0);
	locate(h->max, &c1, &s1);
	for (size_t c = c0; c <= c1; c++) {
		size_t first = c == c0 ? s0 / g : 0, last = c == c1 ? s1 / g : SUB / g - 1;

		for (size_t k = first; k <= last; k++, n++) {
			if (!out)
				continue;
			out[n].low = low_of(c, k * g);
			out[n].high = low_of(c, (k + 1) * g);
			out[n].count = 0;
			for (size_t s = k * g; h->chunks[c] && s < (k + 1) * g; s++)
				out[n].count += h->chunks[c][s];
		}
	}
	return n;
}

size_t an_loghist_bins(const struct an_loghist *h, size_t target, struct an_html_bin *out)
{
	size_t g = 1;

	if (!h->count)
		return 0;
	if (target > AN_LOGHIST_MAX_BINS)
		target = AN_LOGHIST_MAX_BINS;
	while (g < SUB && make_bins(h, g, NULL) > target)
		g *= 2;
	return make_bins(h, g, out);
}
