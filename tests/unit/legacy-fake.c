/*
 * legacy-fake.c - the fake legacy trace of legacy-fake.h: its types, its
 * classes, its events, and a packed payload walk.
 */
#include "legacy-fake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- types ---- */

#define SCALAR(k, sz, b)                                                                           \
	{                                                                                          \
		.kind = (k), .size_ref = LTT_SIZE_FIXED, .size = (sz), .base = (b)                 \
	}

static struct ltt_type t_i8 = SCALAR(LTT_SIGNED, 1, 10);
static struct ltt_type t_u8 = SCALAR(LTT_UNSIGNED, 1, 10);
static struct ltt_type t_u16 = SCALAR(LTT_UNSIGNED, 2, 10);
static struct ltt_type t_s32 = SCALAR(LTT_SIGNED, 4, 10);
static struct ltt_type t_u32 = SCALAR(LTT_UNSIGNED, 4, 10);
static struct ltt_type t_u64 = SCALAR(LTT_UNSIGNED, 8, 10);
static struct ltt_type t_long = {.kind = LTT_SIGNED, .size_ref = LTT_SIZE_LONG, .base = 10};
static struct ltt_type t_ptr = {.kind = LTT_UNSIGNED, .size_ref = LTT_SIZE_POINTER, .base = 16};
static struct ltt_type t_f32 = SCALAR(LTT_FLOAT, 4, 10);
static struct ltt_type t_f64 = SCALAR(LTT_FLOAT, 8, 10);
static struct ltt_type t_str = {.kind = LTT_STRING};
static struct ltt_type t_char = {
    .kind = LTT_SIGNED, .size_ref = LTT_SIZE_FIXED, .size = 1, .base = 10, .is_char = true};
static struct ltt_label enum_labels[] = {{"A", 0}, {"B", 5}, {"C", 6}};
static struct ltt_type t_enum = {.kind = LTT_ENUM,
				 .size_ref = LTT_SIZE_FIXED,
				 .size = 4,
				 .base = 10,
				 .labels = enum_labels,
				 .nlabels = 3};
static struct ltt_label senum_labels[] = {{"NEG", -1}, {"POS", 1}};
static struct ltt_type t_senum = {.kind = LTT_ENUM,
				  .size_ref = LTT_SIZE_FIXED,
				  .size = 2,
				  .base = 10,
				  .labels = senum_labels,
				  .nlabels = 2};
static struct ltt_type t_arr = {.kind = LTT_ARRAY, .length = 3, .elem = &t_u16};
static struct ltt_type t_carr = {.kind = LTT_ARRAY, .length = 8, .elem = &t_char};
static struct ltt_type t_seq = {.kind = LTT_SEQUENCE, .length_type = &t_u8, .elem = &t_u32};
static struct ltt_type t_cseq = {.kind = LTT_SEQUENCE, .length_type = &t_u16, .elem = &t_char};
static struct ltt_field st_fields[] = {{"a", &t_u8}, {"b", &t_str}};
static struct ltt_type t_st = {.kind = LTT_STRUCT, .fields = st_fields, .nfields = 2};
static struct ltt_field sel_fields[] = {{"num", &t_u32}, {"text", &t_str}};
static struct ltt_type t_sel = {
    .kind = LTT_UNION, .fields = sel_fields, .nfields = 2, .typecode_size = 1};
static struct ltt_field cun_fields[] = {{"x", &t_u32}, {"y", &t_u16}};
static struct ltt_type t_cun = {.kind = LTT_UNION, .fields = cun_fields, .nfields = 2};
static struct ltt_type t_named = {
    .kind = LTT_UNSIGNED, .size_ref = LTT_SIZE_FIXED, .size = 1, .base = 10, .name = "byte_t"};
static struct ltt_type t_ref = {.kind = LTT_TYPEREF, .name = "byte_t", .ref = &t_named};
static struct ltt_type t_arr_sel = {.kind = LTT_ARRAY, .length = 2, .elem = &t_sel};

