/*
 * reader.c - the public reader API (include/trax/reader.h) over the
 * internal layers: stream-set.h finds the traces, groups their stream
 * files into streams and merges them in time order, exactly as for
 * `trax view`; the API gives its events and skips its discarded-events
 * notifications (the API has no way to return them).
 *
 * Seeking reopens every stream file and skips, per stream, the events
 * before the target time.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "reader/reader-impl.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/export.h"

struct trax_field {
	struct trax_reader *r;
	const struct ctf_value *v;
	const struct ctf_field *decl; /* the field or option naming it, NULL for elements */
	struct ctf_value byte;	      /* an element of a text array */
	char *str;		      /* NUL-terminated copy, made on demand */
	size_t str_len;
};

#define CHUNK_FIELDS 64

struct field_chunk {
	struct field_chunk *next;
	size_t used;
	struct trax_field items[CHUNK_FIELDS];
};

static _Thread_local char open_error[1200];

void trax_reader_set_error(struct trax_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r ? r->error : open_error, sizeof(open_error), fmt, ap);
	va_end(ap);
}

/* ---- field handles: allocated per event, released at the next call ---- */

static void fields_reset(struct trax_reader *r)
{
	for (struct field_chunk *c = r->chunks; c; c = c->next) {
		for (size_t i = 0; i < c->used; i++)
			free(c->items[i].str);
		c->used = 0;
	}
}

static void fields_free(struct trax_reader *r)
{
	fields_reset(r);
	while (r->chunks) {
		struct field_chunk *n = r->chunks->next;

		free(r->chunks);
		r->chunks = n;
	}
}

static struct trax_field *field_new(struct trax_reader *r, const struct ctf_value *v,
				    const struct ctf_field *decl)
{
	struct field_chunk *c;
	struct trax_field *f;

	for (c = r->chunks; c; c = c->next)
		if (c->used < CHUNK_FIELDS)
			break;
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return NULL;
		c->next = r->chunks;
		r->chunks = c;
	}
	f = &c->items[c->used++];
	memset(f, 0, sizeof(*f));
	f->r = r;
	f->v = v;
	f->decl = decl;
	return f;
}

/* ---- the API ---- */

TRAX_EXPORT void trax_reader_options_init(struct trax_reader_options *o)
{
	if (!o)
		return;
	memset(o, 0, sizeof(*o));
	o->size = sizeof(*o);
	o->jit = 1;
}

/* Copies the caller's options, as many fields as its version of them has. */
static int options_copy(struct trax_reader_options *dst, const struct trax_reader_options *o)
{
	trax_reader_options_init(dst);
	if (!o)
		return 0;
	if (o->size < offsetof(struct trax_reader_options, threads)) {
		trax_reader_set_error(NULL, "trax_reader_open_with: options without their size");
		return -1;
	}
	memcpy(dst, o, o->size < sizeof(*dst) ? o->size : sizeof(*dst));
	dst->size = sizeof(*dst);
	return 0;
}

static int paths_copy(struct trax_reader *r, const char *const *paths, size_t count)
{
	r->paths = calloc(count, sizeof(*r->paths));
	if (!r->paths)
		return -1;
	for (r->npaths = 0; r->npaths < count; r->npaths++)
		if (!(r->paths[r->npaths] = strdup(paths[r->npaths])))
			return -1;
	return 0;
}

/* How r's traces are ranked (struct trax_reader_options). */
static enum ctf_ss_rank rank_of(const struct trax_reader *r)
{
	return r->opt.trace_order == TRAX_TRACE_ORDER_BY_NAME ? CTF_SS_RANK_BY_NAME
							      : CTF_SS_RANK_BY_PATH;
}

int trax_reader_load_again(const struct trax_reader *r, struct ctf_stream_set *ss)
{
	ss->tuning = r->ss.tuning;
	if (ctf_ss_load(ss, (const char *const *)r->paths, r->npaths, rank_of(r)))
		return -1;
	return trax_reader_legacy_names(r, ss);
}

