/*
 * reader.c - the public reader API (include/trax/reader.h) over the
 * internal layers: trace-dir.h finds the traces, metadata-read.h loads
 * their metadata, decode-stream.h reads each stream file, merge.h merges
 * the streams in time order.
 *
 * The grouping of stream files into streams and the merge order are those
 * of src/cli/view.c (same trace UUID, stream class and stream_instance_id
 * make one stream; ties broken by trace rank, stream class, stream id),
 * without its discarded-events warnings.
 *
 * Seeking reopens every stream file and skips, per stream, the events
 * before the target time.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "trax/reader.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/decode-clock.h"
#include "ctf/decode-stream.h"
#include "ctf/merge.h"
#include "ctf/metadata-read.h"
#include "ctf/trace-dir.h"

struct rtrace {
	struct ctf_trace *trace;
	const struct ctf_trace_dir *dir;
	size_t index;
	int rank; /* tie order between traces (equal for one UUID) */
};

struct rfile {
	struct rtrace *t;
	const char *path;
	struct ctf_stream_reader *sr;
	bool pending; /* its first packet is read, not yet handled */
	bool has_first_ns;
	int64_t first_ns;
	uint64_t sc_id;
	bool has_instance;
	uint64_t instance;
	size_t order;
};

struct rstream {
	struct rtrace *t;
	struct rfile **files;
	size_t nfiles, cur;
	uint64_t sc_id, stream_id;
	size_t ordinal;
	int64_t key; /* time of the current event, or the previous one's */
	bool has_ts;
	struct rfile *item_file;
};

struct trax_event {
	struct trax_reader *r;
	struct rstream *s;
	const struct ctf_stream_reader *sr;
};

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

struct trax_reader {
	struct ctf_trace_set *sets;
	size_t nsets;
	struct rtrace *traces;
	size_t ntraces;
	struct rfile *files;
	size_t nfiles;
	struct rstream *streams;
	size_t nstreams;
	struct ctf_merge_heap heap;
	bool heap_ready;
	struct rstream *advance; /* the stream whose event was returned last */
	bool failed;		 /* the error is sticky until a seek */
	struct trax_event ev;
	struct field_chunk *chunks;
	char error[1200];
};

static _Thread_local char open_error[1200];

static void set_error(struct trax_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_error(struct trax_reader *r, const char *fmt, ...)
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

/* ---- loading ---- */

static int cmp_trace_ptr(const void *a, const void *b)
{
	const struct rtrace *x = *(struct rtrace *const *)a, *y = *(struct rtrace *const *)b;

	if (x->trace->has_uuid != y->trace->has_uuid)
		return x->trace->has_uuid ? -1 : 1;
	if (x->trace->has_uuid)
		return memcmp(x->trace->uuid, y->trace->uuid, 16);
	return strcmp(x->dir->path, y->dir->path);
}

static bool same_group(const struct rfile *a, const struct rfile *b)
{
	if (a->t != b->t) {
		if (!a->t->trace->has_uuid || !b->t->trace->has_uuid ||
		    memcmp(a->t->trace->uuid, b->t->trace->uuid, 16))
			return false;
	}
	return a->sc_id == b->sc_id && a->has_instance && b->has_instance &&
	       a->instance == b->instance;
}

static int cmp_file_group(const void *a, const void *b)
{
	const struct rfile *x = *(struct rfile *const *)a, *y = *(struct rfile *const *)b;

	if (x->t->rank != y->t->rank)
		return x->t->rank < y->t->rank ? -1 : 1;
	if (x->sc_id != y->sc_id)
		return x->sc_id < y->sc_id ? -1 : 1;
	if (x->has_instance != y->has_instance)
		return x->has_instance ? -1 : 1;
	if (x->has_instance && x->instance != y->instance)
		return x->instance < y->instance ? -1 : 1;
	if (!x->has_instance)
		return x->order < y->order ? -1 : (x->order > y->order);
	if (x->has_first_ns && y->has_first_ns && x->first_ns != y->first_ns)
		return x->first_ns < y->first_ns ? -1 : 1;
	return x->order < y->order ? -1 : (x->order > y->order);
}

static int cmp_stream(const void *a, const void *b)
{
	const struct rstream *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->t->rank != y->t->rank)
		return x->t->rank < y->t->rank ? -1 : 1;
	if (x->sc_id != y->sc_id)
		return x->sc_id < y->sc_id ? -1 : 1;
	if (x->stream_id != y->stream_id)
		return x->stream_id < y->stream_id ? -1 : 1;
	return x->ordinal < y->ordinal ? -1 : (x->ordinal > y->ordinal);
}

