/*
 * lconvert-type.c - legacy field types as the CTF writer's types, and the
 * sink writing payload values as CTF records (lconvert-type.h).
 */
#include "legacy/lconvert-type.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deeper types than this (a typeref cycle) are described as an empty struct. */
#define MAX_DEPTH 64

struct lconv_chunk {
	struct lconv_chunk *next;
	max_align_t data[];
};

static void *arena_alloc(struct lconv_arena *a, size_t n)
{
	struct lconv_chunk *c;

	if (a->failed)
		return NULL;
	c = calloc(1, sizeof(*c) + n);
	if (!c) {
		a->failed = 1;
		return NULL;
	}
	c->next = a->chunks;
	a->chunks = c;
	return c->data;
}

void lconv_arena_free(struct lconv_arena *a)
{
	while (a->chunks) {
		struct lconv_chunk *n = a->chunks->next;

		free(a->chunks);
		a->chunks = n;
	}
}

/* A C identifier made of name (NULL or "" → fallback), with suffix when given. */
static const char *ident(struct lconv_arena *a, const char *name, const char *fallback,
			 const char *suffix)
{
	const char *src = name && *name ? name : fallback;
	size_t n = strlen(src), m = suffix ? strlen(suffix) : 0;
	char *s = arena_alloc(a, n + m + 2);

	if (!s)
		return "";
	for (size_t i = 0; i < n; i++) {
		char c = src[i];

		s[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
			       (c >= '0' && c <= '9')
			   ? c
			   : '_';
	}
	if (m)
		memcpy(s + n, suffix, m);
	s[n + m] = 0;
	return s;
}

/* A list of fields being built (then copied into the arena). */
struct field_list {
	struct ctfw_field *v;
	unsigned int n, cap;
	int failed;
};

static struct ctfw_field *list_add(struct field_list *l)
{
	if (l->n == l->cap) {
		unsigned int cap = l->cap ? l->cap * 2 : 8;
		struct ctfw_field *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			l->failed = 1;
			return NULL;
		}
		l->v = v;
		l->cap = cap;
	}
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	return &l->v[l->n++];
}

/* The list's fields in the arena, l freed. */
static const struct ctfw_field *list_done(struct lconv_arena *a, struct field_list *l,
					  unsigned int *n)
{
	struct ctfw_field *f = NULL;

	if (!l->failed && l->n) {
		f = arena_alloc(a, l->n * sizeof(*f));
		if (f)
			memcpy(f, l->v, l->n * sizeof(*f));
	}
	if (l->failed)
		a->failed = 1;
	*n = f ? l->n : 0;
	free(l->v);
	return f;
}

static bool taken(const struct field_list *l, const char *name)
{
	for (unsigned int i = 0; i < l->n; i++)
		if (l->v[i].name && !strcmp(l->v[i].name, name))
			return true;
	return false;
}

/* name, or name_2, name_3... when the list has it already (TSDL wants them distinct). */
static const char *unique_name(struct lconv_arena *a, const struct field_list *l, const char *name)
{
	char suffix[16];
	const char *cand = name;

	for (unsigned int k = 2; taken(l, cand) && k < 100000; k++) {
		snprintf(suffix, sizeof(suffix), "_%u", k);
		cand = ident(a, name, "f", suffix);
	}
	return cand;
}

static const struct ltt_type *resolved(const struct ltt_type *t)
{
	const struct ltt_type *r = t ? ltt_type_resolve(t) : NULL;

	return r;
}

/*
 * Text: arrays and sequences of <char> (signed). Those of <uchar> stay
 * numbers: bytes (addresses, raw data) more often than text, and what the
 * test writer lists them as (docs/legacy-formats.md "How trax reads them").
 */
static bool is_char_elem(const struct ltt_type *e, const struct ltt_abi *abi)
{
	return e && e->is_char && e->kind == LTT_SIGNED && ltt_type_scalar_size(e, abi) == 1;
}

/*
 * An integer's bytes in the CTF record: its size, within 1..8 (a
 * malformed description's 0 or 16 must still give a record its
 * description reads: the sink writes the same count).
 */
static unsigned clamp_bytes(unsigned size)
{
	return size < 1 ? 1 : size > 8 ? 8 : size;
}