TRAX_EXPORT struct trax_reader *trax_reader_open_with(const char *const *paths, size_t count,
						      const struct trax_reader_options *o)
{
	struct trax_reader *r;

	open_error[0] = 0;
	if (!paths || !count) {
		trax_reader_set_error(NULL, "trax_reader_open: no path given");
		return NULL;
	}
	for (size_t i = 0; i < count; i++) {
		if (!paths[i] || !paths[i][0]) {
			trax_reader_set_error(NULL, "trax_reader_open: path %zu is NULL or empty",
					      i);
			return NULL;
		}
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		trax_reader_set_error(NULL, "out of memory");
		return NULL;
	}
	if (options_copy(&r->opt, o)) {
		free(r);
		return NULL;
	}
	if (paths_copy(r, paths, count)) {
		trax_reader_set_error(NULL, "out of memory");
		trax_reader_close(r);
		return NULL;
	}
	r->fresh = true;
	r->ss.tuning.window = r->opt.read_window;
	r->ss.tuning.no_jit = !r->opt.jit;
	if (trax_reader_legacy_convert(r, open_error, sizeof(open_error))) {
		trax_reader_close(r);
		return NULL;
	}
	if (ctf_ss_load(&r->ss, (const char *const *)r->paths, r->npaths, rank_of(r)) ||
	    trax_reader_legacy_names(r, &r->ss) || ctf_ss_open(&r->ss, false, 0)) {
		snprintf(open_error, sizeof(open_error), "%s", r->ss.error);
		trax_reader_close(r);
		return NULL;
	}
	return r;
}

TRAX_EXPORT struct trax_reader *trax_reader_open(const char *const *paths, size_t count)
{
	return trax_reader_open_with(paths, count, NULL);
}

TRAX_EXPORT void trax_reader_close(struct trax_reader *r)
{
	if (!r)
		return;
	fields_free(r);
	free(r->streams);
	ctf_ss_free(&r->ss);
	trax_reader_legacy_cleanup(r);
	for (size_t i = 0; i < r->npaths; i++)
		free(r->paths[i]);
	free(r->paths);
	free(r);
}

TRAX_EXPORT int trax_reader_next(struct trax_reader *r, const struct trax_event **ev)
{
	struct ctf_ss_stream *s;
	int st;

	if (ev)
		*ev = NULL;
	if (!r)
		return -1;
	if (!ev) {
		trax_reader_set_error(r, "trax_reader_next: NULL event pointer");
		return -1;
	}
	if (r->failed)
		return -1;
	r->fresh = false;
	fields_reset(r);
	while ((st = ctf_ss_next(&r->ss, &s)) > 0 && s->kind != CTF_SS_EVENT)
		;
	if (st < 0) {
		trax_reader_set_error(r, "%s", r->ss.error);
		r->failed = true;
		return -1;
	}
	if (!st)
		return trax_reader_at_end(r);
	r->ev.r = r;
	r->ev.s = s;
	r->ev.sr = s->item_file->sr;
	*ev = &r->ev;
	return 1;
}

struct each {
	struct trax_reader *r;
	int (*fn)(void *ctx, const struct trax_event *ev);
	void *ctx;
	int stop; /* fn's nonzero return */
};

static int each_item(void *ctx, struct ctf_ss_stream *s)
{
	struct each *e = ctx;
	struct trax_reader *r = e->r;

	if (s->kind != CTF_SS_EVENT)
		return 0;
	if (r->chunks)
		fields_reset(r);
	r->ev.r = r;
	r->ev.s = s;
	r->ev.sr = s->item_file->sr;
	e->stop = e->fn(e->ctx, &r->ev);
	return e->stop != 0; /* (ctf_ss_each() stops on a positive value) */
}

