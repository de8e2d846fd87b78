/*
 * syscall-guard.c - what of a channel's LTTng filters the system call
 * probes can check before they record (syscalls-abi.h: guards): the
 * comparisons of the event's integer fields that come from a register or
 * the return value, and of $ctx.tid and $ctx.pid, with constants; and
 * $ctx.procname equal to a name or a "prefix*" pattern.
 *
 * The filter's tree (src/filter/tree.h) is walked with its negations
 * carried down to the comparisons (De Morgan). Each sub-expression gives
 * true, false, or a set of guards, each a source and the intervals its
 * value must lie in. What the probes cannot see (strings, other contexts,
 * arithmetic, fields compared with fields) is true: it drops out of an
 * &&, and makes an || true. An && intersects the guards of one source and
 * keeps those of different sources (up to SC_MAX_GUARDS); an || of two
 * single guards on one source is their union; any other || is true. Where
 * more intervals would be needed than a guard holds, the closest ones
 * are joined: a guard may accept more than the filter, never less, since
 * traxd's exact check runs after.
 */
#include <stdlib.h>
#include <string.h>

#include "filter/tree.h"
#include "kernel/kfpush.h"
#include "kernel/syscall-table.h"

typedef __int128 i128;

#define MAX_PIECES (2 * SC_GUARD_RANGES * SC_GUARD_RANGES) /* before joining */

enum gval { G_TRUE, G_FALSE, G_SET };

struct gres {
	enum gval v;
	unsigned int n;
	struct sc_guard g[SC_MAX_GUARDS];
};

struct piece {
	i128 lo, hi;
};

static struct gres g_true(void)
{
	return (struct gres){.v = G_TRUE};
}

static struct gres g_false(void)
{
	return (struct gres){.v = G_FALSE};
}

/* The values the source of g can take, as the filter sees them. */
static void source_range(const struct sc_guard *g, i128 *lo, i128 *hi)
{
	unsigned int bits = g->size * 8u;

	if (bits >= 64) {
		*lo = INT64_MIN;
		*hi = INT64_MAX;
	} else if (g->is_signed) {
		*lo = -((i128)1 << (bits - 1));
		*hi = ((i128)1 << (bits - 1)) - 1;
	} else {
		*lo = 0;
		*hi = ((i128)1 << bits) - 1;
	}
}