static int load_traces(struct trax_reader *r, const char *const *paths, size_t count)
{
	char err[1200];
	size_t nf = 0, k = 0;
	struct rtrace **order;

	r->sets = calloc(count, sizeof(*r->sets));
	if (!r->sets)
		goto oom;
	r->nsets = count;
	for (size_t i = 0; i < count; i++) {
		if (ctf_trace_set_add(&r->sets[i], paths[i], err, sizeof(err))) {
			set_error(r, "%s", err);
			return -1;
		}
		r->ntraces += r->sets[i].nr_traces;
		for (size_t j = 0; j < r->sets[i].nr_traces; j++)
			nf += r->sets[i].traces[j].nr_streams;
	}
	if (!r->ntraces) {
		set_error(r, "%s: no CTF trace found", paths[0]);
		return -1;
	}
	r->traces = calloc(r->ntraces, sizeof(*r->traces));
	r->files = calloc(nf ? nf : 1, sizeof(*r->files));
	if (!r->traces || !r->files)
		goto oom;
	for (size_t i = 0; i < count; i++) {
		for (size_t j = 0; j < r->sets[i].nr_traces; j++, k++) {
			struct rtrace *t = &r->traces[k];
			struct tsdl_error terr;

			t->dir = &r->sets[i].traces[j];
			t->index = k;
			t->trace = ctf_metadata_load(t->dir->metadata_path, &terr);
			if (!t->trace) {
				tsdl_error_format(&terr, err, sizeof(err));
				set_error(r, "%s", err);
				return -1;
			}
			for (size_t m = 0; m < t->dir->nr_streams; m++) {
				struct rfile *f = &r->files[r->nfiles];

				f->t = t;
				f->order = r->nfiles++;
				f->path = t->dir->streams[m].path;
			}
		}
	}
	order = malloc(r->ntraces * sizeof(*order));
	if (!order)
		goto oom;
	for (size_t i = 0; i < r->ntraces; i++)
		order[i] = &r->traces[i];
	qsort(order, r->ntraces, sizeof(*order), cmp_trace_ptr);
	for (size_t i = 0; i < r->ntraces; i++)
		order[i]->rank = (i && !cmp_trace_ptr(&order[i - 1], &order[i])) ? order[i - 1]->rank
										  : (int)i;
	free(order);
	return 0;
oom:
	set_error(r, "out of memory");
	return -1;
}

/* Clocks of all streams must be correlatable (as view.c checks them). */
static int check_clocks(struct trax_reader *r)
{
	const struct rfile *first = NULL;

	for (size_t i = 0; i < r->nfiles; i++) {
		const struct rfile *f = &r->files[i];
		const struct ctf_clock *c, *c0;

		if (!f->sr)
			continue;
		if (!first) {
			first = f;
			continue;
		}
		c0 = first->sr->packet.clock;
		c = f->sr->packet.clock;
		if (!c0 != !c) {
			set_error(r, "%s: cannot merge a stream %s a clock with %s, which has %s",
				  f->path, c ? "with" : "without", first->path, c0 ? "one" : "none");
			return -1;
		}
		if (!c)
			continue;
		if (c0->absolute ? !c->absolute
				 : (c0->has_uuid ? (c->absolute || !c->has_uuid ||
						    memcmp(c0->uuid, c->uuid, 16))
						 : c != c0)) {
			set_error(r,
				  "%s: its clock `%s` cannot be correlated with clock `%s` of %s",
				  f->path, c->name, c0->name, first->path);
			return -1;
		}
	}
	return 0;
}

static void close_streams(struct trax_reader *r)
{
	for (size_t i = 0; i < r->nfiles; i++) {
		ctf_stream_close(r->files[i].sr);
		r->files[i].sr = NULL;
		r->files[i].pending = false;
	}
	for (size_t i = 0; i < r->nstreams; i++)
		free(r->streams[i].files);
	free(r->streams);
	r->streams = NULL;
	r->nstreams = 0;
	if (r->heap_ready)
		ctf_merge_free(&r->heap);
	r->heap_ready = false;
	r->advance = NULL;
}

