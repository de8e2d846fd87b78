/*
 * ltype.c - sizes of pre-CTF field types under a writer's ABI, and the
 * walk of a payload by its type (docs/legacy-formats.md 1.3, 2.5): the
 * alignment of each field relative to the block (base), the byte orders,
 * every read bounds-checked against the payload's length.
 */
#include "legacy/ltt-type.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "legacy/larena.h"

#define LTYPE_MAX_DEPTH	     64 /* typerefs may loop: a struct holding itself */
#define LTYPE_BASE_STEPS     (1u << 20)
#define LTYPE_STEPS_PER_BYTE 256
#define LTYPE_MAX_EMPTY	     65536 /* elements of no bytes (empty structs) a walk may repeat */

unsigned ltt_type_scalar_size(const struct ltt_type *t, const struct ltt_abi *abi)
{
	t = ltt_type_resolve(t);
	if (!t)
		return 0;
	switch (t->kind) {
	case LTT_SIGNED:
	case LTT_UNSIGNED:
	case LTT_FLOAT:
	case LTT_ENUM:
		break;
	default:
		return 0;
	}
	switch (t->size_ref) {
	case LTT_SIZE_INT:
		return abi->int_size;
	case LTT_SIZE_LONG:
		return abi->long_size;
	case LTT_SIZE_POINTER:
		return abi->pointer_size;
	case LTT_SIZE_SIZE_T:
		return abi->size_t_size;
	case LTT_SIZE_FIXED:
	default:
		return t->size;
	}
}

const struct ltt_type *ltt_type_resolve(const struct ltt_type *t)
{
	for (int hops = 0; t && t->kind == LTT_TYPEREF; hops++) {
		if (hops == LTYPE_MAX_DEPTH)
			return NULL; /* a loop of typerefs */
		t = t->ref;
	}
	return t;
}

struct walk {
	const struct ltt_abi *abi;
	const uint8_t *p;
	size_t len, base, off;
	const struct ltt_payload_sink *sink;
	void *arg;
	char *err;
	size_t errlen;
	unsigned depth;
	unsigned empty_elements; /* array elements that took no bytes, in the whole walk */
	/*
	 * Types visited (walked or measured): typerefs make a DAG whose tree
	 * may be exponential; a real payload visits at most a few per byte.
	 */
	size_t steps, max_steps;
	bool after_string; /* the last item read was a string */
	bool failed;
	struct ltt_plan *plan; /* planning (ltt_payload_plan): places, not values */
};

static int fail(struct walk *w, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(struct walk *w, const char *name, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->failed)
		return -1;
	w->failed = true;
	if (!w->errlen)
		return -1;
	n = snprintf(w->err, w->errlen, "field %s at offset %zu: ", name ? name : "(element)",
		     w->off);
	if (n < 0 || (size_t)n >= w->errlen) {
		lmsg_one_line(w->err);
		return -1;
	}
	va_start(ap, fmt);
	vsnprintf(w->err + n, w->errlen - n, fmt, ap);
	va_end(ap);
	lmsg_one_line(w->err);
	return -1;
}

/*
 * The alignment a type asks for, before the arch size caps it: a scalar's
 * size, 1 for strings, an array's element's, the larger of a sequence's
 * length and element, a struct's or union's largest member (a selector
 * counts as a member). 0: an undeclared type or a loop inside.
 */
static unsigned type_align_walk(struct walk *w, const struct ltt_type *t, unsigned depth);

/*
 * type_align_walk from the top, through the type's cache: only answers
 * found from depth 0 are kept (a nested call may have hit the depth cap),
 * and only non-zero ones (a zero is said by a walk that fails anyway).
 */
static unsigned type_align(struct walk *w, const struct ltt_type *t, unsigned depth)
{
	const struct ltt_abi *abi = w->abi;
	uint64_t key = 1ull << 32 | (uint64_t)abi->int_size | (uint64_t)abi->long_size << 8 |
		       (uint64_t)abi->pointer_size << 16 | (uint64_t)abi->size_t_size << 24;
	struct ltt_type *rt = (struct ltt_type *)ltt_type_resolve(t); /* (the cache only) */
	unsigned a;

	if (depth || !rt)
		return type_align_walk(w, t, depth);
	if (rt->align_key == key || rt->align_key == LTT_ALIGN_ANY_ABI)
		return rt->align_cached;
	a = type_align_walk(w, rt, 0);
	if (a) {
		rt->align_key = key;
		rt->align_cached = (uint8_t)a;
	}
	return a;
}

