/*
 * kmap.c - event classes and conversion programs for tracefs events (see
 * kmap.h): LTTng's layout from the table (kmap-table.c) when LTTng
 * instruments the event, the format's own fields otherwise. Everything
 * here runs once per event when a session starts; the per-record work is
 * kmap-convert.c's.
 *
 * When the running kernel's record does not fit the table (a field of
 * another kind than LTTng's source), the event is built as an event LTTng
 * does not instrument, under its tracefs name: its records stay readable
 * and nothing is made up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kmap-internal.h"

/* An 8-bit character of a text array or sequence (LTTng's ctf_array_text). */
static const struct ctfw_type text_elem = {
    .kind = CTFW_TYPE_INTEGER,
    .integer =
	{.size = 8, .align = 8, .is_signed = false, .base = 10, .encoding = CTFW_ENCODING_UTF8},
};

/* Where a class is built: fields and ops grow together. */
struct builder {
	struct kmap_event *m;
	struct ctfw_field *fields;
	unsigned int nr, cap;
	char *err;
	size_t errlen;
};

static int add_string(struct kmap_event *m, char *s)
{
	char **n = realloc(m->strings, (m->nr_strings + 1) * sizeof(*n));

	if (!n)
		return -1;
	m->strings = n;
	m->strings[m->nr_strings++] = s;
	return 0;
}

/* A new field named name (kept, not copied) and its op; NULL when out of memory. */
static struct kmap_op *add_field(struct builder *b, const char *name, struct ctfw_type **type,
				 struct ctfw_type **elem)
{
	struct kmap_event *m = b->m;

	if (b->nr == b->cap) {
		unsigned int cap = b->cap ? b->cap * 2 : 8;
		struct ctfw_field *f = realloc(b->fields, cap * sizeof(*f));
		struct kmap_op *o;
		struct ctfw_type *e;

		if (!f)
			return NULL;
		b->fields = f;
		o = realloc(m->ops, cap * sizeof(*o));
		if (!o)
			return NULL;
		m->ops = o;
		e = realloc(m->elems, cap * sizeof(*e));
		if (!e)
			return NULL;
		m->elems = e;
		b->cap = cap;
	}
	memset(&b->fields[b->nr], 0, sizeof(b->fields[0]));
	memset(&m->ops[b->nr], 0, sizeof(m->ops[0]));
	memset(&m->elems[b->nr], 0, sizeof(m->elems[0]));
	b->fields[b->nr].name = name;
	*type = &b->fields[b->nr].type;
	*elem = &m->elems[b->nr];
	return &m->ops[b->nr++];
}

static void set_int(struct ctfw_type *t, unsigned int bytes, bool is_signed, unsigned int base)
{
	t->kind = CTFW_TYPE_INTEGER;
	t->integer = ctfw_integer(bytes * 8, is_signed, base);
}

static void need(struct kmap_event *m, uint64_t end)
{
	if (end > m->min_len)
		m->min_len = (uint32_t)end;
}

/* Bytes a kernel string's address may become: the longest known one, or "0x" and 16 digits. */
static uint32_t kaddr_max(const struct kmap_event *m);

/*
 * Field f of the record as its format types it (an event LTTng does not
 * instrument, or an "auto" field), named name.
 */
