/*
 * kfpush-internal.h - what the parts of the filter translator share
 * (kfpush.c walks the expression; kfpush-field.c finds what an LTTng
 * field is in the kernel's record; kfpush-int.c and kfpush-str.c write
 * the comparisons).
 *
 * Every part gives a struct kfp_res: the kernel filter text of a
 * sub-expression, or a constant truth, and whether it is exact. A result
 * that is not exact accepts more records than the LTTng expression (never
 * fewer): that is what may be pushed, since the LTTng filter still runs
 * after. Negation is pushed down to the comparisons (De Morgan), so an
 * inexact result is never negated.
 */
#ifndef TRAX_KERNEL_KFPUSH_INTERNAL_H
#define TRAX_KERNEL_KFPUSH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/kmap-internal.h"

enum kfp_value { KFP_TRUE, KFP_FALSE, KFP_TEXT };

/* How a text reads, for parentheses: one predicate, or a chain of && or ||. */
enum kfp_shape { KFP_ATOM, KFP_AND, KFP_OR };

struct kfp_res {
	enum kfp_value v;
	bool exact;
	enum kfp_shape shape;
	char *text; /* KFP_TEXT: malloc'ed */
};

/* The constant results. */
struct kfp_res kfp_true(bool exact);
struct kfp_res kfp_false(void);
/* A text result (text copied); KFP_TRUE, not exact, when out of memory. */
struct kfp_res kfp_text(const char *text, enum kfp_shape shape, bool exact);
void kfp_res_free(struct kfp_res *r);
/* a && b, a || b (both consumed). */
struct kfp_res kfp_and(struct kfp_res a, struct kfp_res b);
struct kfp_res kfp_or(struct kfp_res a, struct kfp_res b);

/* What an LTTng field is in the kernel's record. */
enum kfp_field_kind {
	KFP_FIELD_NONE = 0, /* cannot be filtered by the kernel */
	KFP_FIELD_INT,	    /* an integer: kernel field + k, truncated to dsize bytes */
	KFP_FIELD_BIT,	    /* bit `bit` of a kernel integer (0 or 1) */
	KFP_FIELD_CONST,    /* an integer constant (value) */
	KFP_FIELD_STR,	    /* a kernel char[size] (static) or __data_loc char[] string */
	KFP_FIELD_EMPTY,    /* a string that is always "" */
};

struct kfp_field {
	enum kfp_field_kind kind;
	const char *name;   /* the kernel's field */
	unsigned int ssize; /* the kernel field's bytes (1, 2, 4, 8) */
	bool ssigned;	    /* as the kernel compares it (its format's signed:) */
	int64_t k;	    /* added */
	unsigned int dsize; /* the LTTng field's bytes */
	bool dsigned;
	unsigned int bit;
	int64_t value;	     /* KFP_FIELD_CONST: as the filter sees it */
	unsigned int size;   /* KFP_FIELD_STR: char[size]; 0: __data_loc */
	bool nul_terminated; /* KFP_FIELD_STR: always holds a NUL (dynamic strings, comm) */
};

/*
 * The field an LTTng filter names in event m: name of a field ($ctx.tid
 * when ctx), out->kind KFP_FIELD_NONE when the kernel cannot filter it.
 */
void kfp_field_find(const struct kmap_event *m, const char *name, bool ctx, struct kfp_field *out);

/* `field CMP c` (cmp as struct filter_node's, negated when neg), field an integer kind. */
struct kfp_res kfp_int_cmp(const struct kfp_field *f, unsigned int cmp, int64_t c, bool neg);
/* `(field & mask) CMP c`, cmp == or != (negated when neg). */
struct kfp_res kfp_mask_cmp(const struct kfp_field *f, int64_t mask, unsigned int cmp, int64_t c,
			    bool neg);
/*
 * `field == literal` (!= when ne != neg): a plain string (len bytes), or
 * a star-glob pattern as LTTng writes it (glob).
 */
struct kfp_res kfp_str_cmp(const struct kfp_field *f, const char *lit, size_t len, bool glob,
			   bool ne);

/* The comparisons of struct filter_node.cmp. */
enum { KFP_EQ, KFP_NE, KFP_LT, KFP_GT, KFP_LE, KFP_GE };

#endif /* TRAX_KERNEL_KFPUSH_INTERNAL_H */
