/*
 * kfpush-int.c - comparisons of integer fields in the kernel's syntax.
 *
 * The filter compares the LTTng value u as a signed 64-bit integer; the
 * kernel compares its own field p in p's C type, the constant cast to it.
 * u is p (extended as the kernel's format says) plus a constant k
 * (priorities: -100), truncated to the LTTng field's size and read back
 * with its sign. The set of u a comparison accepts is turned into the set
 * of p that give such a u: the source's values in up to a few pieces
 * (where the truncation wraps), each an interval of p; the union of those
 * intervals is written as comparisons of p. So `prev_prio == 20` is
 * `prev_prio == 120`, and `prev_prio < 20` keeps the values near INT_MIN
 * that minus 100 wraps to the top (exact, if never met).
 */
#include <stdio.h>
#include <string.h>

#include "common/strbuf.h"
#include "kernel/kfpush-internal.h"

typedef __int128 i128;

#define MAX_PIECES    4 /* of the source's range: more means a truncation to few bits */
#define MAX_INTERVALS 8

struct interval {
	i128 lo, hi;
};

static i128 floor_div(i128 a, i128 b) /* b > 0 */
{
	i128 q = a / b;

	return (a % b != 0 && a < 0) ? q - 1 : q;
}

static void source_range(const struct kfp_field *f, i128 *lo, i128 *hi)
{
	unsigned int bits = f->ssize * 8;

	if (f->ssigned) {
		*lo = -((i128)1 << (bits - 1));
		*hi = ((i128)1 << (bits - 1)) - 1;
	} else {
		*lo = 0;
		*hi = ((i128)1 << bits) - 1;
	}
}

/* The u accepted by `u cmp c`: up to two intervals of int64. */
static unsigned int accepted(unsigned int cmp, int64_t c, struct interval *out)
{
	const i128 min = INT64_MIN, max = INT64_MAX, v = c;
	unsigned int n = 0;

	switch (cmp) {
	case KFP_EQ:
		out[n++] = (struct interval){v, v};
		break;
	case KFP_NE:
		out[n++] = (struct interval){min, v - 1};
		out[n++] = (struct interval){v + 1, max};
		break;
	case KFP_LT:
		out[n++] = (struct interval){min, v - 1};
		break;
	case KFP_LE:
		out[n++] = (struct interval){min, v};
		break;
	case KFP_GT:
		out[n++] = (struct interval){v + 1, max};
		break;
	default:
		out[n++] = (struct interval){v, max};
		break;
	}
	return n;
}

static unsigned int negated(unsigned int cmp)
{
	static const unsigned int neg[] = {KFP_NE, KFP_EQ, KFP_GE, KFP_LE, KFP_GT, KFP_LT};

	return neg[cmp];
}

static void add_interval(struct interval *set, unsigned int *n, i128 lo, i128 hi)
{
	unsigned int i = *n;

	if (lo > hi)
		return;
	/* sorted insertion, then merge of what touches */
	while (i > 0 && set[i - 1].lo > lo) {
		set[i] = set[i - 1];
		i--;
	}
	set[i] = (struct interval){lo, hi};
	(*n)++;
	for (unsigned int j = 0; j + 1 < *n;) {
		if (set[j + 1].lo <= set[j].hi + 1) {
			if (set[j + 1].hi > set[j].hi)
				set[j].hi = set[j + 1].hi;
			memmove(&set[j + 1], &set[j + 2], (*n - j - 2) * sizeof(*set));
			(*n)--;
		} else {
			j++;
		}
	}
}

/*
 * The kernel values p of f for which the filter's u satisfies `u cmp c`:
 * sorted, disjoint intervals. -1 when there are too many pieces.
 */