static int add_generic(struct builder *b, const char *name, const struct tp_field *f)
{
	struct kmap_event *m = b->m;
	struct ctfw_type *t, *e;
	struct kmap_op *op;
	unsigned int es = f->elem_size;
	bool int_elem = es == 1 || es == 2 || es == 4 || es == 8;

	if (f->kind == TP_FIELD_OTHER && !f->size)
		return 0; /* nothing to write */
	op = add_field(b, name, &t, &e);
	if (!op)
		return -1;
	op->src = f->offset;
	op->slen = f->size;
	switch (f->kind) {
	case TP_FIELD_SCALAR:
		op->code = KOP_INT;
		op->ssize = op->dsize = (uint8_t)f->size;
		op->flags = f->is_signed && !f->is_pointer ? KOP_SIGNED : 0;
		set_int(t, f->size, op->flags & KOP_SIGNED, f->is_pointer ? 16 : 10);
		m->fixed += f->size;
		need(m, f->offset + f->size);
		return 0;
	case TP_FIELD_ARRAY:
		if (!f->array_len) { /* TYPE name[]: the rest of the record */
			if (f->is_char) {
				op->code = KOP_STR_FLEX;
				t->kind = CTFW_TYPE_STRING;
			} else {
				op->code = KOP_SEQ_FLEX;
				op->n = int_elem ? es : 1;
				set_int(e, op->n, f->is_signed && int_elem, 16);
				t->kind = CTFW_TYPE_SEQUENCE;
				t->sequence.elem = NULL; /* its own: set when built */
				t->sequence.length = ctfw_integer(32, false, 10);
			}
			m->nr_var++;
			need(m, f->offset);
			return 0;
		}
		if (f->is_char) {
			op->code = KOP_TEXT_ARR;
			op->n = f->size;
			t->kind = CTFW_TYPE_ARRAY;
			t->array.elem = &text_elem;
			t->array.length = f->size;
		} else {
			op->code = KOP_RAW;
			set_int(e, int_elem ? es : 1, f->is_signed && int_elem && !f->is_pointer,
				int_elem && !f->is_pointer ? 10 : 16);
			t->kind = CTFW_TYPE_ARRAY;
			t->array.elem = NULL; /* its own: set when built */
			t->array.length = int_elem ? f->array_len : f->size;
		}
		m->fixed += f->size;
		need(m, f->offset + f->size);
		return 0;
	case TP_FIELD_DATA_LOC:
	case TP_FIELD_REL_LOC:
		op->flags = f->kind == TP_FIELD_REL_LOC ? KOP_REL : 0;
		if (f->is_char) {
			op->code = KOP_STR_DYN;
			t->kind = CTFW_TYPE_STRING;
		} else {
			op->code = KOP_SEQ_DYN;
			op->n = int_elem ? es : 1;
			set_int(e, op->n, f->is_signed && int_elem,
				int_elem && op->n > 1 ? 10 : 16);
			t->kind = CTFW_TYPE_SEQUENCE;
			t->sequence.elem = NULL; /* its own: set when built */
			t->sequence.length = ctfw_integer(32, false, 10);
		}
		m->nr_var++;
		need(m, f->offset + 4);
		return 0;
	case TP_FIELD_OTHER:
		op->code = KOP_RAW;
		set_int(e, 1, false, 16);
		t->kind = CTFW_TYPE_ARRAY;
		t->array.elem = NULL; /* its own: set when built */
		t->array.length = f->size;
		m->fixed += f->size;
		need(m, f->offset + f->size);
		return 0;
	}
	return -1;
}

static int build_generic(struct builder *b)
{
	const struct tp_event *ev = b->m->ev;

	for (unsigned int i = ev->nr_common; i < ev->nr_fields; i++)
		if (add_generic(b, ev->fields[i].name, &ev->fields[i]))
			return -1;
	return 0;
}

/* One FIELD=TYPE(SOURCE) of the table, parsed. */
struct spec {
	const char *name, *type, *src;
	size_t name_len, type_len, src_len;
	bool optional;
};

enum src_kind { SRC_FIELD, SRC_TID, SRC_CONST, SRC_TGID, SRC_NS_INUM };

struct source {
	enum src_kind kind;
	const struct tp_field *f; /* NULL: the record has none */
	int64_t add;
	int bit; /* -1: none */
};