TRAX_EXPORT int trax_reader_each(struct trax_reader *r,
				 int (*fn)(void *ctx, const struct trax_event *ev), void *ctx)
{
	struct each e = {.r = r, .fn = fn, .ctx = ctx};
	int st;

	if (!r)
		return -1;
	if (!fn) {
		trax_reader_set_error(r, "trax_reader_each: NULL function");
		return -1;
	}
	if (r->failed)
		return -1;
	r->fresh = false;
	fields_reset(r);
	st = ctf_ss_each(&r->ss, each_item, &e);
	if (st < 0) {
		trax_reader_set_error(r, "%s", r->ss.error);
		r->failed = true;
		return -1;
	}
	return st ? e.stop : trax_reader_at_end(r);
}

TRAX_EXPORT int trax_reader_seek_ns(struct trax_reader *r, int64_t ns)
{
	if (!r)
		return -1;
	fields_reset(r);
	ctf_ss_close(&r->ss);
	r->fresh = false;
	r->failed = false;
	r->error[0] = 0;
	if (ctf_ss_open(&r->ss, true, ns)) {
		trax_reader_set_error(r, "%s", r->ss.error);
		r->failed = true;
		return -1;
	}
	return 0;
}

TRAX_EXPORT const char *trax_reader_error(const struct trax_reader *r)
{
	return r ? r->error : open_error;
}

/* ---- traces ---- */

static const struct ctf_trace *get_trace(const struct trax_reader *r, size_t i)
{
	return r && i < r->ss.ntraces ? r->ss.traces[i].trace : NULL;
}

TRAX_EXPORT size_t trax_reader_trace_count(const struct trax_reader *r)
{
	return r ? r->ss.ntraces : 0;
}

TRAX_EXPORT const char *trax_reader_trace_path(const struct trax_reader *r, size_t trace)
{
	/* a converted legacy trace: the path given, not its private copy */
	return r && trace < r->ss.ntraces
		   ? trax_reader_legacy_origin(r, r->ss.traces[trace].dir->path)
		   : NULL;
}

TRAX_EXPORT size_t trax_reader_env_count(const struct trax_reader *r, size_t trace)
{
	const struct ctf_trace *t = get_trace(r, trace);

	return t ? t->env_count : 0;
}

TRAX_EXPORT const char *trax_reader_env_key(const struct trax_reader *r, size_t trace, size_t i)
{
	const struct ctf_trace *t = get_trace(r, trace);

	return t && i < t->env_count ? t->env[i].key : NULL;
}

TRAX_EXPORT const char *trax_reader_env_string(const struct trax_reader *r, size_t trace,
					       const char *key)
{
	const struct ctf_trace *t = get_trace(r, trace);
	const struct ctf_env_entry *e = t && key ? ctf_trace_env(t, key) : NULL;

	return e && e->is_string ? e->string : NULL;
}

TRAX_EXPORT int trax_reader_env_int(const struct trax_reader *r, size_t trace, const char *key,
				    int64_t *value)
{
	const struct ctf_trace *t = get_trace(r, trace);
	const struct ctf_env_entry *e = t && key ? ctf_trace_env(t, key) : NULL;

	if (!e || e->is_string || !value)
		return -1;
	*value = e->integer;
	return 0;
}

TRAX_EXPORT size_t trax_reader_clock_count(const struct trax_reader *r, size_t trace)
{
	const struct ctf_trace *t = get_trace(r, trace);

	return t ? t->clock_count : 0;
}

TRAX_EXPORT int trax_reader_clock(const struct trax_reader *r, size_t trace, size_t i,
				  struct trax_clock_info *info)
{
	const struct ctf_trace *t = get_trace(r, trace);
	const struct ctf_clock *c;

	if (!t || i >= t->clock_count || !info)
		return -1;
	c = &t->clocks[i];
	memset(info, 0, sizeof(*info));
	info->name = c->name;
	info->description = c->description;
	info->freq = c->freq;
	info->precision = c->precision;
	info->offset_s = c->offset_s;
	info->offset = c->offset;
	info->absolute = c->absolute;
	info->has_uuid = c->has_uuid;
	memcpy(info->uuid, c->uuid, 16);
	return 0;
}