static int kernel_set(const struct kfp_field *f, unsigned int cmp, int64_t c, struct interval *set,
		      unsigned int *n)
{
	struct interval acc[2];
	unsigned int na = accepted(cmp, c, acc), bits = f->dsize * 8;
	i128 p0, p1, x0, x1, mod = (i128)1 << bits, low, j0, j1;
	/* the filter reads a 64-bit unsigned value as signed: its window is signed */
	bool window_signed = f->dsigned || bits == 64;

	source_range(f, &p0, &p1);
	x0 = p0 + f->k;
	x1 = p1 + f->k;
	low = window_signed ? -(mod / 2) : 0;
	j0 = floor_div(x0 - low, mod);
	j1 = floor_div(x1 - low, mod);
	if (j1 - j0 + 1 > MAX_PIECES)
		return -1;
	*n = 0;
	for (i128 j = j0; j <= j1; j++) {
		i128 xa = low + j * mod, xb = low + (j + 1) * mod - 1;

		if (xa < x0)
			xa = x0;
		if (xb > x1)
			xb = x1;
		for (unsigned int i = 0; i < na; i++) {
			/* u = x - j * mod on this piece, p = x - k */
			i128 lo = acc[i].lo + j * mod, hi = acc[i].hi + j * mod;

			if (lo < xa)
				lo = xa;
			if (hi > xb)
				hi = xb;
			add_interval(set, n, lo - f->k, hi - f->k);
		}
	}
	return 0;
}

/* A value of the kernel field's type as the kernel parses it (kstrtoll / kstrtoull). */
static void put_value(struct strbuf *sb, i128 v)
{
	if (v < 0)
		strbuf_printf(sb, "%lld", (long long)v);
	else
		strbuf_printf(sb, "%llu", (unsigned long long)v);
}

static void put_cmp(struct strbuf *sb, const char *name, const char *op, i128 v)
{
	strbuf_printf(sb, "%s %s ", name, op);
	put_value(sb, v);
}

/*
 * One interval of the set as comparisons: strict bounds when the LTTng
 * comparison was strict (`< 5` stays `< 5` rather than `<= 4`). Its
 * shape.
 */
static enum kfp_shape put_interval(struct strbuf *sb, const char *name, struct interval iv, i128 p0,
				   i128 p1, bool strict)
{
	if (iv.lo == iv.hi) {
		put_cmp(sb, name, "==", iv.lo);
		return KFP_ATOM;
	}
	if (iv.lo == p0) {
		if (strict)
			put_cmp(sb, name, "<", iv.hi + 1);
		else
			put_cmp(sb, name, "<=", iv.hi);
		return KFP_ATOM;
	}
	if (iv.hi == p1) {
		if (strict)
			put_cmp(sb, name, ">", iv.lo - 1);
		else
			put_cmp(sb, name, ">=", iv.lo);
		return KFP_ATOM;
	}
	put_cmp(sb, name, ">=", iv.lo);
	strbuf_puts(sb, " && ");
	put_cmp(sb, name, "<=", iv.hi);
	return KFP_AND;
}

static struct kfp_res render(const struct kfp_field *f, const struct interval *set, unsigned int n,
			     bool strict)
{
	struct strbuf sb;
	struct kfp_res r;
	enum kfp_shape shape = KFP_ATOM;
	i128 p0, p1;

	source_range(f, &p0, &p1);
	if (!n)
		return kfp_false();
	if (n == 1 && set[0].lo == p0 && set[0].hi == p1)
		return kfp_true(true);
	strbuf_init(&sb);
	if (n == 2 && set[0].lo == p0 && set[1].hi == p1 && set[0].hi + 2 == set[1].lo) {
		/* everything but one value */
		put_cmp(&sb, f->name, "!=", set[0].hi + 1);
	} else {
		for (unsigned int i = 0; i < n; i++) {
			struct strbuf part;
			enum kfp_shape s;

			strbuf_init(&part);
			s = put_interval(&part, f->name, set[i], p0, p1, strict);
			if (n > 1 && s == KFP_AND)
				strbuf_printf(&sb, "%s(%s)", i ? " || " : "",
					      part.buf ? part.buf : "");
			else
				strbuf_printf(&sb, "%s%s", i ? " || " : "",
					      part.buf ? part.buf : "");
			shape = n > 1 ? KFP_OR : s;
			strbuf_free(&part);
		}
	}
	r = sb.failed ? kfp_true(false) : kfp_text(sb.buf, shape, true);
	strbuf_free(&sb);
	return r;
}

static struct kfp_res bit_test(const struct kfp_field *f, uint64_t m, bool set);

struct kfp_res kfp_int_cmp(const struct kfp_field *f, unsigned int cmp, int64_t c, bool neg)
{
	struct interval set[MAX_INTERVALS];
	unsigned int n;