static struct ltt_field every_fields[] = {
    {"i8", &t_i8},	 {"u16", &t_u16}, {"s32", &t_s32},   {"u64", &t_u64},
    {"lng", &t_long},	 {"ptr", &t_ptr}, {"f32", &t_f32},   {"f64", &t_f64},
    {"str", &t_str},	 {"en", &t_enum}, {"sen", &t_senum}, {"arr", &t_arr},
    {"carr", &t_carr},	 {"seq", &t_seq}, {"cseq", &t_cseq}, {"st", &t_st},
    {"sel", &t_sel},	 {"cun", &t_cun}, {"ref", &t_ref},   {"arrsel", &t_arr_sel},
    {"bad-name", &t_u8},
};
static struct ltt_type t_every = {.kind = LTT_STRUCT,
				  .fields = every_fields,
				  .nfields = sizeof(every_fields) / sizeof(every_fields[0])};
static struct ltt_field small_fields[] = {{"value", &t_u32}};
static struct ltt_type t_small = {.kind = LTT_STRUCT, .fields = small_fields, .nfields = 1};
static struct ltt_field load_fields[] = {{"name", &t_str}, {"checksum", &t_u32}};
static struct ltt_type t_load = {.kind = LTT_STRUCT, .fields = load_fields, .nfields = 2};

#define ABI64                                                                                      \
	{                                                                                          \
		.int_size = 4, .long_size = 8, .pointer_size = 8, .size_t_size = 8                 \
	}

static const struct ltt_class classes[] = {
    {.index = 0,
     .name = "fac.every",
     .channel = "cpu",
     .facility = "fac",
     .facility_id = 1,
     .event_id = 0,
     .payload = &t_every,
     .abi = ABI64},
    {.index = 1,
     .name = "fac.small",
     .channel = "cpu",
     .facility = "fac",
     .facility_id = 1,
     .event_id = 1,
     .payload = &t_small,
     .abi = ABI64},
    {.index = 2,
     .name = "core.facility_load",
     .channel = "control/facilities",
     .facility = "core",
     .facility_id = 0,
     .event_id = 0,
     .payload = &t_load,
     .abi = ABI64},
};

static const struct ltt_file_info files[] = {
    {.path = "fake/cpu_0", .channel = "cpu", .cpu = 0, .blocks = 1, .block_size = 4096},
    {.path = "fake/cpu_1", .channel = "cpu", .cpu = 1, .blocks = 2, .block_size = 4096},
    {.path = "fake/control/facilities_0",
     .channel = "control/facilities",
     .cpu = 0,
     .blocks = 1,
     .block_size = 4096},
};

static const struct ltt_trace_info info = {
    .format = LTT_FORMAT_LTTV,
    .major = 0,
    .minor = 7,
    .arch_size = 8,
    .arch_type = 3,
    .start_freq = 1000000,
    .freq_scale = 1,
    .start_time_sec = 1100000000,
};

/* ---- events ---- */

struct bytes {
	uint8_t b[512];
	size_t n;
};