static struct ctfw_integer int_of(const struct ltt_type *t, const struct ltt_abi *abi,
				  bool is_signed)
{
	unsigned size = clamp_bytes(ltt_type_scalar_size(t, abi));
	unsigned base = t->base == 16 || t->base == 8 || t->base == 2 ? t->base : 10;

	return ctfw_integer(size * 8, is_signed, base);
}

static void fill_type(struct lconv_arena *a, struct ctfw_type *out, const struct ltt_type *t,
		      const struct ltt_abi *abi, int depth);

/* Appends the field(s) of member name of type t to l: two for a union with a selector. */
static void add_member(struct lconv_arena *a, struct field_list *l, const char *name,
		       const struct ltt_type *t, const struct ltt_abi *abi, int depth)
{
	const struct ltt_type *r = resolved(t);
	const char *id = unique_name(a, l, ident(a, name, "field", NULL));
	struct ctfw_field *f;

	if (r && r->kind == LTT_UNION && r->typecode_size && r->nfields && depth < MAX_DEPTH) {
		struct ctfw_enum_mapping *m = arena_alloc(a, r->nfields * sizeof(*m));
		struct field_list opts = {0};
		const char *tag = unique_name(a, l, ident(a, id, "field", "_tag"));

		if (!m)
			return;
		for (size_t i = 0; i < r->nfields; i++) {
			struct ctfw_field *o = list_add(&opts);
			const char *oname;

			if (!o)
				break;
			oname = ident(a, r->fields[i].name, "option", NULL);
			/* distinct option names */
			opts.n--;
			oname = unique_name(a, &opts, oname);
			opts.n++;
			o->name = oname;
			fill_type(a, &o->type, r->fields[i].type, abi, depth + 1);
			m[i].label = ident(a, "_", "_", oname);
			m[i].start = m[i].end = (int64_t)i;
		}
		f = list_add(l);
		if (!f)
			return;
		f->name = tag;
		f->type.kind = CTFW_TYPE_ENUM;
		f->type.enumeration.container =
		    ctfw_integer(clamp_bytes(r->typecode_size) * 8u, false, 10);
		f->type.enumeration.mappings = m;
		f->type.enumeration.nr_mappings = (unsigned int)r->nfields;
		f = list_add(l);
		if (!f)
			return;
		f->name = id;
		f->type.kind = CTFW_TYPE_VARIANT;
		f->type.variant.tag = tag;
		f->type.variant.options = list_done(a, &opts, &f->type.variant.nr_options);
		return;
	}
	f = list_add(l);
	if (!f)
		return;
	f->name = id;
	fill_type(a, &f->type, t, abi, depth + 1);
}

/* The fields of a struct (or of a union without selector: all its members). */
static void fill_struct(struct lconv_arena *a, struct ctfw_type *out, const struct ltt_type *r,
			const struct ltt_abi *abi, int depth)
{
	struct field_list l = {0};

	out->kind = CTFW_TYPE_STRUCT;
	for (size_t i = 0; r && i < r->nfields; i++)
		add_member(a, &l, r->fields[i].name, r->fields[i].type, abi, depth);
	out->structure.fields = list_done(a, &l, &out->structure.nr_fields);
}

/* An element type: a union with a selector is wrapped in a struct {v_tag, v}. */
static const struct ctfw_type *elem_type(struct lconv_arena *a, const struct ltt_type *e,
					 const struct ltt_abi *abi, int depth)
{
	struct ctfw_type *t = arena_alloc(a, sizeof(*t));
	const struct ltt_type *r = resolved(e);

	if (!t)
		return NULL;
	if (is_char_elem(r, abi)) {
		t->kind = CTFW_TYPE_INTEGER;
		t->integer = ctfw_integer(8, r->kind == LTT_SIGNED, 10);
		t->integer.encoding = CTFW_ENCODING_UTF8;
	} else if (r && r->kind == LTT_UNION && r->typecode_size && r->nfields) {
		struct field_list l = {0};

		add_member(a, &l, "v", r, abi, depth);
		t->kind = CTFW_TYPE_STRUCT;
		t->structure.fields = list_done(a, &l, &t->structure.nr_fields);
	} else {
		fill_type(a, t, e, abi, depth);
	}
	return t;
}