static unsigned type_align_walk(struct walk *w, const struct ltt_type *t, unsigned depth)
{
	const struct ltt_abi *abi = w->abi;
	unsigned a = 1, m;

	t = ltt_type_resolve(t);
	if (!t || depth > LTYPE_MAX_DEPTH || ++w->steps > w->max_steps)
		return 0;
	switch (t->kind) {
	case LTT_STRING:
		return 1;
	case LTT_ARRAY:
		return type_align(w, t->elem, depth + 1);
	case LTT_SEQUENCE:
		a = type_align(w, t->length_type, depth + 1);
		m = type_align(w, t->elem, depth + 1);
		return a && m ? (a > m ? a : m) : 0;
	case LTT_STRUCT:
	case LTT_UNION:
		if (t->typecode_size)
			a = t->typecode_size;
		for (size_t i = 0; i < t->nfields; i++) {
			if (!(m = type_align(w, t->fields[i].type, depth + 1)))
				return 0;
			a = m > a ? m : a;
		}
		return a;
	default:
		m = ltt_type_scalar_size(t, abi);
		return m ? m : 1;
	}
}

unsigned ltt_type_alignment(const struct ltt_type *t, const struct ltt_abi *abi)
{
	struct walk w = {.abi = abi, .max_steps = LTYPE_BASE_STEPS};

	return type_align_walk(&w, t, 0);
}

/* Pads w->off so that base + off is a multiple of min(A, want). */
static void align_to(struct walk *w, unsigned want)
{
	unsigned a = w->abi->alignment;

	if (w->after_string && w->abi->realign_after_string && a)
		want = a; /* genevent's fallback: the item after a string on the arch size */
	w->after_string = false;
	if (!a || want <= 1)
		return;
	if (want < a)
		a = want;
	w->off +=
	    ltt_pad(w->base + w->off, a); /* past len only when nothing follows: reads check */
}

/* A callback's answer: non-zero stops the walk. */
static int call(int r)
{
	return r ? -2 : 0;
}

/* Reads an unsigned integer of size bytes at w->off (not aligned here). */
static int read_uint(struct walk *w, const char *name, unsigned size, bool big, uint64_t *v)
{
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return fail(w, name, "integer size %u (1, 2, 4 or 8 expected)", size);
	if (w->off > w->len || w->len - w->off < size)
		return fail(w, name, "%u bytes past the end of the payload (%zu bytes)", size,
			    w->len);
	const uint8_t *b = w->p + w->off;
	bool swap = big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);

	/* every field of a walk comes here: loads, not a loop over bytes */
	switch (size) {
	case 1:
		*v = b[0];
		break;
	case 2: {
		uint16_t u;

		memcpy(&u, b, 2);
		*v = swap ? __builtin_bswap16(u) : u;
		break;
	}
	case 4: {
		uint32_t u;

		memcpy(&u, b, 4);
		*v = swap ? __builtin_bswap32(u) : u;
		break;
	}
	default: {
		uint64_t u;

		memcpy(&u, b, 8);
		*v = swap ? __builtin_bswap64(u) : u;
		break;
	}
	}
	w->off += size;
	return 0;
}

static uint64_t sign_extend(uint64_t v, unsigned size)
{
	if (size < 8 && (v >> (8 * size - 1)) & 1)
		v |= ~(uint64_t)0 << (8 * size);
	return v;
}

static bool enum_is_signed(const struct ltt_type *t)
{
	for (size_t i = 0; i < t->nlabels; i++)
		if (t->labels[i].value < 0)
			return true;
	return false;
}

static int walk_type(struct walk *w, const char *name, const struct ltt_type *t);
static int walk_type_aligned(struct walk *w, const char *name, const struct ltt_type *t,
			     unsigned a);