static void put(struct bytes *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

#define PUT(b, type, v)                                                                            \
	do {                                                                                       \
		type x_ = (v);                                                                     \
		put(b, &x_, sizeof(x_));                                                           \
	} while (0)

static void every_payload(struct bytes *b)
{
	PUT(b, int8_t, -5);
	PUT(b, uint16_t, 65000);
	PUT(b, int32_t, -100000);
	PUT(b, uint64_t, UINT64_MAX);
	PUT(b, int64_t, -7);
	PUT(b, uint64_t, 0xdeadbeef);
	PUT(b, float, 1.5f);
	PUT(b, double, -2.25);
	put(b, "hello", 6);
	PUT(b, uint32_t, 5);
	PUT(b, int16_t, -1);
	PUT(b, uint16_t, 1);
	PUT(b, uint16_t, 2);
	PUT(b, uint16_t, 3);
	put(b, "abc\0\0\0\0\0", 8);
	PUT(b, uint8_t, 2);
	PUT(b, uint32_t, 10);
	PUT(b, uint32_t, 20);
	PUT(b, uint16_t, 2);
	put(b, "xy", 2);
	PUT(b, uint8_t, 1);
	put(b, "in", 3);
	PUT(b, uint8_t, 1); /* sel: text */
	put(b, "hi", 3);
	PUT(b, uint32_t, 0x01020304); /* cun: x, and y its first two bytes */
	PUT(b, uint8_t, 9);
	PUT(b, uint8_t, 0); /* arrsel[0]: num 7 */
	PUT(b, uint32_t, 7);
	PUT(b, uint8_t, 1); /* arrsel[1]: text "z" */
	put(b, "z", 2);
	PUT(b, uint8_t, 4);
}

struct fake_event {
	unsigned cls;
	int64_t ns;
	uint32_t value; /* small: its value; load: its checksum */
	uint64_t lost;
};

static const struct fake_event ev_cpu0[] = {
    {0, 1100000000000001000, 0, 0},
    {1, 1100000000000002000, 7, 3},
    {1, 1100000000000005000, 11, 0},
};
static const struct fake_event ev_cpu1[] = {
    {1, 1100000000000001500, 8, 0},
};
static const struct fake_event ev_fac[] = {
    {2, 1100000000000000500, 0xabcd, 0},
};

struct ltt_trace {
	int dummy;
};

struct ltt_cursor {
	size_t file;
	size_t next;
	struct bytes buf;
	char error[256];
	bool warned;
};

enum ltt_format ltt_probe_dir(const char *dir)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/fake-legacy", dir);
	return stat(path, &st) == 0 ? LTT_FORMAT_LTTV : LTT_FORMAT_NONE;
}

int legacy_fake_make_dir(const char *dir)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/fake-legacy", dir);
	(void)mkdir(dir, 0775); /* it may exist */
	f = fopen(path, "w");
	if (!f)
		return -1;
	fclose(f);
	return 0;
}

struct ltt_trace *ltt_trace_open(const char *dir, char *err, size_t errlen)
{
	struct ltt_trace *t;

	if (!strcmp(dir, "missing")) {
		snprintf(err, errlen, "missing: no such trace");
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		snprintf(err, errlen, "out of memory");
	return t;
}

void ltt_trace_close(struct ltt_trace *t)
{
	free(t);
}

const struct ltt_trace_info *ltt_trace_info(const struct ltt_trace *t)
{
	(void)t;
	return &info;
}

size_t ltt_trace_file_count(const struct ltt_trace *t)
{
	(void)t;
	return 3;
}

const struct ltt_file_info *ltt_trace_file(const struct ltt_trace *t, size_t i)
{
	(void)t;
	return i < 3 ? &files[i] : NULL;
}

size_t ltt_trace_class_count(const struct ltt_trace *t)
{
	(void)t;
	return 3;
}

const struct ltt_class *ltt_trace_class(const struct ltt_trace *t, size_t i)
{
	(void)t;
	return i < 3 ? &classes[i] : NULL;
}

const char *ltt_trace_warning(const struct ltt_trace *t, size_t i)
{
	(void)t;
	return i == 0 ? "fake: facility xyz has no description" : NULL;
}

struct ltt_cursor *ltt_cursor_open(struct ltt_trace *t, size_t i)
{
	struct ltt_cursor *c = calloc(1, sizeof(*c));