static void fill_type(struct lconv_arena *a, struct ctfw_type *out, const struct ltt_type *t,
		      const struct ltt_abi *abi, int depth)
{
	const struct ltt_type *r = resolved(t);

	memset(out, 0, sizeof(*out));
	if (!r || depth >= MAX_DEPTH) {
		out->kind = CTFW_TYPE_STRUCT; /* undeclared: nothing can be read of it */
		return;
	}
	switch (r->kind) {
	case LTT_SIGNED:
	case LTT_UNSIGNED:
		out->kind = CTFW_TYPE_INTEGER;
		out->integer = int_of(r, abi, r->kind == LTT_SIGNED);
		break;
	case LTT_FLOAT:
		out->kind = CTFW_TYPE_FLOAT;
		out->floating = ctfw_float_bits(ltt_type_scalar_size(r, abi) == 4 ? 32 : 64);
		break;
	case LTT_STRING:
		out->kind = CTFW_TYPE_STRING;
		break;
	case LTT_ENUM: {
		bool sgn = false;
		struct ctfw_enum_mapping *m;

		for (size_t i = 0; i < r->nlabels; i++)
			sgn |= r->labels[i].value < 0;
		if (!r->nlabels) { /* TSDL wants a mapping: a plain integer */
			out->kind = CTFW_TYPE_INTEGER;
			out->integer = int_of(r, abi, false);
			break;
		}
		m = arena_alloc(a, r->nlabels * sizeof(*m));
		if (!m)
			break;
		for (size_t i = 0; i < r->nlabels; i++) {
			m[i].label = r->labels[i].name ? r->labels[i].name : "";
			m[i].start = m[i].end = r->labels[i].value;
			m[i].start_signed = m[i].end_signed = sgn;
		}
		out->kind = CTFW_TYPE_ENUM;
		out->enumeration.container = int_of(r, abi, sgn);
		out->enumeration.mappings = m;
		out->enumeration.nr_mappings = (unsigned int)r->nlabels;
		break;
	}
	case LTT_ARRAY:
		out->kind = CTFW_TYPE_ARRAY;
		out->array.elem = elem_type(a, r->elem, abi, depth + 1);
		out->array.length = (uint32_t)r->length;
		break;
	case LTT_SEQUENCE: {
		const struct ltt_type *lt = resolved(r->length_type);

		out->kind = CTFW_TYPE_SEQUENCE;
		out->sequence.elem = elem_type(a, r->elem, abi, depth + 1);
		out->sequence.length = lt ? int_of(lt, abi, false) : ctfw_integer(32, false, 10);
		break;
	}
	case LTT_STRUCT:
	case LTT_UNION: /* a union with a selector here is an element's: see elem_type */
		fill_struct(a, out, r, abi, depth);
		break;
	case LTT_TYPEREF:
		out->kind = CTFW_TYPE_STRUCT;
		break;
	}
	if (!out->kind)
		out->kind = CTFW_TYPE_STRUCT;
}

int lconv_payload_fields(struct lconv_arena *a, const struct ltt_type *t, const struct ltt_abi *abi,
			 const struct ctfw_field **fields, unsigned int *n)
{
	const struct ltt_type *r = resolved(t);

	*fields = NULL;
	*n = 0;
	if (r && r->kind == LTT_STRUCT) {
		struct ctfw_type st;

		fill_struct(a, &st, r, abi, 0);
		*fields = st.structure.fields;
		*n = st.structure.nr_fields;
	} else if (r) {
		struct field_list l = {0};

		add_member(a, &l, "value", r, abi, 0);
		*fields = list_done(a, &l, n);
	}
	return a->failed ? -1 : 0;
}

/* ---- the sink ---- */

static uint8_t *buf_grow(struct lconv_buf *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *p;

		while (cap < b->len + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->failed = 1;
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	b->len += n;
	return b->p + b->len - n;
}

/* size bytes of v (size clamped as int_of does) in the host's byte order (the CTF trace's). */
static int put_uint(struct lconv_buf *b, unsigned size, uint64_t v)
{
	uint8_t *p;

	size = clamp_bytes(size);
	p = buf_grow(b, size);

	if (!p)
		return -1;
	for (unsigned i = 0; i < size; i++) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		p[i] = (uint8_t)(v >> (8 * i));
#else
		p[size - 1 - i] = (uint8_t)(v >> (8 * i));
#endif
	}
	return 0;
}

static int sink_integer(void *arg, const char *name, const struct ltt_type *t, unsigned size,
			uint64_t raw)
{
	struct lconv_sink_ctx *c = arg;

	(void)name;
	(void)t;
	return put_uint(c->out, size, raw);
}