/* Planning: a scalar's place in the plan instead of its value. */
static int plan_scalar(struct walk *w, const char *name, unsigned size, bool big, bool is_float)
{
	struct ltt_plan *pl = w->plan;

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return fail(w, name, "integer size %u (1, 2, 4 or 8 expected)", size);
	if (pl->n == LTT_PLAN_MAX_ITEMS || w->off > UINT32_MAX - 8)
		return fail(w, name, "too many fields for a plan");
	pl->items[pl->n++] = (struct ltt_plan_item){
	    .off = (uint32_t)w->off, .size = (uint8_t)size, .big = big, .is_float = is_float};
	w->off += size;
	pl->need = w->off;
	return 0;
}

static int walk_scalar(struct walk *w, const char *name, const struct ltt_type *t)
{
	const struct ltt_payload_sink *s = w->sink;
	unsigned size = ltt_type_scalar_size(t, w->abi);
	uint64_t v;

	align_to(w, size);
	if (t->kind == LTT_FLOAT) {
		if (size != 4 && size != 8)
			return fail(w, name, "float size %u (4 or 8 expected)", size);
		if (w->plan)
			return plan_scalar(w, name, size, t->network || w->abi->float_big_endian,
					   true);
		if (read_uint(w, name, size, t->network || w->abi->float_big_endian, &v))
			return -1;
		double d;

		if (size == 4) {
			uint32_t u = (uint32_t)v;
			float f;

			memcpy(&f, &u, 4);
			d = f;
		} else {
			memcpy(&d, &v, 8);
		}
		return s && s->floating ? call(s->floating(w->arg, name, t, size, d)) : 0;
	}
	if (w->plan)
		return plan_scalar(w, name, size, t->network || w->abi->big_endian, false);
	if (read_uint(w, name, size, t->network || w->abi->big_endian, &v))
		return -1;
	if (t->kind == LTT_SIGNED)
		v = sign_extend(v, size);
	if (t->kind == LTT_ENUM) {
		const char *label = NULL;

		if (enum_is_signed(t))
			v = sign_extend(v, size);
		for (size_t i = 0; i < t->nlabels && !label; i++)
			if ((uint64_t)t->labels[i].value == v)
				label = t->labels[i].name;
		return s && s->enumeration ? call(s->enumeration(w->arg, name, t, size, v, label))
					   : 0;
	}
	return s && s->integer ? call(s->integer(w->arg, name, t, size, v)) : 0;
}

static int walk_string(struct walk *w, const char *name, const struct ltt_type *t)
{
	const uint8_t *nul;

	if (w->plan)
		return fail(w, name, "a string: no fixed layout");
	align_to(w, 1);
	if (w->off >= w->len)
		return fail(w, name, "a string past the end of the payload (%zu bytes)", w->len);
	nul = memchr(w->p + w->off, 0, w->len - w->off);
	if (!nul)
		return fail(w, name, "a string without its NUL before the end of the payload");
	const char *str = (const char *)w->p + w->off;
	size_t n = nul - (w->p + w->off);

	w->off += n + 1;
	if (w->sink && w->sink->string && w->sink->string(w->arg, name, t, str, n))
		return -2;
	w->after_string = true;
	return 0;
}

/* n elements of t->elem; n checked against the bytes left first. */
static int walk_elements(struct walk *w, const char *name, const struct ltt_type *t, uint64_t n)
{
	const struct ltt_payload_sink *s = w->sink;
	unsigned a = n ? type_align(w, t->elem, 0) : 0; /* (0: each element's walk says why) */
	int r;

	if (s && s->begin_array && s->begin_array(w->arg, name, t, n))
		return -2;
	for (uint64_t i = 0; i < n; i++) {
		size_t before = w->off;

		if ((r = walk_type_aligned(w, NULL, t->elem, a)))
			return r;
		/* elements of no bytes (empty structs) would let a huge count spin */
		if (w->off == before && ++w->empty_elements > LTYPE_MAX_EMPTY)
			return fail(w, name, "more than %d elements of no bytes", LTYPE_MAX_EMPTY);
	}
	return s && s->end_compound ? call(s->end_compound(w->arg, t)) : 0;
}

