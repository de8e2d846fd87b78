/*
 * decode-field.c - the field decoder: a recursive walk of a type, reading
 * its bits from the packet. Every read is checked against c->limit first,
 * so a damaged stream gives an error, never a read past the packet.
 */
#include "reader/decode-field.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/bitfield.h"
#include "reader/decode-clock.h"
#include "reader/decode-prog.h"

static int fail(struct ctf_decode_ctx *c, uint64_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(struct ctf_decode_ctx *c, uint64_t pos, const char *fmt, ...)
{
	va_list ap;

	c->err_pos = pos;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* Moves c->pos up to a multiple of align bits (from the packet start). */
static inline int align_to(struct ctf_decode_ctx *c, unsigned int align)
{
	uint64_t rem, pos;

	if (align <= 1)
		return 0;
	/* Alignments are powers of two in practice: avoid the division. */
	rem = (align & (align - 1)) == 0 ? c->pos & (align - 1) : c->pos % align;
	if (rem == 0)
		return 0;
	pos = c->pos + (align - rem);
	if (pos < c->pos || pos > c->limit)
		return fail(c, c->pos,
			    "alignment on %u bits goes past the end of the packet content", align);
	c->pos = pos;
	return 0;
}

static int need(struct ctf_decode_ctx *c, uint64_t bits, const char *what)
{
	if (bits > c->limit - c->pos)
		return fail(
		    c, c->pos,
		    "%s of %llu bits goes past the end of the packet content (%llu bits left)",
		    what, (unsigned long long)bits, (unsigned long long)(c->limit - c->pos));
	return 0;
}

static inline __attribute__((always_inline)) uint64_t
read_bits(struct ctf_decode_ctx *c, unsigned size, enum ctf_byte_order bo)
{
	uint64_t v;

	if (bo == CTF_BYTE_ORDER_UNSET)
		bo = c->trace_byte_order;
	v = bo == CTF_BYTE_ORDER_BE ? ctf_bits_read_be(c->buf, c->pos, size)
				    : ctf_bits_read_le(c->buf, c->pos, size);
	c->pos += size;
	return v;
}

static int decode_integer(struct ctf_decode_ctx *c, const struct ctf_integer_type *it,
			  struct ctf_value *out)
{
	uint64_t v;

	if (it->size == 0 || it->size > 64)
		return fail(c, c->pos, "integer of %u bits", it->size);
	if (need(c, it->size, "integer"))
		return -1;
	v = read_bits(c, it->size, it->byte_order);
	/* (a signed field mapped to a clock does not move it, in Babeltrace 2 either) */
	if (it->clock && !it->is_signed)
		c->clock = ctf_clock_update(c->clock, v, it->size);
	out->u.u = it->is_signed ? (uint64_t)ctf_bits_sign_extend(v, it->size) : v;
	return 0;
}

static int decode_float(struct ctf_decode_ctx *c, const struct ctf_float_type *ft,
			struct ctf_value *out)
{
	unsigned size = ft->exp_dig + ft->mant_dig;
	uint64_t bits;

	if (size != 32 && size != 64)
		return fail(c, c->pos, "floating point number of %u bits", size);
	if (need(c, size, "floating point number"))
		return -1;
	bits = read_bits(c, size, ft->byte_order);
	if (size == 32) {
		uint32_t b32 = (uint32_t)bits;
		float f;

		memcpy(&f, &b32, sizeof(f));
		out->u.d = f;
	} else {
		memcpy(&out->u.d, &bits, sizeof(out->u.d));
	}
	return 0;
}

static int decode_string(struct ctf_decode_ctx *c, struct ctf_value *out)
{
	const uint8_t *start, *nul;
	uint64_t avail;

	if (c->pos % 8)
		return fail(c, c->pos, "string not aligned on a byte");
	start = c->buf + c->pos / 8;
	avail = (c->limit - c->pos) / 8;
	nul = memchr(start, 0, avail);
	if (!nul)
		return fail(c, c->pos, "string without a NUL before the end of the packet content");
	out->u.str.ptr = (const char *)start;
	out->u.str.len = (uint64_t)(nul - start);
	c->pos += (out->u.str.len + 1) * 8;
	return 0;
}

void ctf_decode_ctx_release(struct ctf_decode_ctx *c)
{
	ctf_decode_progs_free(c);
}

static int decode_struct(struct ctf_decode_ctx *c, const struct ctf_type *t, struct ctf_value *out)
{
	const struct ctf_struct_type *st = &t->u.structure;
	struct ctf_value *items;
	unsigned int i;

	items = ctf_value_pool_alloc(c->pool, st->field_count);
	if (!items)
		return fail(c, c->pos, "too many fields in one event (or out of memory)");
	out->u.list.items = items;
	out->u.list.count = 0;
	for (i = 0; i < st->field_count; i++) {
		/* Counted before decoding: paths may enter the field being decoded. */
		out->u.list.count = i + 1;
		if (ctf_decode_field(c, st->fields[i].type, &items[i]))
			return -1;
	}
	return 0;
}

/* The bytes of a text array or sequence of n elements. */
static int decode_text(struct ctf_decode_ctx *c, const struct ctf_type *elem, uint64_t n,
		       struct ctf_value *out)
{
	uint64_t i;
	uint8_t *copy;

	if (align_to(c, elem->align))
		return -1;
	if (n > (c->limit - c->pos) / 8)
		return fail(c, c->pos, "text of %llu bytes goes past the end of the packet content",
			    (unsigned long long)n);
	out->u.str.len = n;
	if (c->pos % 8 == 0) {
		out->u.str.ptr = (const char *)c->buf + c->pos / 8;
		c->pos += n * 8;
		return 0;
	}
	/* 8-bit characters not on byte boundaries (align(1)): copy them out. */
	copy = ctf_value_pool_bytes(c->pool, n);
	if (!copy)
		return fail(c, c->pos, "text too long for one event (or out of memory)");
	for (i = 0; i < n; i++)
		copy[i] = (uint8_t)read_bits(c, 8, elem->u.integer.byte_order);
	out->u.str.ptr = (const char *)copy;
	return 0;
}

static int decode_elements(struct ctf_decode_ctx *c, const struct ctf_type *elem, uint64_t n,
			   struct ctf_value *out)
{
	struct ctf_value *items;
	uint64_t i;

	if (ctf_type_is_text_element(elem))
		return decode_text(c, elem, n, out);
	items = ctf_value_pool_alloc(c->pool, n);
	if (!items)
		return fail(c, c->pos, "array of %llu elements too large for one event",
			    (unsigned long long)n);
	out->u.list.items = items;
	out->u.list.count = 0;
	for (i = 0; i < n; i++) {
		out->u.list.count = i + 1;
		if (ctf_decode_field(c, elem, &items[i]))
			return -1;
	}
	return 0;
}

const struct ctf_value *ctf_decode_lookup(const struct ctf_decode_ctx *c,
					  const struct ctf_field_path *p)
{
	const struct ctf_value *v;
	unsigned int i;

	if ((unsigned)p->scope >= CTF_SCOPE_COUNT)
		return NULL;
	v = c->roots[p->scope];
	for (i = 0; v && i < p->length; i++) {
		int32_t s = p->steps[i];

		switch (v->type->kind) {
		case CTF_TYPE_STRUCT:
			if (s < 0 || (uint64_t)s >= v->u.list.count)
				return NULL;
			v = &v->u.list.items[s];
			break;
		case CTF_TYPE_VARIANT:
			if (!v->u.variant.value || (int64_t)v->u.variant.option != s)
				return NULL;
			v = v->u.variant.value;
			break;
		case CTF_TYPE_ARRAY:
		case CTF_TYPE_SEQUENCE: {
			const struct ctf_type *elem = v->type->kind == CTF_TYPE_ARRAY
							  ? v->type->u.array.element
							  : v->type->u.sequence.element;

			if (s != CTF_PATH_CURRENT_ELEMENT || ctf_type_is_text_element(elem) ||
			    v->u.list.count == 0)
				return NULL;
			v = &v->u.list.items[v->u.list.count - 1];
			break;
		}
		default:
			return NULL;
		}
	}
	return v;
}

static int decode_sequence(struct ctf_decode_ctx *c, const struct ctf_sequence_type *sq,
			   struct ctf_value *out)
{
	const struct ctf_value *len = ctf_decode_lookup(c, &sq->length);

	if (!len || (len->type->kind != CTF_TYPE_INTEGER && len->type->kind != CTF_TYPE_ENUM))
		return fail(c, c->pos, "the length of a sequence (%s) is not a decoded integer",
			    sq->length_name ? sq->length_name : "?");
	if (len->type->kind == CTF_TYPE_INTEGER ? len->type->u.integer.is_signed
						: len->type->u.enumeration.container.is_signed) {
		if (len->u.s < 0)
			return fail(c, c->pos, "negative sequence length %lld (%s)",
				    (long long)len->u.s, sq->length_name ? sq->length_name : "?");
	}
	return decode_elements(c, sq->element, len->u.u, out);
}

int64_t ctf_variant_option_of_tag(const struct ctf_variant_type *vt, const struct ctf_value *tag)
{
	const struct ctf_enum_type *e = &vt->tag_type->u.enumeration;
	int64_t best = -1;

	/*
	 * The option of the first mapping, in option order, whose range holds
	 * the tag: the order Babeltrace tries its option ranges in.
	 */
	for (unsigned int i = 0; i < e->mapping_count; i++) {
		const struct ctf_enum_mapping *m = &e->mappings[i];
		int32_t opt = vt->option_of_mapping[i];
		bool in = e->container.is_signed
			      ? tag->u.s >= (int64_t)m->start && tag->u.s <= (int64_t)m->end
			      : tag->u.u >= m->start && tag->u.u <= m->end;

		if (in && opt >= 0 && (best < 0 || opt < best))
			best = opt;
	}
	return best;
}

static int decode_variant(struct ctf_decode_ctx *c, const struct ctf_variant_type *vt,
			  struct ctf_value *out)
{
	const struct ctf_value *tag = ctf_decode_lookup(c, &vt->tag);
	const struct ctf_enum_type *e;
	int64_t best;
	struct ctf_value *child;

	out->u.variant.value = NULL;
	if (!tag || tag->type->kind != CTF_TYPE_ENUM || !vt->tag_type ||
	    vt->tag_type->kind != CTF_TYPE_ENUM)
		return fail(c, c->pos, "the tag of a variant (%s) is not a decoded enumeration",
			    vt->tag_name ? vt->tag_name : "?");
	e = &vt->tag_type->u.enumeration;
	best = ctf_variant_option_of_tag(vt, tag);
	if (best < 0 || (uint64_t)best >= vt->option_count) {
		if (e->container.is_signed)
			return fail(c, c->pos, "no variant option for tag %s = %lld",
				    vt->tag_name ? vt->tag_name : "?", (long long)tag->u.s);
		return fail(c, c->pos, "no variant option for tag %s = %llu",
			    vt->tag_name ? vt->tag_name : "?", (unsigned long long)tag->u.u);
	}
	child = ctf_value_pool_alloc(c->pool, 1);
	if (!child)
		return fail(c, c->pos, "too many fields in one event (or out of memory)");
	child->type = vt->options[best].type;
	out->u.variant.option = (uint32_t)best;
	out->u.variant.value = child;
	return ctf_decode_field(c, vt->options[best].type, child);
}

int ctf_decode_field(struct ctf_decode_ctx *c, const struct ctf_type *t, struct ctf_value *out)
{
	out->type = t;
	/* Structs first: lookups may reach this value while its fields decode. */
	if (t->kind == CTF_TYPE_STRUCT || t->kind == CTF_TYPE_ARRAY ||
	    t->kind == CTF_TYPE_SEQUENCE) {
		out->u.list.items = NULL;
		out->u.list.count = 0;
	}
	if (align_to(c, t->align))
		return -1;
	switch (t->kind) {
	case CTF_TYPE_INTEGER:
		return decode_integer(c, &t->u.integer, out);
	case CTF_TYPE_ENUM:
		return decode_integer(c, &t->u.enumeration.container, out);
	case CTF_TYPE_FLOAT:
		return decode_float(c, &t->u.floating, out);
	case CTF_TYPE_STRING:
		return decode_string(c, out);
	case CTF_TYPE_STRUCT:
		return decode_struct(c, t, out);
	case CTF_TYPE_ARRAY:
		return decode_elements(c, t->u.array.element, t->u.array.length, out);
	case CTF_TYPE_SEQUENCE:
		return decode_sequence(c, &t->u.sequence, out);
	case CTF_TYPE_VARIANT:
		return decode_variant(c, &t->u.variant, out);
	}
	return fail(c, c->pos, "unknown type kind %d", (int)t->kind);
}

int ctf_decode_scope(struct ctf_decode_ctx *c, enum ctf_scope scope, const struct ctf_type *t,
		     struct ctf_value **out)
{
	struct ctf_decode_prog *p = ctf_decode_prog_get(c, scope, t);
	struct ctf_value *root;

	if (p) {
		int st;

		root = ctf_decode_prog_root(p, 0);
		st = ctf_decode_prog_run(p, c);
		if (st <= 0) {
			*out = root;
			return st;
		}
		/* it gave up: the generic decoder finds (and names) the fault */
	}
	root = ctf_value_pool_alloc(c->pool, 1);
	if (!root)
		return fail(c, c->pos, "out of memory");
	root->type = t;
	root->u.list.items = NULL;
	root->u.list.count = 0;
	c->roots[scope] = root;
	*out = root;
	return ctf_decode_field(c, t, root);
}