static int by_lo(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * Puts pieces[0..n) into g's intervals: clipped to its source's values,
 * sorted, overlapping and adjacent ones merged, then the closest joined
 * until they fit. G_FALSE when none is left, G_TRUE when they cover every
 * value of the source, else G_SET.
 */
static enum gval ranges_set(struct sc_guard *g, struct piece *p, unsigned int n)
{
	i128 slo, shi;
	unsigned int m = 0;

	source_range(g, &slo, &shi);
	for (unsigned int i = 0; i < n; i++) {
		struct piece c = {p[i].lo > slo ? p[i].lo : slo, p[i].hi < shi ? p[i].hi : shi};

		if (c.lo <= c.hi)
			p[m++] = c;
	}
	if (!m)
		return G_FALSE;
	qsort(p, m, sizeof(*p), by_lo);
	n = 1;
	for (unsigned int i = 1; i < m; i++) {
		if (p[i].lo <= p[n - 1].hi + 1) {
			if (p[i].hi > p[n - 1].hi)
				p[n - 1].hi = p[i].hi;
		} else {
			p[n++] = p[i];
		}
	}
	while (n > SC_GUARD_RANGES) {
		unsigned int best = 0;

		for (unsigned int i = 1; i + 1 < n; i++)
			if (p[i + 1].lo - p[i].hi < p[best + 1].lo - p[best].hi)
				best = i;
		p[best].hi = p[best + 1].hi;
		memmove(&p[best + 1], &p[best + 2], (n - best - 2) * sizeof(*p));
		n--;
	}
	if (n == 1 && p[0].lo == slo && p[0].hi == shi)
		return G_TRUE;
	g->nranges = (uint8_t)n;
	for (unsigned int i = 0; i < n; i++) {
		g->lo[i] = (int64_t)p[i].lo;
		g->hi[i] = (int64_t)p[i].hi;
	}
	return G_SET;
}

/* Whether two guards' intervals can be combined (a name's guards cannot: each stays). */
static bool same_source(const struct sc_guard *a, const struct sc_guard *b)
{
	return a->src != SC_GUARD_COMM && a->src == b->src && a->size == b->size &&
	       a->is_signed == b->is_signed && a->sext32 == b->sext32;
}

/* Guard a's intervals with b's: intersected (and) or joined (or). */
static enum gval ranges_combine(struct sc_guard *a, const struct sc_guard *b, bool and)
{
	struct piece p[MAX_PIECES];
	unsigned int n = 0;

	if (and) {
		for (unsigned int i = 0; i < a->nranges; i++)
			for (unsigned int j = 0; j < b->nranges; j++) {
				i128 lo = a->lo[i] > b->lo[j] ? a->lo[i] : b->lo[j];
				i128 hi = a->hi[i] < b->hi[j] ? a->hi[i] : b->hi[j];

				if (lo <= hi)
					p[n++] = (struct piece){lo, hi};
			}
	} else {
		for (unsigned int i = 0; i < a->nranges; i++)
			p[n++] = (struct piece){a->lo[i], a->hi[i]};
		for (unsigned int j = 0; j < b->nranges; j++)
			p[n++] = (struct piece){b->lo[j], b->hi[j]};
	}
	return ranges_set(a, p, n);
}

static struct gres g_and(struct gres a, struct gres b)
{
	if (a.v == G_FALSE || b.v == G_FALSE)
		return g_false();
	if (a.v == G_TRUE)
		return b;
	if (b.v == G_TRUE)
		return a;
	for (unsigned int j = 0; j < b.n; j++) {
		unsigned int i = 0;

		while (i < a.n && !same_source(&a.g[i], &b.g[j]))
			i++;
		if (i < a.n) {
			if (ranges_combine(&a.g[i], &b.g[j], true) == G_FALSE)
				return g_false();
		} else if (a.n < SC_MAX_GUARDS) {
			a.g[a.n++] = b.g[j];
		} /* (else left out: the set accepts more) */
	}
	return a;
}

static struct gres g_or(struct gres a, struct gres b)
{
	if (a.v == G_TRUE || b.v == G_TRUE)
		return g_true();
	if (a.v == G_FALSE)
		return b;
	if (b.v == G_FALSE)
		return a;
	if (a.n == 1 && b.n == 1 && same_source(&a.g[0], &b.g[0])) {
		enum gval v = ranges_combine(&a.g[0], &b.g[0], false);

		return v == G_SET ? a : v == G_TRUE ? g_true() : g_false();
	}
	return g_true();
}

/* The guard's source for a field or context node: false when the probes cannot see it. */
static bool source_of(const struct sc_event *ev, const struct filter_node *n, struct sc_guard *g)
{
	memset(g, 0, sizeof(*g));
	if (n->kind == FILTER_NODE_CTX) {
		/* the kernel's thread and process ids, int32 contexts */
		if (strcmp(n->s, "tid") && strcmp(n->s, "pid"))
			return false;
		g->src = strcmp(n->s, "tid") ? SC_GUARD_TGID : SC_GUARD_TID;
		g->size = 4;
		g->is_signed = 1;
		return true;
	}
	if (n->kind != FILTER_NODE_FIELD)
		return false;
	for (unsigned int i = 0; i < ev->nfields; i++) {
		const struct ctfw_type *t = &ev->fields[i].type;
		const struct sc_fsrc *s = &ev->src[i];
		bool is_signed;

		if (strcmp(ev->fields[i].name, n->s))
			continue;
		if (t->kind == CTFW_TYPE_INTEGER)
			is_signed = t->integer.is_signed;
		else if (t->kind == CTFW_TYPE_ENUM)
			is_signed = t->enumeration.container.is_signed;
		else
			return false;
		if ((s->src != SC_SRC_ARG && s->src != SC_SRC_RET) || s->arg >= SC_MAX_ARGS ||
		    (s->size != 1 && s->size != 2 && s->size != 4 && s->size != 8))
			return false;
		g->src = s->src == SC_SRC_RET ? SC_GUARD_RET : s->arg;
		g->size = s->size;
		g->is_signed = is_signed;
		/* as syscall-payload.c writes a 32-bit call's signed 64-bit field */
		g->sext32 = s->src == SC_SRC_ARG && ev->compat && s->size == 8 && is_signed;
		return true;
	}
	return false;
}

/* `x cmp c` (negated when neg). */
static struct gres int_cmp(const struct sc_event *ev, const struct filter_node *x, unsigned int cmp,
			   int64_t c, bool neg)
{
	struct piece p[2];
	unsigned int n = 0;
	struct gres r = {.v = G_SET, .n = 1};
	int64_t v;

	if (neg)
		cmp = filter_tree_cmp_negate(cmp);
	if (filter_tree_const_int(x, &v))
		return filter_tree_cmp_holds(v, cmp, c) ? g_true() : g_false();
	if (!source_of(ev, x, &r.g[0]))
		return g_true();
	switch (cmp) {
	case FILTER_TREE_EQ:
		p[n++] = (struct piece){c, c};
		break;
	case FILTER_TREE_NE:
		p[n++] = (struct piece){INT64_MIN, (i128)c - 1};
		p[n++] = (struct piece){(i128)c + 1, INT64_MAX};
		break;
	case FILTER_TREE_LT:
		p[n++] = (struct piece){INT64_MIN, (i128)c - 1};
		break;
	case FILTER_TREE_GT:
		p[n++] = (struct piece){(i128)c + 1, INT64_MAX};
		break;
	case FILTER_TREE_LE:
		p[n++] = (struct piece){INT64_MIN, c};
		break;
	default:
		p[n++] = (struct piece){c, INT64_MAX};
		break;
	}
	r.v = ranges_set(&r.g[0], p, n);
	return r.v == G_SET ? r : r.v == G_TRUE ? g_true() : g_false();
}

/*
 * $ctx.procname equal to lit (a pattern when glob): the thread's name, up
 * to 15 bytes and its NUL, tested on its first len + 1 bytes (an exact
 * name) or on the prefix before a pattern's one, final star. Other
 * patterns, and escapes, are true.
 */
static struct gres name_equal(const char *lit, size_t len, bool glob)
{
	struct gres r = {.v = G_SET, .n = 1};
	struct sc_guard *g = &r.g[0];
	uint8_t v[16] = {0}, m[16] = {0};
	size_t n = len;

	if (glob) {
		if (!len || lit[len - 1] != '*' || memchr(lit, '\\', len))
			return g_true();
		n = len - 1;
		if (!n || memchr(lit, '*', n))
			return g_true(); /* ("*": every name) */
	} else if (memchr(lit, '\0', len)) {
		return g_true();
	}
	if (n > 15)
		return g_false(); /* longer than any name */
	memcpy(v, lit, n);
	memset(m, 0xff, glob ? n : n + 1); /* an exact name: its NUL too */
	g->src = SC_GUARD_COMM;
	g->size = 16;
	g->nranges = 1;
	memcpy(&g->lo[0], v, 8);
	memcpy(&g->lo[1], v + 8, 8);
	memcpy(&g->hi[0], m, 8);
	memcpy(&g->hi[1], m + 8, 8);
	return r;
}

static bool is_literal(const struct filter_node *n)
{
	return n->kind == FILTER_NODE_STR || n->kind == FILTER_NODE_GLOB;
}

static struct gres compare(const struct sc_event *ev, const struct filter_node *n, bool neg)
{
	const struct filter_node *a = n->a, *b = n->b;
	int64_t c;

	if (n->cmp > FILTER_TREE_GE)
		return g_true();
	if (is_literal(a)) {
		a = n->b;
		b = n->a;
	}
	if (is_literal(b)) {
		/* only `$ctx.procname == literal` (or its negated !=) says something */
		if (a->kind != FILTER_NODE_CTX || strcmp(a->s, "procname") ||
		    n->cmp != (neg ? FILTER_TREE_NE : FILTER_TREE_EQ))
			return g_true();
		return name_equal(b->s, b->len, b->kind == FILTER_NODE_GLOB);
	}
	if (filter_tree_const_int(n->b, &c))
		return int_cmp(ev, n->a, n->cmp, c, neg);
	if (filter_tree_const_int(n->a, &c))
		return int_cmp(ev, n->b, filter_tree_cmp_mirror(n->cmp), c, neg);
	return g_true(); /* strings, floats, fields with fields */
}

/* The guards of the records for which n is true (false when neg). */
static struct gres walk(const struct sc_event *ev, const struct filter_node *n, bool neg)
{
	switch (n->kind) {
	case FILTER_NODE_AND:
	case FILTER_NODE_OR: {
		struct gres a = walk(ev, n->a, neg), b = walk(ev, n->b, neg);

		return (n->kind == FILTER_NODE_AND) != neg ? g_and(a, b) : g_or(a, b);
	}
	case FILTER_NODE_NOT:
		return walk(ev, n->a, !neg);
	case FILTER_NODE_CMP:
		return compare(ev, n, neg);
	default:
		/* an integer's truth: != 0 */
		return int_cmp(ev, n, FILTER_TREE_NE, 0, neg);
	}
}

static struct gres rule_guards(const struct sc_event *ev, const struct kfpush_rule *r)
{
	struct filter_tree t;
	struct filter_error err;
	struct gres res;

	if (!r->code)
		return g_true();
	if (!r->linked)
		return g_false();
	if (filter_tree_build(r->code, r->len, &t, &err))
		return g_true();
	res = walk(ev, t.root, false);
	filter_tree_free(&t);
	return res;
}

int sc_guard_derive(const struct sc_event *ev, const struct kfpush_rule *rules, unsigned int n,
		    struct sc_guard_set *out)
{
	struct gres all = g_false();

	memset(out, 0, sizeof(*out));
	if (!n)
		return SC_GUARDS_ALL;
	for (unsigned int i = 0; i < n && all.v != G_TRUE; i++)
		all = g_or(all, rule_guards(ev, &rules[i]));
	if (all.v == G_TRUE)
		return SC_GUARDS_ALL;
	if (all.v == G_FALSE)
		return SC_GUARDS_NONE;
	out->n = all.n;
	memcpy(out->g, all.g, all.n * sizeof(all.g[0]));
	return SC_GUARDS_SOME;
}
