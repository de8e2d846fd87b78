/*
 * kfpush.c - an LTTng filter's expression (src/filter's tree of its
 * bytecode) in the kernel's event filter syntax (see kfpush.h).
 *
 * The walk carries a negation down to the comparisons (De Morgan: the
 * kernel's `!` is only needed for bit tests and patterns), and gives for
 * every sub-expression either the kernel's text or a constant truth,
 * with whether it is exact. What cannot be said is "true, inexact": it
 * drops out of an &&, and makes an || true. The kernel's syntax has
 * && above ||, `!` before a predicate or a parenthesized group.
 */
#include "kernel/kfpush.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter/tree.h"
#include "kernel/kfpush-internal.h"

/* An expression the kernel always rejects. */
#define KFPUSH_NEVER "common_pid < 0 && common_pid >= 0"

struct kfp_res kfp_true(bool exact)
{
	return (struct kfp_res){.v = KFP_TRUE, .exact = exact};
}

struct kfp_res kfp_false(void)
{
	return (struct kfp_res){.v = KFP_FALSE, .exact = true};
}

struct kfp_res kfp_text(const char *text, enum kfp_shape shape, bool exact)
{
	char *t = strdup(text ? text : "");

	if (!t)
		return kfp_true(false);
	return (struct kfp_res){.v = KFP_TEXT, .exact = exact, .shape = shape, .text = t};
}

void kfp_res_free(struct kfp_res *r)
{
	free(r->text);
	r->text = NULL;
}

/* "a OP b", each operand in parentheses when its shape is the other chain's. */
static struct kfp_res join(struct kfp_res a, struct kfp_res b, enum kfp_shape shape)
{
	const char *op = shape == KFP_AND ? " && " : " || ";
	bool pa = shape == KFP_AND && a.shape == KFP_OR, pb = shape == KFP_AND && b.shape == KFP_OR;
	size_t n = strlen(a.text) + strlen(b.text) + 9;
	char *t = malloc(n);
	struct kfp_res r;

	if (!t) {
		kfp_res_free(&a);
		kfp_res_free(&b);
		/* an && may drop what it cannot hold; an || may not */
		return kfp_true(false);
	}
	snprintf(t, n, "%s%s%s%s%s%s%s", pa ? "(" : "", a.text, pa ? ")" : "", op, pb ? "(" : "",
		 b.text, pb ? ")" : "");
	r = (struct kfp_res){.v = KFP_TEXT, .exact = a.exact && b.exact, .shape = shape, .text = t};
	kfp_res_free(&a);
	kfp_res_free(&b);
	return r;
}

struct kfp_res kfp_and(struct kfp_res a, struct kfp_res b)
{
	if (a.v == KFP_FALSE || b.v == KFP_FALSE) {
		kfp_res_free(&a);
		kfp_res_free(&b);
		return kfp_false();
	}
	if (a.v == KFP_TRUE) {
		b.exact = b.exact && a.exact;
		return b;
	}
	if (b.v == KFP_TRUE) {
		a.exact = a.exact && b.exact;
		return a;
	}
	return join(a, b, KFP_AND);
}

struct kfp_res kfp_or(struct kfp_res a, struct kfp_res b)
{
	if (a.v == KFP_TRUE || b.v == KFP_TRUE) {
		bool exact = (a.v == KFP_TRUE && a.exact) || (b.v == KFP_TRUE && b.exact);

		kfp_res_free(&a);
		kfp_res_free(&b);
		return kfp_true(exact);
	}
	if (a.v == KFP_FALSE)
		return b;
	if (b.v == KFP_FALSE)
		return a;
	return join(a, b, KFP_OR);
}

/* ---- the expression ---- */

static bool is_field(const struct filter_node *n)
{
	return n->kind == FILTER_NODE_FIELD || n->kind == FILTER_NODE_CTX;
}

static void field_of(const struct kmap_event *m, const struct filter_node *n, struct kfp_field *f)
{
	kfp_field_find(m, n->s, n->kind == FILTER_NODE_CTX, f);
}