/* Reads the stream's next event with a time at or after min_ns: 1, 0 at its end, -1. */
static int stream_advance(struct trax_reader *r, struct rstream *s, bool skip, int64_t min_ns)
{
	for (;;) {
		struct rfile *f;
		int st;

		if (s->cur >= s->nfiles)
			return 0;
		f = s->files[s->cur];
		if (f->pending) {
			f->pending = false;
			st = CTF_STREAM_PACKET;
		} else {
			st = ctf_stream_next(f->sr);
		}
		switch (st) {
		case CTF_STREAM_PACKET:
			continue;
		case CTF_STREAM_EVENT:
			s->item_file = f;
			if (f->sr->event.has_clock) {
				if (ctf_clock_cycles_to_ns(f->sr->packet.clock,
							   f->sr->event.clock_value, &s->key)) {
					set_error(r,
						  "%s: packet at byte %llu: clock value %llu of clock "
						  "`%s` does not fit a signed 64-bit number of "
						  "nanoseconds from the origin",
						  f->path, (unsigned long long)f->sr->packet.offset,
						  (unsigned long long)f->sr->event.clock_value,
						  f->sr->packet.clock->name);
					return -1;
				}
				s->has_ts = true;
			} else {
				s->has_ts = false; /* key: the previous event's */
			}
			if (skip && s->key < min_ns)
				continue;
			return 1;
		case CTF_STREAM_END:
			s->cur++;
			continue;
		default:
			set_error(r, "%s", f->sr->error);
			return -1;
		}
	}
}