static int parse_spec(const char **p, struct spec *s)
{
	const char *q = *p, *end;

	while (*q == ' ')
		q++;
	if (!*q)
		return 0;
	end = q + strcspn(q, " ");
	memset(s, 0, sizeof(*s));
	s->name = q;
	s->name_len = strcspn(q, "=");
	if (s->name + s->name_len >= end)
		return -1;
	s->type = s->name + s->name_len + 1;
	s->type_len = strcspn(s->type, "?( ");
	q = s->type + s->type_len;
	if (*q == '?') {
		s->optional = true;
		q++;
	}
	if (*q == '(') {
		s->src = q + 1;
		s->src_len = strcspn(s->src, ")");
		if (s->src[s->src_len] != ')')
			return -1;
		q = s->src + s->src_len + 1;
	} else {
		s->src = s->name;
		s->src_len = s->name_len;
	}
	if (q != end)
		return -1;
	*p = end;
	return 1;
}

static const struct tp_field *field_n(const struct tp_event *ev, const char *name, size_t len)
{
	for (unsigned int i = 0; i < ev->nr_fields; i++)
		if (strlen(ev->fields[i].name) == len && !memcmp(ev->fields[i].name, name, len))
			return &ev->fields[i];
	return NULL;
}

static bool word(const char *s, size_t len, const char *w)
{
	return strlen(w) == len && !memcmp(s, w, len);
}

static void parse_source(const struct tp_event *ev, const struct spec *sp, struct source *src)
{
	const char *s = sp->src;
	size_t len = sp->src_len, n;

	memset(src, 0, sizeof(*src));
	src->bit = -1;
	if (word(s, len, "$tid")) {
		src->kind = SRC_TID;
		src->f = ev->common_pid >= 0 ? &ev->fields[ev->common_pid] : NULL;
		return;
	}
	if (*s == '#') {
		src->kind = SRC_CONST;
		src->add = strtoll(s + 1, NULL, 0);
		return;
	}
	if (len > 5 && !memcmp(s, "tgid:", 5)) {
		src->kind = SRC_TGID;
		s += 5, len -= 5;
	} else if (len > 7 && !memcmp(s, "nsinum:", 7)) {
		src->kind = SRC_NS_INUM;
		s += 7, len -= 7;
	}
	n = strcspn(s, "+-&)");
	if (n < len) {
		if (s[n] == '&')
			src->bit = atoi(s + n + 1);
		else
			src->add = strtoll(s + n, NULL, 10);
		len = n;
	}
	src->f = field_n(ev, s, len);
}

/* The integer type name "i32" / "x64" / "be16": bytes, signedness, base. */
static bool int_type(const char *t, size_t len, unsigned int *bytes, bool *sgn, unsigned int *base,
		     bool *be)
{
	unsigned int bits;

	*be = false;
	*base = 10;
	*sgn = false;
	if (len > 2 && t[0] == 'b' && t[1] == 'e') {
		*be = true;
		t += 2, len -= 2;
	} else if (*t == 'i') {
		*sgn = true;
		t++, len--;
	} else if (*t == 'u') {
		t++, len--;
	} else if (*t == 'x') {
		*base = 16;
		t++, len--;
	} else {
		return false;
	}
	if (word(t, len, "8"))
		bits = 8;
	else if (word(t, len, "16"))
		bits = 16;
	else if (word(t, len, "32"))
		bits = 32;
	else if (word(t, len, "64"))
		bits = 64;
	else
		return false;
	*bytes = bits / 8;
	return true;
}