	(void)t;
	if (c)
		c->file = i;
	return c;
}

int ltt_cursor_next(struct ltt_cursor *c, struct ltt_event *ev)
{
	const struct fake_event *list = c->file == 0 ? ev_cpu0 : c->file == 1 ? ev_cpu1 : ev_fac;
	size_t n = c->file == 0 ? 3 : 1;
	const struct fake_event *e;

	if (c->next == n) {
		if (c->file == 1) {
			snprintf(c->error, sizeof(c->error), "%s", LEGACY_FAKE_ERROR);
			return -1;
		}
		return 0;
	}
	e = &list[c->next++];
	c->buf.n = 0;
	if (e->cls == 0) {
		every_payload(&c->buf);
	} else if (e->cls == 1) {
		PUT(&c->buf, uint32_t, e->value);
	} else {
		put(&c->buf, "fac", 4);
		PUT(&c->buf, uint32_t, e->value);
	}
	memset(ev, 0, sizeof(*ev));
	ev->cls = &classes[e->cls];
	ev->ns = e->ns;
	ev->tsc = (uint64_t)e->ns;
	ev->payload = c->buf.b;
	ev->len = c->buf.n;
	ev->offset = 64 * c->next;
	ev->lost_before = e->lost;
	return 1;
}

const char *ltt_cursor_error(const struct ltt_cursor *c)
{
	return c->error;
}

const char *ltt_cursor_warning(struct ltt_cursor *c)
{
	if (c->file == 2 && !c->warned) {
		c->warned = true;
		return "fake/control/facilities_0: a warning";
	}
	return "";
}

void ltt_cursor_trust_sizes(struct ltt_cursor *c)
{
	(void)c; /* the fake's sizes are always checked: size_unchecked stays false */
}

long ltt_cursor_check_size(struct ltt_cursor *c, const struct ltt_event *ev)
{
	(void)c;
	(void)ev;
	abort(); /* never called: no event comes unchecked */
}

void ltt_cursor_close(struct ltt_cursor *c)
{
	free(c);
}

/* ---- the payload walk (packed, host byte order) ---- */

unsigned ltt_type_scalar_size(const struct ltt_type *t, const struct ltt_abi *abi)
{
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
	default:
		return t->size;
	}
}

const struct ltt_type *ltt_type_resolve(const struct ltt_type *t)
{
	while (t && t->kind == LTT_TYPEREF)
		t = t->ref;
	return t;
}

struct walk {
	const struct ltt_abi *abi;
	const uint8_t *p;
	size_t len, off;
	const struct ltt_payload_sink *s;
	void *arg;
};

static int read_uint(struct walk *w, unsigned size, uint64_t *v)
{
	uint64_t x = 0;

	if (w->off + size > w->len)
		return -1;
	for (unsigned i = 0; i < size; i++)
		x |= (uint64_t)w->p[w->off + i] << (8 * i);
	w->off += size;
	*v = x;
	return 0;
}

static int walk(struct walk *w, const char *name, const struct ltt_type *t);

static int walk_fields(struct walk *w, const struct ltt_type *t)
{
	for (size_t i = 0; i < t->nfields; i++)
		if (walk(w, t->fields[i].name, t->fields[i].type))
			return -1;
	return 0;
}