/* ---- events ---- */

TRAX_EXPORT const char *trax_event_name(const struct trax_event *ev)
{
	return ev ? ev->sr->event.cls->name : NULL;
}

TRAX_EXPORT uint64_t trax_event_id(const struct trax_event *ev)
{
	return ev ? ev->sr->event.cls->id : 0;
}

TRAX_EXPORT int trax_event_has_timestamp(const struct trax_event *ev)
{
	return ev && ev->sr->event.has_clock;
}

TRAX_EXPORT int64_t trax_event_timestamp_ns(const struct trax_event *ev)
{
	return ev && ev->sr->event.has_clock ? ev->s->event_ns : 0;
}

TRAX_EXPORT int trax_event_clock_cycles(const struct trax_event *ev, uint64_t *cycles)
{
	if (!ev || !cycles || !ev->sr->event.has_clock)
		return -1;
	*cycles = ev->sr->event.clock_value;
	return 0;
}

TRAX_EXPORT size_t trax_event_trace_index(const struct trax_event *ev)
{
	return ev ? ev->s->item_file->t->index : 0;
}

TRAX_EXPORT uint64_t trax_event_stream_class_id(const struct trax_event *ev)
{
	return ev ? ev->s->sc_id : 0;
}

TRAX_EXPORT uint64_t trax_event_stream_id(const struct trax_event *ev)
{
	return ev ? ev->s->stream_id : 0;
}

static const struct ctf_value *scope_root(const struct trax_event *ev, enum trax_scope scope)
{
	const struct ctf_value *v = NULL;

	if (!ev)
		return NULL;
	switch (scope) {
	case TRAX_SCOPE_PAYLOAD:
		v = ev->sr->event.payload;
		break;
	case TRAX_SCOPE_EVENT_CONTEXT:
		v = ev->sr->event.context;
		break;
	case TRAX_SCOPE_STREAM_EVENT_CONTEXT:
		v = ev->sr->event.stream_context;
		break;
	case TRAX_SCOPE_PACKET_CONTEXT:
		v = ev->sr->packet.context;
		break;
	case TRAX_SCOPE_EVENT_HEADER:
		v = ev->sr->event.header;
		break;
	case TRAX_SCOPE_PACKET_HEADER:
		v = ev->sr->packet.header;
		break;
	}
	return v && v->type->kind == CTF_TYPE_STRUCT ? v : NULL;
}

static bool is_text(const struct ctf_type *t)
{
	return (t->kind == CTF_TYPE_ARRAY && ctf_type_is_text_element(t->u.array.element)) ||
	       (t->kind == CTF_TYPE_SEQUENCE && ctf_type_is_text_element(t->u.sequence.element));
}

static size_t children(const struct ctf_value *v)
{
	switch (v->type->kind) {
	case CTF_TYPE_STRUCT:
	case CTF_TYPE_ARRAY:
	case CTF_TYPE_SEQUENCE:
		return is_text(v->type) ? (size_t)v->u.str.len : (size_t)v->u.list.count;
	case CTF_TYPE_VARIANT:
		return v->u.variant.value ? 1 : 0;
	default:
		return 0;
	}
}

static const struct trax_field *child_at(struct trax_reader *r, const struct ctf_value *v, size_t i)
{
	if (i >= children(v))
		return NULL;
	switch (v->type->kind) {
	case CTF_TYPE_STRUCT:
		return field_new(r, &v->u.list.items[i], &v->type->u.structure.fields[i]);
	case CTF_TYPE_VARIANT:
		if (v->u.variant.option >= v->type->u.variant.option_count)
			return NULL;
		return field_new(r, v->u.variant.value,
				 &v->type->u.variant.options[v->u.variant.option]);
	default:
		break;
	}
	if (is_text(v->type)) {
		const struct ctf_type *elem = v->type->kind == CTF_TYPE_ARRAY
						  ? v->type->u.array.element
						  : v->type->u.sequence.element;
		struct trax_field *f = field_new(r, NULL, NULL);
		uint8_t b = (uint8_t)v->u.str.ptr[i];

		if (!f)
			return NULL;
		f->byte.type = elem;
		f->byte.u.u = elem->u.integer.is_signed ? (uint64_t)(int64_t)(int8_t)b : b;
		f->v = &f->byte;
		return f;
	}
	return field_new(r, &v->u.list.items[i], NULL);
}

