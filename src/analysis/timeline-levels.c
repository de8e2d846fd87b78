/*
 * timeline-levels.c - the timeline's rows at several resolutions and their
 * compact encoding (timeline-impl.h): what the page cannot show at a zoom
 * (many states within one pixel) is reduced here, once, to the state that
 * covers most of each bucket, so that drawing costs the pixels, not the
 * events.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/timeline-levels.h"

void tl_put_varint(struct strbuf *sb, uint64_t v)
{
	char b[10];
	size_t n = 0;

	do {
		b[n] = (char)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] = (char)(b[n] | 0x80);
		n++;
	} while (v);
	strbuf_add(sb, b, n);
}

void tl_base64(struct strbuf *out, const unsigned char *p, size_t n)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char buf[4096];
	size_t k = 0;

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		buf[k++] = a[v >> 18 & 63];
		buf[k++] = a[v >> 12 & 63];
		buf[k++] = i + 1 < n ? a[v >> 6 & 63] : '=';
		buf[k++] = i + 2 < n ? a[v & 63] : '=';
		if (k + 4 > sizeof(buf)) {
			strbuf_add(out, buf, k);
			k = 0;
		}
	}
	strbuf_add(out, buf, k);
}

double tl_level_width(int64_t span, int k)
{
	double w = (double)(span > 0 ? span : 1) / TL_LEVEL0_BUCKETS;

	for (int i = 0; i < k; i++)
		w /= 4;
	return w < 1 ? 1 : w;
}

int tl_level_count(int64_t span, size_t n)
{
	int k = 0;

	while (k < TL_MAX_LEVELS) {
		double buckets = (double)(span > 0 ? span : 1) / tl_level_width(span, k);

		if (buckets * 2 >= (double)n || tl_level_width(span, k) <= 1)
			break;
		k++;
	}
	return k;
}

int tl_state_has_detail(enum tl_state s)
{
	return s == TL_USER || s == TL_SYSCALL || s == TL_IRQ || s == TL_SOFTIRQ || s == TL_WAIT ||
	       s == TL_EXIT;
}

long tl_decimate(const struct tl_change *ch, size_t n, int64_t span, int k, struct tl_change **out)
{
	double w = tl_level_width(span, k);
	size_t nb = (size_t)((double)span / w) + 1, i = 0, cap = 64, len = 0;
	struct tl_change *v = malloc(cap * sizeof(*v));
	int prev = -1;

	if (!v)
		return -1;
	for (size_t b = 0; b < nb && i < n; b++) {
		int64_t lo = (int64_t)((double)b * w), hi = (int64_t)((double)(b + 1) * w);
		int64_t cover[TL_STATE_COUNT] = {0};
		int best = TL_UNKNOWN, second = 0;
		size_t j = i;

		if (hi <= lo)
			hi = lo + 1;
		/* the change in force at lo: the last one at or before it */
		while (j + 1 < n && ch[j + 1].t <= lo)
			j++;
		i = j;
		if (ch[j].t > hi)
			continue; /* nothing known yet in this bucket */
		for (; j < n && ch[j].t < hi; j++) {
			int64_t a = ch[j].t > lo ? ch[j].t : lo;
			int64_t e = j + 1 < n && ch[j + 1].t < hi ? ch[j + 1].t : hi;

			if (e > a && ch[j].state < TL_STATE_COUNT)
				cover[ch[j].state] += e - a;
		}
		for (int s = 1; s < TL_STATE_COUNT; s++)
			if (cover[s] > cover[best])
				best = s;
		/* the runner-up, so that the page can show what the bucket also holds */
		for (int s = 1; s < TL_STATE_COUNT; s++)
			if (s != best && cover[s] > 0 && (!second || cover[s] > cover[second]))
				second = s;
		if (best * TL_STATE_COUNT + second == prev)
			continue;
		if (len == cap) {
			struct tl_change *nv = realloc(v, (cap *= 2) * sizeof(*v));

			if (!nv) {
				free(v);
				return -1;
			}
			v = nv;
		}
		v[len].t = lo;
		v[len].state = (uint8_t)best;
		v[len].detail = (uint32_t)second;
		len++;
		prev = best * TL_STATE_COUNT + second;
	}
	*out = v;
	return (long)len;
}

void tl_encode_changes(struct strbuf *raw, const struct tl_change *ch, size_t n, int coarse)
{
	int64_t last = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t d = (uint64_t)(ch[i].t - last);

		tl_put_varint(raw, d << 4 | (ch[i].state & 15));
		if (coarse || tl_state_has_detail((enum tl_state)ch[i].state))
			tl_put_varint(raw, ch[i].detail);
		last = ch[i].t;
	}
}

size_t tl_encode_marks(struct strbuf *raw, const struct tl_mark *mk, size_t n, int64_t span, int k)
{
	double w = k < 0 ? 0 : tl_level_width(span, k);
	int64_t last = 0;
	size_t out = 0;

	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		if (k >= 0) {
			int64_t b = (int64_t)((double)mk[i].t / w);

			while (j < n && (int64_t)((double)mk[j].t / w) == b)
				j++;
		}
		tl_put_varint(raw, (uint64_t)(mk[i].t - last));
		tl_put_varint(raw, mk[i].name);
		tl_put_varint(raw, j - i);
		if (k < 0)
			tl_put_varint(raw, mk[i].args);
		last = mk[i].t;
		out++;
		i = j;
	}
	return out;
}

void tl_encode_spans(struct strbuf *raw, const struct tl_span *sp, size_t n)
{
	int64_t last = 0;

	for (size_t i = 0; i < n; i++) {
		tl_put_varint(raw, (uint64_t)(sp[i].begin - last));
		tl_put_varint(raw, (uint64_t)(sp[i].end - sp[i].begin));
		tl_put_varint(raw, sp[i].name);
		tl_put_varint(raw, sp[i].depth);
		last = sp[i].begin;
	}
}