/* `x cmp c` for an integer expression x. */
static struct kfp_res int_cmp(const struct kmap_event *m, const struct filter_node *x,
			      unsigned int cmp, int64_t c, bool neg)
{
	struct kfp_field f;
	int64_t v;

	if (filter_tree_const_int(x, &v))
		return filter_tree_cmp_holds(v, cmp, c) != neg ? kfp_true(true) : kfp_false();
	if (is_field(x)) {
		field_of(m, x, &f);
		return kfp_int_cmp(&f, cmp, c, neg);
	}
	if (x->kind == FILTER_NODE_BIT_AND) {
		const struct filter_node *fn = x->a, *mn = x->b;

		if (!is_field(fn)) {
			fn = x->b;
			mn = x->a;
		}
		if (is_field(fn) && filter_tree_const_int(mn, &v)) {
			field_of(m, fn, &f);
			return kfp_mask_cmp(&f, v, cmp, c, neg);
		}
	}
	return kfp_true(false);
}

static bool is_literal(const struct filter_node *n)
{
	return n->kind == FILTER_NODE_STR || n->kind == FILTER_NODE_GLOB;
}

static struct kfp_res compare(const struct kmap_event *m, const struct filter_node *n, bool neg)
{
	const struct filter_node *a = n->a, *b = n->b;
	unsigned int cmp = n->cmp;
	struct kfp_field f;
	int64_t c;

	if (cmp > KFP_GE)
		return kfp_true(false);
	if (is_literal(a) && !is_literal(b)) {
		a = n->b;
		b = n->a;
		cmp = filter_tree_cmp_mirror(cmp);
	}
	if (is_literal(b)) {
		if (!is_field(a) || (cmp != KFP_EQ && cmp != KFP_NE))
			return kfp_true(false);
		field_of(m, a, &f);
		return kfp_str_cmp(&f, b->s, b->len, b->kind == FILTER_NODE_GLOB,
				   (cmp == KFP_NE) != neg);
	}
	if (filter_tree_const_int(b, &c))
		return int_cmp(m, a, cmp, c, neg);
	if (filter_tree_const_int(a, &c))
		return int_cmp(m, b, filter_tree_cmp_mirror(cmp), c, neg);
	return kfp_true(false); /* fields with fields, floats */
}

/* The kernel filter accepting (at least) the records for which n is true (false when neg). */
static struct kfp_res walk(const struct kmap_event *m, const struct filter_node *n, bool neg)
{
	switch (n->kind) {
	case FILTER_NODE_AND:
	case FILTER_NODE_OR: {
		struct kfp_res a = walk(m, n->a, neg), b = walk(m, n->b, neg);

		return (n->kind == FILTER_NODE_AND) != neg ? kfp_and(a, b) : kfp_or(a, b);
	}
	case FILTER_NODE_NOT:
		return walk(m, n->a, !neg);
	case FILTER_NODE_CMP:
		return compare(m, n, neg);
	default:
		/* an integer's truth: != 0 */
		return int_cmp(m, n, KFP_NE, 0, neg);
	}
}

/* One rule's filter for m. */
static struct kfp_res rule_filter(const struct kmap_event *m, const struct kfpush_rule *r)
{
	struct filter_tree t;
	struct filter_error err;
	struct kfp_res res;

	if (!r->code)
		return kfp_true(true);
	if (!r->linked)
		return kfp_false();
	if (filter_tree_build(r->code, r->len, &t, &err))
		return kfp_true(false);
	res = walk(m, t.root, false);
	filter_tree_free(&t);
	return res;
}

int kfpush_translate(const struct kmap_event *m, const struct kfpush_rule *rules, unsigned int n,
		     char *out, size_t cap, bool *exact)
{
	struct kfp_res all = kfp_false();
	const char *text;
	size_t len;

	if (exact)
		*exact = false;
	if (!n)
		return 0;
	for (unsigned int i = 0; i < n && all.v != KFP_TRUE; i++)
		all = kfp_or(all, rule_filter(m, &rules[i]));
	if (all.v == KFP_TRUE)
		return 0;
	text = all.v == KFP_FALSE ? KFPUSH_NEVER : all.text;
	len = strlen(text);
	if (len >= cap || len >= KFPUSH_MAX_TEXT) {
		kfp_res_free(&all);
		return 0;
	}
	memcpy(out, text, len + 1);
	if (exact)
		*exact = all.exact;
	kfp_res_free(&all);
	return 1;
}