static int walk_fields(struct walk *w, const struct ltt_type *t)
{
	int r;

	for (size_t i = 0; i < t->nfields; i++)
		if ((r = walk_type(w, t->fields[i].name, t->fields[i].type)))
			return r;
	return 0;
}

static int walk_union(struct walk *w, const char *name, const struct ltt_type *t)
{
	const struct ltt_payload_sink *s = w->sink;
	int r;

	if (w->plan)
		return fail(w, name, "a union: no plan"); /* (rare: not worth one) */
	if (t->typecode_size) {
		uint64_t code;

		align_to(w, t->typecode_size);
		if (read_uint(w, name, t->typecode_size, w->abi->big_endian, &code))
			return -1;
		if (code >= t->nfields)
			return fail(w, name, "union code %" PRIu64 " out of range (%zu members)",
				    code, t->nfields);
		if (s && s->begin_union && s->begin_union(w->arg, name, t, code))
			return -2;
		if ((r = walk_type(w, t->fields[code].name, t->fields[code].type)))
			return r;
		return s && s->end_compound ? call(s->end_compound(w->arg, t)) : 0;
	}
	/* a C union: every member from the same offset; its size is the largest's */
	size_t start = w->off, end = start;
	bool after = w->after_string;

	if (s && s->begin_struct && s->begin_struct(w->arg, name, t))
		return -2;
	for (size_t i = 0; i < t->nfields; i++) {
		w->off = start;
		w->after_string = after;
		if ((r = walk_type(w, t->fields[i].name, t->fields[i].type)))
			return r;
		if (w->off > end)
			end = w->off;
	}
	w->off = end;
	w->after_string = false;
	return s && s->end_compound ? call(s->end_compound(w->arg, t)) : 0;
}

/*
 * walk_type with the alignment of t when the caller knows it (an array's
 * elements share one), else 0. Scalars and strings do not need it: their
 * own walks align them.
 */
static int walk_type_aligned(struct walk *w, const char *name, const struct ltt_type *t, unsigned a)
{
	const struct ltt_payload_sink *s = w->sink;
	const struct ltt_type *rt = ltt_type_resolve(t);
	int r;

	if (!rt) {
		if (t && t->kind == LTT_TYPEREF && t->name)
			return fail(w, name, "type '%s' is not declared", t->name);
		return fail(w, name, "no type (undeclared, or a loop of typerefs)");
	}
	t = rt;
	if (w->depth >= LTYPE_MAX_DEPTH)
		return fail(w, name, "types nested deeper than %d", LTYPE_MAX_DEPTH);
	if (!a && (t->kind == LTT_STRING || ltt_type_scalar_size(t, w->abi)))
		a = 1; /* (unused below) */
	if (++w->steps > w->max_steps || (!a && !(a = type_align(w, t, 0)))) {
		if (w->steps > w->max_steps)
			return fail(w, name, "a type of more parts than its payload could hold");
		return fail(w, name, "a member's type is not declared, or holds itself");
	}
	w->depth++;
	switch (t->kind) {
	case LTT_SIGNED:
	case LTT_UNSIGNED:
	case LTT_FLOAT:
	case LTT_ENUM:
		r = walk_scalar(w, name, t);
		break;
	case LTT_STRING:
		r = walk_string(w, name, t);
		break;
	case LTT_ARRAY:
		align_to(w, a);
		r = walk_elements(w, name, t, t->length);
		break;
	case LTT_SEQUENCE: {
		const struct ltt_type *lt = ltt_type_resolve(t->length_type);
		unsigned ls = lt ? ltt_type_scalar_size(lt, w->abi) : 0;
		uint64_t n;

		align_to(w, a);
		if (w->plan)
			r = fail(w, name, "a sequence: no fixed layout");
		else if (!lt || (lt->kind != LTT_UNSIGNED && lt->kind != LTT_SIGNED))
			r = fail(w, name, "a sequence whose length is not an integer");
		else if ((align_to(w, ls),
			  read_uint(w, name, ls, lt->network || w->abi->big_endian, &n)))
			r = -1;
		else if (lt->kind == LTT_SIGNED && (int64_t)sign_extend(n, ls) < 0)
			r = fail(w, name, "a negative sequence length");
		else if (n > LTYPE_MAX_EMPTY && n > (uint64_t)(w->len - w->off))
			/* more elements than bytes left: only empty elements would fit */
			r = fail(w, name, "sequence length %" PRIu64 " past the end of the payload",
				 n);
		else
			r = walk_elements(w, name, t, n);
		break;
	}
	case LTT_STRUCT:
		align_to(w, a);
		if (s && s->begin_struct && s->begin_struct(w->arg, name, t)) {
			r = -2;
			break;
		}
		r = walk_fields(w, t);
		if (!r && s && s->end_compound)
			r = call(s->end_compound(w->arg, t));
		break;
	case LTT_UNION:
		align_to(w, a);
		r = walk_union(w, name, t);
		break;
	default:
		r = fail(w, name, "unknown type kind %d", (int)t->kind);
		break;
	}
	w->depth--;
	return r;
}