static bool name_is(const struct ctf_field *decl, const char *name)
{
	return !strcmp(decl->display_name ? decl->display_name : decl->name, name) ||
	       !strcmp(decl->name, name);
}

static const struct trax_field *child_named(struct trax_reader *r, const struct ctf_value *v,
					    const char *name)
{
	if (!name)
		return NULL;
	if (v->type->kind == CTF_TYPE_STRUCT) {
		const struct ctf_struct_type *st = &v->type->u.structure;

		/* display names first, then TSDL names */
		for (unsigned i = 0; i < st->field_count && i < v->u.list.count; i++)
			if (st->fields[i].display_name && !strcmp(st->fields[i].display_name, name))
				return child_at(r, v, i);
		for (unsigned i = 0; i < st->field_count && i < v->u.list.count; i++)
			if (!strcmp(st->fields[i].name, name))
				return child_at(r, v, i);
		return NULL;
	}
	if (v->type->kind == CTF_TYPE_VARIANT &&
	    v->u.variant.option < v->type->u.variant.option_count &&
	    name_is(&v->type->u.variant.options[v->u.variant.option], name))
		return child_at(r, v, 0);
	return NULL;
}

TRAX_EXPORT size_t trax_event_field_count(const struct trax_event *ev, enum trax_scope scope)
{
	const struct ctf_value *v = scope_root(ev, scope);

	return v ? children(v) : 0;
}

TRAX_EXPORT const struct trax_field *trax_event_field_by_index(const struct trax_event *ev,
							       enum trax_scope scope, size_t i)
{
	const struct ctf_value *v = scope_root(ev, scope);

	return v ? child_at(ev->r, v, i) : NULL;
}

TRAX_EXPORT const struct trax_field *
trax_event_field_by_name(const struct trax_event *ev, enum trax_scope scope, const char *name)
{
	const struct ctf_value *v = scope_root(ev, scope);

	return v ? child_named(ev->r, v, name) : NULL;
}

/* ---- fields ---- */

TRAX_EXPORT enum trax_field_kind trax_field_kind(const struct trax_field *f)
{
	if (!f || !f->v)
		return TRAX_FIELD_INVALID;
	switch (f->v->type->kind) {
	case CTF_TYPE_INTEGER:
		return f->v->type->u.integer.is_signed ? TRAX_FIELD_SIGNED : TRAX_FIELD_UNSIGNED;
	case CTF_TYPE_FLOAT:
		return TRAX_FIELD_FLOAT;
	case CTF_TYPE_ENUM:
		return TRAX_FIELD_ENUM;
	case CTF_TYPE_STRING:
		return TRAX_FIELD_STRING;
	case CTF_TYPE_STRUCT:
		return TRAX_FIELD_STRUCT;
	case CTF_TYPE_VARIANT:
		return TRAX_FIELD_VARIANT;
	case CTF_TYPE_ARRAY:
		return TRAX_FIELD_ARRAY;
	case CTF_TYPE_SEQUENCE:
		return TRAX_FIELD_SEQUENCE;
	}
	return TRAX_FIELD_INVALID;
}

TRAX_EXPORT const char *trax_field_name(const struct trax_field *f)
{
	if (!f || !f->decl)
		return NULL;
	return f->decl->display_name ? f->decl->display_name : f->decl->name;
}

TRAX_EXPORT const char *trax_field_tsdl_name(const struct trax_field *f)
{
	return f && f->decl ? f->decl->name : NULL;
}