/* An integer field from src (0 when the record has no such field). */
static int set_int_op(struct kmap_event *m, struct kmap_op *op, const struct source *src,
		      unsigned int bytes)
{
	const struct tp_field *f = src->f;

	op->dsize = (uint8_t)bytes;
	m->fixed += bytes;
	if (src->kind == SRC_CONST || !f) {
		op->code = KOP_CONST;
		op->k = src->add;
		return 0;
	}
	if (f->kind != TP_FIELD_SCALAR)
		return -1;
	op->src = f->offset;
	op->ssize = (uint8_t)f->size;
	op->flags |= f->is_signed ? KOP_SIGNED : 0;
	need(m, f->offset + f->size);
	switch (src->kind) {
	case SRC_TGID:
	case SRC_NS_INUM:
		if (f->size != 4)
			return -1;
		op->code = src->kind == SRC_TGID ? KOP_TGID : KOP_NS_INUM;
		m->has_task = true;
		return 0;
	default:
		break;
	}
	if (src->bit >= 0) {
		if (src->bit >= (int)f->size * 8)
			return -1;
		op->code = KOP_BIT;
		op->n = (uint32_t)src->bit;
		return 0;
	}
	op->code = KOP_INT;
	op->k = src->add;
	return 0;
}

/* One field of LTTng's layout; -1: out of memory, -2: the record does not fit. */
static int add_mapped(struct builder *b, const struct spec *sp)
{
	struct kmap_event *m = b->m;
	const struct tp_event *ev = m->ev;
	struct source src;
	struct ctfw_type *t, *e;
	struct kmap_op *op;
	const struct tp_field *f;
	char *name;
	unsigned int bytes, base;
	bool sgn, be;
	const char *ty = sp->type;
	size_t tl = sp->type_len;

	parse_source(ev, sp, &src);
	f = src.f;
	if (!f && sp->optional && src.kind != SRC_CONST)
		return 0;
	name = strndup(sp->name, sp->name_len);
	if (!name || add_string(m, name)) {
		free(name);
		return -1;
	}
	if (word(ty, tl, "auto")) {
		if (!f)
			return -2;
		return add_generic(b, name, f) ? -1 : 0;
	}
	op = add_field(b, name, &t, &e);
	if (!op)
		return -1;
	if (int_type(ty, tl, &bytes, &sgn, &base, &be)) {
		set_int(t, bytes, sgn, base);
		if (be) {
			t->integer.byte_order = CTFW_BYTE_ORDER_BE;
			op->flags |= KOP_BE;
		}
		return set_int_op(m, op, &src, bytes) ? -2 : 0;
	}
	if (tl > 5 && !memcmp(ty, "enum:", 5)) {
		const struct kmap_enum *en = kmap_enum_find(ty + 5, tl - 5);

		if (!en)
			return -2;
		t->kind = CTFW_TYPE_ENUM;
		t->enumeration.container = ctfw_integer(en->bits, false, 10);
		t->enumeration.mappings = en->mappings;
		t->enumeration.nr_mappings = en->nr_mappings;
		return set_int_op(m, op, &src, en->bits / 8) ? -2 : 0;
	}
	if (tl > 4 && !memcmp(ty, "text", 4)) {
		unsigned int n = (unsigned int)atoi(ty + 4);

		if (!n || n > 4096)
			return -2;
		t->kind = CTFW_TYPE_ARRAY;
		t->array.elem = &text_elem;
		t->array.length = n;
		op->n = n;
		m->fixed += n;
		op->code = KOP_TEXT_ARR; /* without a source: n zero bytes */
		if (!f)
			return 0;
		op->src = f->offset;
		if (f->kind == TP_FIELD_ARRAY && f->is_char && f->array_len) {
			op->slen = f->size;
			need(m, f->offset + f->size);
			return 0;
		}
		if ((f->kind == TP_FIELD_DATA_LOC || f->kind == TP_FIELD_REL_LOC) && f->is_char) {
			op->code = KOP_TEXT_DYN;
			op->flags = f->kind == TP_FIELD_REL_LOC ? KOP_REL : 0;
			need(m, f->offset + 4);
			return 0;
		}
		return -2;
	}
	if (word(ty, tl, "str")) {
		t->kind = CTFW_TYPE_STRING;
		op->code = KOP_STR_ARR; /* without a source: "" */
		m->fixed += 1;
		if (!f)
			return 0;
		op->src = f->offset;
		if (f->kind == TP_FIELD_ARRAY && f->is_char) {
			if (!f->array_len) {
				op->code = KOP_STR_FLEX;
				m->fixed -= 1;
				m->nr_var++;
				need(m, f->offset);
				return 0;
			}
			op->slen = f->size;
			m->fixed += f->size;
			need(m, f->offset + f->size);
			return 0;
		}
		m->fixed -= 1;
		if ((f->kind == TP_FIELD_DATA_LOC || f->kind == TP_FIELD_REL_LOC) && f->is_char) {
			op->code = KOP_STR_DYN;
			op->flags = f->kind == TP_FIELD_REL_LOC ? KOP_REL : 0;
			m->nr_var++;
			need(m, f->offset + 4);
			return 0;
		}
		if (f->kind == TP_FIELD_SCALAR && f->is_pointer && (f->size == 4 || f->size == 8)) {
			op->code = KOP_STR_KADDR;
			op->ssize = (uint8_t)f->size;
			m->fixed += kaddr_max(m);
			need(m, f->offset + f->size);
			return 0;
		}
		return -2;
	}
	if (tl > 4 && !memcmp(ty, "tseq", 4)) {
		if (!(word(ty + 4, tl - 4, "8") || word(ty + 4, tl - 4, "16") ||
		      word(ty + 4, tl - 4, "32") || word(ty + 4, tl - 4, "64")))
			return -2;
		bytes = (unsigned int)atoi(ty + 4) / 8;
		t->kind = CTFW_TYPE_SEQUENCE;
		t->sequence.elem = &text_elem;
		t->sequence.length = ctfw_integer(bytes * 8, false, 10);
		op->dsize = (uint8_t)bytes;
		if (!f) { /* an empty sequence: its length, 0 */
			op->code = KOP_CONST;
			m->fixed += bytes;
			return 0;
		}
		if ((f->kind != TP_FIELD_DATA_LOC && f->kind != TP_FIELD_REL_LOC) || !f->is_char)
			return -2;
		op->code = KOP_TSEQ_DYN;
		op->src = f->offset;
		op->flags = f->kind == TP_FIELD_REL_LOC ? KOP_REL : 0;
		m->fixed += bytes;
		m->nr_var++;
		need(m, f->offset + 4);
		return 0;
	}
	if (word(ty, tl, "rwbs")) {
		set_int(t, 4, false, 10);
		op->dsize = 4;
		m->fixed += 4;
		if (!f) {
			op->code = KOP_CONST;
			return 0;
		}
		if (f->kind != TP_FIELD_ARRAY || !f->is_char || !f->array_len)
			return -2;
		op->code = KOP_RWBS;
		op->src = f->offset;
		op->slen = f->size;
		need(m, f->offset + f->size);
		return 0;
	}
	if (word(ty, tl, "vtids")) {
		set_int(e, 4, true, 10);
		t->kind = CTFW_TYPE_SEQUENCE;
		t->sequence.elem = NULL; /* its own: set when built */
		t->sequence.length = ctfw_integer(8, false, 10);
		m->fixed += 1 + 4 * KMAP_MAX_NS_LEVEL;
		if (!f) {
			op->code = KOP_CONST;
			op->dsize = 1;
			return 0;
		}
		if (f->kind != TP_FIELD_SCALAR || f->size != 4)
			return -2;
		op->code = KOP_VTIDS;
		op->src = f->offset;
		op->ssize = 4;
		m->has_task = true;
		need(m, f->offset + 4);
		return 0;
	}
	return -2;
}