static int walk_type(struct walk *w, const char *name, const struct ltt_type *t)
{
	return walk_type_aligned(w, name, t, 0);
}

long ltt_payload_decode(const struct ltt_type *t, const struct ltt_abi *abi, const uint8_t *p,
			size_t len, size_t base, const struct ltt_payload_sink *sink, void *arg,
			char *err, size_t errlen)
{
	struct walk w = {.abi = abi,
			 .p = p,
			 .len = len,
			 .base = base,
			 .sink = sink,
			 .arg = arg,
			 .err = err,
			 .errlen = errlen,
			 .max_steps = LTYPE_BASE_STEPS + LTYPE_STEPS_PER_BYTE * len};
	const struct ltt_type *rt = ltt_type_resolve(t);
	int r;

	if (errlen)
		err[0] = 0;
	if (abi->alignment & (abi->alignment - 1)) {
		if (errlen)
			snprintf(err, errlen, "alignment %u is not a power of 2", abi->alignment);
		return -1;
	}
	if (rt && rt->kind == LTT_STRUCT && !rt->typecode_size) {
		/* the payload's own struct: its fields are the event's, no begin/end */
		r = walk_fields(&w, rt);
	} else {
		r = walk_type(&w, NULL, t);
	}
	if (r == -2)
		return -2;
	if (r)
		return -1;
	if (w.off > len) /* trailing padding of an empty tail: not bytes of the payload */
		w.off = len;
	return (long)w.off;
}

long ltt_payload_size(const struct ltt_type *t, const struct ltt_abi *abi, const uint8_t *p,
		      size_t len, size_t base, char *err, size_t errlen)
{
	return ltt_payload_decode(t, abi, p, len, base, NULL, NULL, err, errlen);
}

struct ltt_plan *ltt_payload_plan(const struct ltt_type *t, const struct ltt_abi *abi, size_t base)
{
	/*
	 * The walk of ltt_payload_decode, recording places. Its step budget
	 * is the smallest a decode has, so that a type planned here is one
	 * every decode of a long enough payload walks to its end.
	 */
	struct walk w = {.abi = abi, .base = base, .max_steps = LTYPE_BASE_STEPS};
	const struct ltt_type *rt = ltt_type_resolve(t);
	struct ltt_plan *pl, *small;
	int r;

	if (abi->alignment & (abi->alignment - 1))
		return NULL;
	pl = malloc(sizeof(*pl) + LTT_PLAN_MAX_ITEMS * sizeof(pl->items[0]));
	if (!pl)
		return NULL;
	pl->n = pl->need = pl->size = 0;
	w.plan = pl;
	if (rt && rt->kind == LTT_STRUCT && !rt->typecode_size)
		r = walk_fields(&w, rt);
	else
		r = walk_type(&w, NULL, t);
	if (r) {
		free(pl);
		return NULL;
	}
	pl->size = w.off;
	small = realloc(pl, sizeof(*pl) + pl->n * sizeof(pl->items[0]));
	return small ? small : pl;
}