	if (neg)
		cmp = negated(cmp);
	switch (f->kind) {
	case KFP_FIELD_CONST: {
		struct interval acc[2];
		unsigned int na = accepted(cmp, c, acc);

		for (unsigned int i = 0; i < na; i++)
			if (f->value >= acc[i].lo && f->value <= acc[i].hi)
				return kfp_true(true);
		return kfp_false();
	}
	case KFP_FIELD_BIT: {
		/* u is 0 or 1: which of them pass says everything */
		struct interval acc[2];
		unsigned int na = accepted(cmp, c, acc);
		bool pass[2] = {false, false};

		for (unsigned int u = 0; u < 2; u++)
			for (unsigned int i = 0; i < na; i++)
				pass[u] |= u >= acc[i].lo && u <= acc[i].hi;
		if (pass[0] == pass[1])
			return pass[0] ? kfp_true(true) : kfp_false();
		return bit_test(f, 1ull << f->bit, pass[1]);
	}
	case KFP_FIELD_INT:
		if (kernel_set(f, cmp, c, set, &n))
			return kfp_true(false);
		return render(f, set, n, cmp == KFP_LT || cmp == KFP_GT);
	default:
		return kfp_true(false);
	}
}

/* The mask as the kernel parses a constant of the field's type. */
static i128 mask_value(const struct kfp_field *f, uint64_t m)
{
	unsigned int bits = f->ssize * 8;

	if (f->ssigned && (m >> (bits - 1)) & 1)
		return (i128)m - ((i128)1 << bits);
	return m;
}

/* "name & m" or "!name & m" */
static struct kfp_res bit_test(const struct kfp_field *f, uint64_t m, bool set)
{
	struct strbuf sb;
	struct kfp_res r;

	strbuf_init(&sb);
	strbuf_printf(&sb, "%s%s & ", set ? "" : "!", f->name);
	put_value(&sb, mask_value(f, m));
	r = sb.failed ? kfp_true(false) : kfp_text(sb.buf, KFP_ATOM, true);
	strbuf_free(&sb);
	return r;
}

#define MAX_BITS 8 /* bits tested one by one */

struct kfp_res kfp_mask_cmp(const struct kfp_field *f, int64_t mask, unsigned int cmp, int64_t c,
			    bool neg)
{
	uint64_t m = (uint64_t)mask, want = (uint64_t)c;
	bool eq = (cmp == KFP_EQ) != neg;
	struct kfp_res r;
	unsigned int w;

	if (cmp != KFP_EQ && cmp != KFP_NE)
		return kfp_true(false);
	switch (f->kind) {
	case KFP_FIELD_CONST:
		return ((((uint64_t)f->value & m) == want) == eq) ? kfp_true(true) : kfp_false();
	case KFP_FIELD_BIT:
		/* u & m is u when m has bit 0, else 0 */
		if (m & 1)
			return kfp_int_cmp(f, KFP_EQ, c, !eq);
		return ((want == 0) == eq) ? kfp_true(true) : kfp_false();
	case KFP_FIELD_INT:
		break;
	default:
		return kfp_true(false);
	}
	/*
	 * The value's low bits are the kernel field's when nothing is added:
	 * as many as the narrower of the two has. The mask must stay within
	 * those bits (above them the value holds its sign or the cut).
	 */
	w = f->dsize < f->ssize ? f->dsize : f->ssize;
	if (f->k || (w < 8 && m >> (w * 8)))
		return kfp_true(false);
	if (want & ~m)
		return eq ? kfp_false() : kfp_true(true);
	if (!m)
		return eq ? kfp_true(true) : kfp_false();
	if (!want)
		return bit_test(f, m, !eq); /* no bit of m set */
	if (__builtin_popcountll(m) == 1)
		return bit_test(f, m, eq);
	if (__builtin_popcountll(m) > MAX_BITS)
		return kfp_true(false);
	/* each bit of m as want has it: all of them (==), or one differs (!=) */
	r = eq ? kfp_true(true) : kfp_false();
	for (uint64_t rest = m; rest; rest &= rest - 1) {
		uint64_t b = rest & -rest;
		bool on = (want & b) != 0;

		r = eq ? kfp_and(r, bit_test(f, b, on)) : kfp_or(r, bit_test(f, b, !on));
	}
	return r;
}