static bool int_signed(const struct ctf_type *t, bool *is_signed)
{
	if (t->kind == CTF_TYPE_INTEGER)
		*is_signed = t->u.integer.is_signed;
	else if (t->kind == CTF_TYPE_ENUM)
		*is_signed = t->u.enumeration.container.is_signed;
	else
		return false;
	return true;
}

TRAX_EXPORT int trax_field_int(const struct trax_field *f, int64_t *value)
{
	bool sgn;

	if (!f || !f->v || !value || !int_signed(f->v->type, &sgn))
		return -1;
	if (!sgn && f->v->u.u > (uint64_t)INT64_MAX)
		return -1;
	*value = f->v->u.s;
	return 0;
}

TRAX_EXPORT int trax_field_uint(const struct trax_field *f, uint64_t *value)
{
	bool sgn;

	if (!f || !f->v || !value || !int_signed(f->v->type, &sgn))
		return -1;
	if (sgn && f->v->u.s < 0)
		return -1;
	*value = f->v->u.u;
	return 0;
}

TRAX_EXPORT int trax_field_double(const struct trax_field *f, double *value)
{
	bool sgn;

	if (!f || !f->v || !value)
		return -1;
	if (f->v->type->kind == CTF_TYPE_FLOAT) {
		*value = f->v->u.d;
		return 0;
	}
	if (!int_signed(f->v->type, &sgn))
		return -1;
	*value = sgn ? (double)f->v->u.s : (double)f->v->u.u;
	return 0;
}

TRAX_EXPORT const char *trax_field_string(const struct trax_field *f, size_t *len)
{
	struct trax_field *m = (struct trax_field *)f; /* handles are the reader's */
	const char *p;
	size_t n;

	if (len)
		*len = 0;
	if (!f || !f->v)
		return NULL;
	if (f->v->type->kind == CTF_TYPE_STRING) {
		p = f->v->u.str.ptr;
		n = (size_t)f->v->u.str.len;
	} else if (is_text(f->v->type)) {
		const char *z;

		p = f->v->u.str.ptr;
		n = (size_t)f->v->u.str.len;
		z = n ? memchr(p, 0, n) : NULL;
		if (z)
			n = (size_t)(z - p);
	} else {
		return NULL;
	}
	if (!m->str) {
		m->str = malloc(n + 1);
		if (!m->str)
			return NULL;
		if (n)
			memcpy(m->str, p, n);
		m->str[n] = 0;
		m->str_len = n;
	}
	if (len)
		*len = m->str_len;
	return m->str;
}

TRAX_EXPORT const char *trax_field_enum_label(const struct trax_field *f, size_t index)
{
	const struct ctf_enum_type *et;

	if (!f || !f->v || f->v->type->kind != CTF_TYPE_ENUM)
		return NULL;
	et = &f->v->type->u.enumeration;
	for (unsigned i = 0; i < et->mapping_count; i++) {
		const struct ctf_enum_mapping *m = &et->mappings[i];
		bool in = et->container.is_signed
			      ? ((int64_t)m->start <= f->v->u.s && f->v->u.s <= (int64_t)m->end)
			      : (m->start <= f->v->u.u && f->v->u.u <= m->end);

		if (in && index-- == 0)
			return m->label;
	}
	return NULL;
}

TRAX_EXPORT size_t trax_field_child_count(const struct trax_field *f)
{
	return f && f->v ? children(f->v) : 0;
}

TRAX_EXPORT const struct trax_field *trax_field_child(const struct trax_field *f, size_t i)
{
	return f && f->v ? child_at(f->r, f->v, i) : NULL;
}

TRAX_EXPORT const struct trax_field *trax_field_child_by_name(const struct trax_field *f,
							      const char *name)
{
	return f && f->v ? child_named(f->r, f->v, name) : NULL;
}

TRAX_EXPORT const struct trax_field *trax_field_variant_selected(const struct trax_field *f)
{
	if (!f || !f->v || f->v->type->kind != CTF_TYPE_VARIANT)
		return NULL;
	return child_at(f->r, f->v, 0);
}
