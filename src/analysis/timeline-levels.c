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

		uint64_t count = mk[i].count;

		if (k >= 0) {
			int64_t b = (int64_t)((double)mk[i].t / w);

			while (j < n && (int64_t)((double)mk[j].t / w) == b)
				count += mk[j++].count;
		}
		tl_put_varint(raw, (uint64_t)(mk[i].t - last));
		tl_put_varint(raw, mk[i].name);
		tl_put_varint(raw, count);
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

/* The state of each whole bucket of compaction: the one covering most of it. */
struct tl_bucket {
	int64_t cover[TL_STATE_COUNT];
	int64_t longest[TL_STATE_COUNT]; /* the longest piece of each state, and its detail */
	uint32_t detail[TL_STATE_COUNT];
};

static void bucket_add(struct tl_bucket *b, const struct tl_change *c, int64_t a, int64_t e)
{
	unsigned s = c->state < TL_STATE_COUNT ? c->state : TL_UNKNOWN;

	if (e <= a)
		return;
	b->cover[s] += e - a;
	if (e - a > b->longest[s]) {
		b->longest[s] = e - a;
		b->detail[s] = c->detail;
	}
}

/* Appends (t, s, detail) to out unless it goes on what out ends with. */
static void put_change(struct tl_change *out, size_t *o, int64_t t, uint8_t s, uint32_t detail)
{
	if (*o && out[*o - 1].state == s && out[*o - 1].detail == detail)
		return;
	out[*o].t = t;
	out[*o].state = s;
	out[*o].detail = detail;
	(*o)++;
}

long tl_compact(struct tl_change *ch, size_t n, int64_t end, int64_t w)
{
	struct tl_change *out, carry = {0, 0, TL_UNKNOWN};
	size_t i = 0, o = 0;

	if (!n || w < 1 || end <= ch[0].t)
		return (long)n;
	/* (at most two changes out per bucket holding one: a buffer as large as the row) */
	if (!(out = malloc(2 * n * sizeof(*out))))
		return -1;
	while (i < n && ch[i].t < end) {
		/* (the last bucket is cut at end: it is merged as far as it is known) */
		int64_t lo = ch[i].t / w * w, hi = lo + w < end ? lo + w : end;
		struct tl_bucket b;
		int best = TL_UNKNOWN;

		memset(&b, 0, sizeof(b));
		/* what was in force from the bucket's start, then its changes */
		if (o || i)
			bucket_add(&b, &carry, lo, ch[i].t);
		for (; i < n && ch[i].t < hi; i++)
			bucket_add(&b, &ch[i], ch[i].t,
				   i + 1 < n && ch[i + 1].t < hi ? ch[i + 1].t : hi);
		carry = ch[i - 1];
		for (int s = 1; s < TL_STATE_COUNT; s++)
			if (b.cover[s] > b.cover[best])
				best = s;
		/* (a row's first bucket: from its first change, not before) */
		put_change(out, &o, o || lo >= ch[0].t ? lo : ch[0].t, (uint8_t)best,
			   b.detail[best]);
		/* whole buckets in the state the last change set: it starts at the next one */
		if (hi < end && (i == n || ch[i].t >= hi + w))
			put_change(out, &o, hi, carry.state, carry.detail);
	}
	/* (changes at or after end: none, unless the caller's end was wrong; kept as they are) */
	for (; i < n; i++)
		put_change(out, &o, ch[i].t, ch[i].state, ch[i].detail);
	/* (at most 2 out per change in, and buckets merge most: when none did, the row is left) */
	if (o > n) {
		free(out);
		return (long)n;
	}
	memcpy(ch, out, o * sizeof(*ch));
	free(out);
	return (long)o;
}

size_t tl_compact_marks(struct tl_mark *mk, size_t n, int64_t w)
{
	size_t o = 0;

	if (w < 1)
		return n;
	for (size_t i = 0; i < n; i++) {
		if (o && mk[o - 1].t / w == mk[i].t / w) {
			mk[o - 1].count += mk[i].count;
			continue;
		}
		mk[o++] = mk[i];
	}
	return o;
}