static int sink_float(void *arg, const char *name, const struct ltt_type *t, unsigned size,
		      double v)
{
	struct lconv_sink_ctx *c = arg;
	uint8_t *p = buf_grow(c->out, size == 4 ? 4 : 8);

	(void)name;
	(void)t;
	if (!p)
		return -1;
	if (size == 4) {
		float f = (float)v;

		memcpy(p, &f, 4);
	} else {
		memcpy(p, &v, 8);
	}
	return 0;
}

/* A text: a string (to its first NUL), or a whole char array or sequence. */
static int sink_string(void *arg, const char *name, const struct ltt_type *t, const char *s,
		       size_t len)
{
	struct lconv_sink_ctx *c = arg;
	const struct ltt_type *r = resolved(t);
	const char *z = memchr(s, 0, len);
	uint8_t *p;

	(void)name;
	if (r && r->kind == LTT_ARRAY) { /* exactly its length, NUL-padded */
		p = buf_grow(c->out, r->length);
		if (!p)
			return -1;
		memset(p, 0, r->length);
		memcpy(p, s, len < r->length ? len : r->length);
		return 0;
	}
	if (r && r->kind == LTT_SEQUENCE) {
		const struct ltt_type *lt = resolved(r->length_type);

		if (put_uint(c->out, lt ? ltt_type_scalar_size(lt, c->abi) : 4, len))
			return -1;
		p = buf_grow(c->out, len);
		if (!p)
			return -1;
		memcpy(p, s, len);
		return 0;
	}
	if (z)
		len = (size_t)(z - s);
	p = buf_grow(c->out, len + 1);
	if (!p)
		return -1;
	memcpy(p, s, len);
	p[len] = 0;
	return 0;
}

static int sink_enum(void *arg, const char *name, const struct ltt_type *t, unsigned size,
		     uint64_t raw, const char *label)
{
	struct lconv_sink_ctx *c = arg;

	(void)name;
	(void)t;
	(void)label;
	return put_uint(c->out, size, raw);
}

static int sink_array(void *arg, const char *name, const struct ltt_type *t, uint64_t n)
{
	struct lconv_sink_ctx *c = arg;
	const struct ltt_type *r = resolved(t);

	(void)name;
	if (r && r->kind == LTT_SEQUENCE) {
		const struct ltt_type *lt = resolved(r->length_type);

		return put_uint(c->out, lt ? ltt_type_scalar_size(lt, c->abi) : 4, n);
	}
	return 0;
}

static int sink_union(void *arg, const char *name, const struct ltt_type *t, uint64_t code)
{
	struct lconv_sink_ctx *c = arg;
	const struct ltt_type *r = resolved(t);

	(void)name;
	return put_uint(c->out, r ? r->typecode_size : 1, code);
}

const struct ltt_payload_sink lconv_sink = {
    .integer = sink_integer,
    .floating = sink_float,
    .string = sink_string,
    .enumeration = sink_enum,
    .begin_array = sink_array,
    .begin_union = sink_union,
};

/* ---- the same without a walk ---- */

size_t lconv_plan_record_len(const struct ltt_plan *pl)
{
	size_t n = 0;

	for (size_t i = 0; i < pl->n; i++)
		n += pl->items[i].is_float ? (pl->items[i].size == 4 ? 4 : 8) : pl->items[i].size;
	return n;
}

void lconv_plan_write(const struct ltt_plan *pl, const uint8_t *p, uint8_t *out)
{
	const bool host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

	for (size_t i = 0; i < pl->n; i++) {
		const struct ltt_plan_item *it = &pl->items[i];
		const uint8_t *b = p + it->off;
		unsigned size = it->size;

		if (it->is_float) {
			uint64_t v = 0;

			for (unsigned k = 0; k < size; k++)
				v |= (uint64_t)b[it->big ? k : size - 1 - k]
				     << (8 * (size - 1 - k));
			if (size == 4) {
				/* through a double as the walk and sink_float go (a NaN's bits too)
				 */
				uint32_t u = (uint32_t)v;
				float f;
				volatile double d;

				memcpy(&f, &u, 4);
				d = f;
				f = (float)d;
				memcpy(out, &f, 4);
				out += 4;
			} else {
				memcpy(out, &v, 8);
				out += 8;
			}
			continue;
		}
		if (it->big == host_big) {
			memcpy(out, b, size);
		} else {
			for (unsigned k = 0; k < size; k++)
				out[k] = b[size - 1 - k];
		}
		out += size;
	}
}