/* Opens every stream file, groups them into streams, reads their first events. */
static int open_streams(struct trax_reader *r, bool skip, int64_t min_ns)
{
	char err[1200];
	struct rfile **order;
	size_t n = 0;

	for (size_t i = 0; i < r->nfiles; i++) {
		struct rfile *f = &r->files[i];
		int st;

		f->sr = ctf_stream_open(f->t->trace, f->path, err, sizeof(err));
		if (!f->sr) {
			set_error(r, "%s", err);
			return -1;
		}
		st = ctf_stream_next(f->sr);
		if (st == CTF_STREAM_END) {
			ctf_stream_close(f->sr);
			f->sr = NULL;
			continue;
		}
		if (st != CTF_STREAM_PACKET) {
			set_error(r, "%s", f->sr->error);
			return -1;
		}
		f->pending = true;
		f->sc_id = f->sr->packet.stream_class->id;
		f->has_instance = f->sr->packet.has_stream_instance_id;
		f->instance = f->sr->packet.stream_instance_id;
		f->has_first_ns = f->sr->packet.clock && f->sr->packet.has_timestamp_begin &&
				  ctf_clock_cycles_to_ns(f->sr->packet.clock,
							 f->sr->packet.timestamp_begin,
							 &f->first_ns) == 0;
	}
	if (check_clocks(r))
		return -1;
	order = malloc((r->nfiles ? r->nfiles : 1) * sizeof(*order));
	r->streams = calloc(r->nfiles ? r->nfiles : 1, sizeof(*r->streams));
	if (!order || !r->streams) {
		free(order);
		set_error(r, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < r->nfiles; i++)
		if (r->files[i].sr)
			order[n++] = &r->files[i];
	qsort(order, n, sizeof(*order), cmp_file_group);
	for (size_t i = 0; i < n;) {
		size_t e = i + 1;
		struct rstream *s = &r->streams[r->nstreams];

		while (e < n && same_group(order[i], order[e]))
			e++;
		s->files = malloc((e - i) * sizeof(*s->files));
		if (!s->files) {
			free(order);
			set_error(r, "out of memory");
			return -1;
		}
		memcpy(s->files, order + i, (e - i) * sizeof(*s->files));
		s->nfiles = e - i;
		s->t = order[i]->t;
		s->sc_id = order[i]->sc_id;
		s->ordinal = r->nstreams;
		s->key = INT64_MIN;
		if (order[i]->has_instance) {
			s->stream_id = order[i]->instance;
		} else {
			/* numbered per stream class, in opening order, as Babeltrace does */
			uint64_t id = 0;

			for (size_t p = 0; p < r->nstreams; p++)
				if (r->streams[p].t->rank == s->t->rank &&
				    r->streams[p].sc_id == s->sc_id &&
				    !r->streams[p].files[0]->has_instance)
					id++;
			s->stream_id = id;
		}
		r->nstreams++;
		i = e;
	}
	free(order);
	ctf_merge_init(&r->heap, cmp_stream);
	r->heap_ready = true;
	for (size_t i = 0; i < r->nstreams; i++) {
		int st = stream_advance(r, &r->streams[i], skip, min_ns);

		if (st < 0)
			return -1;
		if (st > 0 && ctf_merge_push(&r->heap, &r->streams[i])) {
			set_error(r, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* ---- the API ---- */

struct trax_reader *trax_reader_open(const char *const *paths, size_t count)
{
	struct trax_reader *r;

	open_error[0] = 0;
	if (!paths || !count) {
		set_error(NULL, "trax_reader_open: no path given");
		return NULL;
	}
	for (size_t i = 0; i < count; i++) {
		if (!paths[i] || !paths[i][0]) {
			set_error(NULL, "trax_reader_open: path %zu is NULL or empty", i);
			return NULL;
		}
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		set_error(NULL, "out of memory");
		return NULL;
	}
	if (load_traces(r, paths, count) || open_streams(r, false, 0)) {
		snprintf(open_error, sizeof(open_error), "%s", r->error);
		trax_reader_close(r);
		return NULL;
	}
	return r;
}

void trax_reader_close(struct trax_reader *r)
{
	if (!r)
		return;
	close_streams(r);
	fields_free(r);
	free(r->files);
	for (size_t i = 0; i < r->ntraces; i++)
		ctf_trace_free(r->traces[i].trace);
	free(r->traces);
	for (size_t i = 0; i < r->nsets; i++)
		ctf_trace_set_free(&r->sets[i]);
	free(r->sets);
	free(r);
}

int trax_reader_next(struct trax_reader *r, const struct trax_event **ev)
{
	struct rstream *s;

	if (ev)
		*ev = NULL;
	if (!r)
		return -1;
	if (!ev) {
		set_error(r, "trax_reader_next: NULL event pointer");
		return -1;
	}
	if (r->failed)
		return -1;
	fields_reset(r);
	if (r->advance) {
		int st = stream_advance(r, r->advance, false, 0);

		r->advance = NULL;
		if (st < 0) {
			r->failed = true;
			return -1;
		}
		if (st == 0)
			ctf_merge_pop(&r->heap);
		else
			ctf_merge_top_changed(&r->heap);
	}
	s = ctf_merge_top(&r->heap);
	if (!s)
		return 0;
	r->advance = s;
	r->ev.r = r;
	r->ev.s = s;
	r->ev.sr = s->item_file->sr;
	*ev = &r->ev;
	return 1;
}

int trax_reader_seek_ns(struct trax_reader *r, int64_t ns)
{
	if (!r)
		return -1;
	fields_reset(r);
	close_streams(r);
	r->failed = false;
	r->error[0] = 0;
	if (open_streams(r, true, ns)) {
		r->failed = true;
		return -1;
	}
	return 0;
}

const char *trax_reader_error(const struct trax_reader *r)
{
	return r ? r->error : open_error;
}

/* ---- traces ---- */

static const struct ctf_trace *get_trace(const struct trax_reader *r, size_t i)
{
	return r && i < r->ntraces ? r->traces[i].trace : NULL;
}

size_t trax_reader_trace_count(const struct trax_reader *r)
{
	return r ? r->ntraces : 0;
}

const char *trax_reader_trace_path(const struct trax_reader *r, size_t trace)
{
	return r && trace < r->ntraces ? r->traces[trace].dir->path : NULL;
}

size_t trax_reader_env_count(const struct trax_reader *r, size_t trace)
{
	const struct ctf_trace *t = get_trace(r, trace);

	return t ? t->env_count : 0;
}

const char *trax_reader_env_key(const struct trax_reader *r, size_t trace, size_t i)
{
	const struct ctf_trace *t = get_trace(r, trace);

	return t && i < t->env_count ? t->env[i].key : NULL;
}

const char *trax_reader_env_string(const struct trax_reader *r, size_t trace, const char *key)
{
	const struct ctf_trace *t = get_trace(r, trace);
	const struct ctf_env_entry *e = t && key ? ctf_trace_env(t, key) : NULL;

	return e && e->is_string ? e->string : NULL;
}

int trax_reader_env_int(const struct trax_reader *r, size_t trace, const char *key,
			int64_t *value)
{
	const struct ctf_trace *t = get_trace(r, trace);
	const struct ctf_env_entry *e = t && key ? ctf_trace_env(t, key) : NULL;

	if (!e || e->is_string || !value)
		return -1;
	*value = e->integer;
	return 0;
}

size_t trax_reader_clock_count(const struct trax_reader *r, size_t trace)
{
	const struct ctf_trace *t = get_trace(r, trace);

	return t ? t->clock_count : 0;
}

int trax_reader_clock(const struct trax_reader *r, size_t trace, size_t i,
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

const char *trax_event_name(const struct trax_event *ev)
{
	return ev ? ev->sr->event.cls->name : NULL;
}

uint64_t trax_event_id(const struct trax_event *ev)
{
	return ev ? ev->sr->event.cls->id : 0;
}

int trax_event_has_timestamp(const struct trax_event *ev)
{
	return ev && ev->sr->event.has_clock;
}

int64_t trax_event_timestamp_ns(const struct trax_event *ev)
{
	return ev && ev->sr->event.has_clock ? ev->s->key : 0;
}

int trax_event_clock_cycles(const struct trax_event *ev, uint64_t *cycles)
{
	if (!ev || !cycles || !ev->sr->event.has_clock)
		return -1;
	*cycles = ev->sr->event.clock_value;
	return 0;
}

size_t trax_event_trace_index(const struct trax_event *ev)
{
	return ev ? ev->s->item_file->t->index : 0;
}

uint64_t trax_event_stream_class_id(const struct trax_event *ev)
{
	return ev ? ev->s->sc_id : 0;
}

uint64_t trax_event_stream_id(const struct trax_event *ev)
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

static const struct trax_field *child_at(struct trax_reader *r, const struct ctf_value *v,
					 size_t i)
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

size_t trax_event_field_count(const struct trax_event *ev, enum trax_scope scope)
{
	const struct ctf_value *v = scope_root(ev, scope);

	return v ? children(v) : 0;
}

const struct trax_field *trax_event_field_by_index(const struct trax_event *ev,
						   enum trax_scope scope, size_t i)
{
	const struct ctf_value *v = scope_root(ev, scope);

	return v ? child_at(ev->r, v, i) : NULL;
}

const struct trax_field *trax_event_field_by_name(const struct trax_event *ev,
						  enum trax_scope scope, const char *name)
{
	const struct ctf_value *v = scope_root(ev, scope);

	return v ? child_named(ev->r, v, name) : NULL;
}

/* ---- fields ---- */

enum trax_field_kind trax_field_kind(const struct trax_field *f)
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

const char *trax_field_name(const struct trax_field *f)
{
	if (!f || !f->decl)
		return NULL;
	return f->decl->display_name ? f->decl->display_name : f->decl->name;
}

const char *trax_field_tsdl_name(const struct trax_field *f)
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

int trax_field_int(const struct trax_field *f, int64_t *value)
{
	bool sgn;

	if (!f || !f->v || !value || !int_signed(f->v->type, &sgn))
		return -1;
	if (!sgn && f->v->u.u > (uint64_t)INT64_MAX)
		return -1;
	*value = f->v->u.s;
	return 0;
}

int trax_field_uint(const struct trax_field *f, uint64_t *value)
{
	bool sgn;

	if (!f || !f->v || !value || !int_signed(f->v->type, &sgn))
		return -1;
	if (sgn && f->v->u.s < 0)
		return -1;
	*value = f->v->u.u;
	return 0;
}

int trax_field_double(const struct trax_field *f, double *value)
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

const char *trax_field_string(const struct trax_field *f, size_t *len)
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

const char *trax_field_enum_label(const struct trax_field *f, size_t index)
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

size_t trax_field_child_count(const struct trax_field *f)
{
	return f && f->v ? children(f->v) : 0;
}

const struct trax_field *trax_field_child(const struct trax_field *f, size_t i)
{
	return f && f->v ? child_at(f->r, f->v, i) : NULL;
}

const struct trax_field *trax_field_child_by_name(const struct trax_field *f, const char *name)
{
	return f && f->v ? child_named(f->r, f->v, name) : NULL;
}

const struct trax_field *trax_field_variant_selected(const struct trax_field *f)
{
	if (!f || !f->v || f->v->type->kind != CTF_TYPE_VARIANT)
		return NULL;
	return child_at(f->r, f->v, 0);
}