static int build_mapped(struct builder *b, const char *p)
{
	struct spec sp;
	int st;

	while ((st = parse_spec(&p, &sp)) > 0) {
		st = add_mapped(b, &sp);
		if (st)
			return st;
	}
	return st < 0 ? -2 : 0;
}

static uint32_t kaddr_max(const struct kmap_event *m)
{
	size_t n = m->env.kstrings ? kmap_kstrings_maxlen(m->env.kstrings) : 0;

	return (uint32_t)(n > KMAP_KADDR_TEXT ? n : KMAP_KADDR_TEXT) + 1;
}

static void reset(struct builder *b)
{
	struct kmap_event *m = b->m;

	free(b->fields);
	b->fields = NULL;
	b->nr = b->cap = 0;
	free(m->ops);
	m->ops = NULL;
	free(m->elems);
	m->elems = NULL;
	m->min_len = m->fixed = m->nr_var = 0;
	m->has_task = false;
}

struct kmap_event *kmap_event_new_env(const struct tp_event *ev, const struct kmap_env *env,
				      char *err, size_t errlen)
{
	struct kmap_event *m = calloc(1, sizeof(*m));
	struct builder b = {.m = m, .err = err, .errlen = errlen};
	const char *entry = kmap_table_find(ev->system ? ev->system : "", ev->name);
	int st = 0;

	if (errlen)
		err[0] = 0;
	if (!m)
		goto oom;
	m->ev = ev;
	if (env)
		m->env = *env;
	if (!m->env.task)
		m->env.task = kmap_task_from_proc;
	m->cls.id = KEVENT_ID_NONE;
	m->cls.cls.loglevel = -1;
	m->cls.cls.name = ev->name;
	if (entry) {
		size_t n = strcspn(entry, " ");

		if (n) { /* renamed */
			char *name = strndup(entry, n);

			if (!name || add_string(m, name)) {
				free(name);
				goto oom;
			}
			m->cls.cls.name = name;
		}
		st = build_mapped(&b, entry + n);
		if (st == -1)
			goto oom;
		m->mapped = st == 0;
		if (st) {
			/* this kernel's record does not fit LTTng's fields: as tracefs has it */
			reset(&b);
			m->cls.cls.name = ev->name;
		}
	}
	if (!m->mapped && build_generic(&b))
		goto oom;
	/* element types live in m->elems, which moved while it grew */
	for (unsigned int i = 0; i < b.nr; i++) {
		struct ctfw_type *t = &b.fields[i].type;

		if (t->kind == CTFW_TYPE_ARRAY && !t->array.elem)
			t->array.elem = &m->elems[i];
		if (t->kind == CTFW_TYPE_SEQUENCE && !t->sequence.elem)
			t->sequence.elem = &m->elems[i];
	}
	m->cls.cls.fields = b.fields;
	m->cls.cls.nr_fields = b.nr;
	return m;
oom:
	if (errlen)
		snprintf(err, errlen, "%s:%s: out of memory", ev->system ? ev->system : "",
			 ev->name);
	if (m) {
		m->cls.cls.fields = b.fields;
		kmap_event_free(m);
	}
	return NULL;
}

struct kmap_event *kmap_event_new(const struct tp_event *ev, char *err, size_t errlen)
{
	return kmap_event_new_env(ev, NULL, err, errlen);
}

void kmap_event_free(struct kmap_event *m)
{
	if (!m)
		return;
	for (unsigned int i = 0; i < m->nr_strings; i++)
		free(m->strings[i]);
	free(m->strings);
	free((void *)m->cls.cls.fields);
	free(m->ops);
	free(m->elems);
	free(m);
}

struct kevent_class *kmap_event_class(struct kmap_event *m)
{
	return &m->cls;
}

bool kmap_event_is_mapped(const struct kmap_event *m)
{
	return m->mapped;
}

const char *kmap_lttng_name(const char *system, const char *name, char *buf, size_t size)
{
	const char *e = kmap_table_find(system, name);
	size_t n = e ? strcspn(e, " ") : 0;

	if (!n) {
		e = name;
		n = strlen(name);
	}
	if (n >= size)
		return NULL;
	memcpy(buf, e, n);
	buf[n] = 0;
	return buf;
}