static int walk(struct walk *w, const char *name, const struct ltt_type *t)
{
	const struct ltt_payload_sink *s = w->s;
	unsigned size;
	uint64_t v;

	t = ltt_type_resolve(t);
	if (!t)
		return -1;
	size = ltt_type_scalar_size(t, w->abi);
	switch (t->kind) {
	case LTT_SIGNED:
	case LTT_UNSIGNED:
	case LTT_ENUM:
		if (read_uint(w, size, &v))
			return -1;
		if ((t->kind == LTT_SIGNED || (t->kind == LTT_ENUM && t->labels[0].value < 0)) &&
		    size < 8 && (v >> (8 * size - 1)) & 1)
			v |= ~(uint64_t)0 << (8 * size);
		if (t->kind == LTT_ENUM) {
			const char *label = NULL;

			for (size_t i = 0; i < t->nlabels; i++)
				if ((uint64_t)t->labels[i].value == v)
					label = t->labels[i].name;
			return s->enumeration(w->arg, name, t, size, v, label);
		}
		return s->integer(w->arg, name, t, size, v);
	case LTT_FLOAT:
		if (w->off + size > w->len)
			return -1;
		if (size == 4) {
			float f;

			memcpy(&f, w->p + w->off, 4);
			w->off += 4;
			return s->floating(w->arg, name, t, 4, f);
		} else {
			double d;

			memcpy(&d, w->p + w->off, 8);
			w->off += 8;
			return s->floating(w->arg, name, t, 8, d);
		}
	case LTT_STRING: {
		const uint8_t *z = memchr(w->p + w->off, 0, w->len - w->off);
		size_t n;

		if (!z)
			return -1;
		n = (size_t)(z - (w->p + w->off));
		if (s->string(w->arg, name, t, (const char *)w->p + w->off, n))
			return -1;
		w->off += n + 1;
		return 0;
	}
	case LTT_ARRAY:
		if (ltt_type_resolve(t->elem)->is_char) { /* a text: one call */
			if (w->off + t->length > w->len)
				return -1;
			if (s->string(w->arg, name, t, (const char *)w->p + w->off, t->length))
				return -1;
			w->off += t->length;
			return 0;
		}
		if (s->begin_array(w->arg, name, t, t->length))
			return -1;
		for (uint64_t i = 0; i < t->length; i++)
			if (walk(w, NULL, t->elem))
				return -1;
		return s->end_compound ? s->end_compound(w->arg, t) : 0;
	case LTT_SEQUENCE: /* char ones too element by element: the converter takes both */
		if (read_uint(w, ltt_type_scalar_size(t->length_type, w->abi), &v))
			return -1;
		if (s->begin_array(w->arg, name, t, v))
			return -1;
		for (uint64_t i = 0; i < v; i++)
			if (walk(w, NULL, t->elem))
				return -1;
		return s->end_compound ? s->end_compound(w->arg, t) : 0;
	case LTT_STRUCT:
		if (s->begin_struct && s->begin_struct(w->arg, name, t))
			return -1;
		if (walk_fields(w, t))
			return -1;
		return s->end_compound ? s->end_compound(w->arg, t) : 0;
	case LTT_UNION:
		if (t->typecode_size) {
			if (read_uint(w, t->typecode_size, &v) || v >= t->nfields)
				return -1;
			if (s->begin_union(w->arg, name, t, v))
				return -1;
			if (walk(w, t->fields[v].name, t->fields[v].type))
				return -1;
		} else {
			size_t start = w->off, end = start;

			if (s->begin_struct && s->begin_struct(w->arg, name, t))
				return -1;
			for (size_t i = 0; i < t->nfields; i++) {
				w->off = start;
				if (walk(w, t->fields[i].name, t->fields[i].type))
					return -1;
				if (w->off > end)
					end = w->off;
			}
			w->off = end;
		}
		return s->end_compound ? s->end_compound(w->arg, t) : 0;
	case LTT_TYPEREF:
		return -1;
	}
	return -1;
}

long ltt_payload_decode(const struct ltt_type *t, const struct ltt_abi *abi, const uint8_t *p,
			size_t len, size_t base, const struct ltt_payload_sink *sink, void *arg,
			char *err, size_t errlen)
{
	struct walk w = {.abi = abi, .p = p, .len = len, .s = sink, .arg = arg};

	(void)base;
	if (walk_fields(&w, ltt_type_resolve(t))) {
		snprintf(err, errlen, "payload at byte %zu: cannot be read", w.off);
		return -1;
	}
	return (long)w.off;
}

/* The fake's payloads are walked, never planned (the readers' plans: ltype.c). */
struct ltt_plan *ltt_payload_plan(const struct ltt_type *t, const struct ltt_abi *abi, size_t base)
{
	(void)t;
	(void)abi;
	(void)base;
	return NULL;
}
