/* stream-set.c - the streams of several traces, merged (see stream-set.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "reader/stream-set.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/decode-clock.h"

static void set_error(struct ctf_stream_set *ss, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_error(struct ctf_stream_set *ss, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ss->error, sizeof(ss->error), fmt, ap);
	va_end(ap);
}

/* ---- loading ---- */

static char *trace_name(const struct ctf_trace *trace, const char *arg, const char *dir)
{
	const struct ctf_env_entry *h = ctf_trace_env(trace, "hostname");
	const char *rel = dir;
	size_t alen = strlen(arg);
	char *name;

	if (!strncmp(dir, arg, alen))
		rel = dir + alen;
	while (*rel == '/')
		rel++;
	if (h && h->is_string && h->string[0]) {
		if (*rel) {
			if (asprintf(&name, "%s/%s", h->string, rel) < 0)
				return NULL;
		} else {
			name = strdup(h->string);
		}
	} else {
		name = strdup(rel);
	}
	return name;
}

/* qsort has no context argument: the rank key is chosen per sort. */
static _Thread_local enum ctf_ss_rank rank_by;

static int cmp_trace_ptr(const void *a, const void *b)
{
	const struct ctf_ss_trace *x = *(struct ctf_ss_trace *const *)a;
	const struct ctf_ss_trace *y = *(struct ctf_ss_trace *const *)b;

	if (x->trace->has_uuid != y->trace->has_uuid)
		return x->trace->has_uuid ? -1 : 1;
	if (x->trace->has_uuid)
		return memcmp(x->trace->uuid, y->trace->uuid, 16);
	if (rank_by == CTF_SS_RANK_BY_NAME)
		return strcmp(x->name, y->name);
	return strcmp(x->dir->path, y->dir->path);
}

int ctf_ss_load(struct ctf_stream_set *ss, const char *const *paths, size_t count,
		enum ctf_ss_rank rank)
{
	char err[1200];
	size_t nf = 0, k = 0;
	struct ctf_ss_trace **order;

	ss->sets = calloc(count ? count : 1, sizeof(*ss->sets));
	if (!ss->sets)
		goto oom;
	ss->nsets = count;
	for (size_t i = 0; i < count; i++) {
		if (ctf_trace_set_add(&ss->sets[i], paths[i], err, sizeof(err))) {
			set_error(ss, "%s", err);
			return -1;
		}
		ss->ntraces += ss->sets[i].nr_traces;
		for (size_t j = 0; j < ss->sets[i].nr_traces; j++)
			nf += ss->sets[i].traces[j].nr_streams;
	}
	if (!ss->ntraces) {
		set_error(ss, "%s: no CTF trace found", count ? paths[0] : "");
		return -1;
	}
	ss->traces = calloc(ss->ntraces, sizeof(*ss->traces));
	ss->files = calloc(nf ? nf : 1, sizeof(*ss->files));
	if (!ss->traces || !ss->files)
		goto oom;
	for (size_t i = 0; i < count; i++) {
		for (size_t j = 0; j < ss->sets[i].nr_traces; j++, k++) {
			struct ctf_ss_trace *t = &ss->traces[k];
			struct tsdl_error terr;

			t->dir = &ss->sets[i].traces[j];
			t->index = k;
			t->trace = ctf_metadata_load(t->dir->metadata_path, &terr);
			if (!t->trace) {
				tsdl_error_format(&terr, err, sizeof(err));
				set_error(ss, "%s", err);
				return -1;
			}
			t->name = trace_name(t->trace, paths[i], t->dir->path);
			if (!t->name)
				goto oom;
			for (size_t m = 0; m < t->dir->nr_streams; m++) {
				struct ctf_ss_file *f = &ss->files[ss->nfiles];

				f->t = t;
				f->order = ss->nfiles++;
				f->path = t->dir->streams[m].path;
				f->abs_path = ctf_path_absolute(f->path);
				if (!f->abs_path)
					goto oom;
			}
		}
	}
	/* trace ranks: UUID order, then name (or path) order; one UUID, one rank */
	order = malloc(ss->ntraces * sizeof(*order));
	if (!order)
		goto oom;
	for (size_t i = 0; i < ss->ntraces; i++)
		order[i] = &ss->traces[i];
	rank_by = rank;
	qsort(order, ss->ntraces, sizeof(*order), cmp_trace_ptr);
	for (size_t i = 0; i < ss->ntraces; i++)
		order[i]->rank =
		    (i && !cmp_trace_ptr(&order[i - 1], &order[i])) ? order[i - 1]->rank : (int)i;
	free(order);
	return 0;
oom:
	set_error(ss, "out of memory");
	return -1;
}

void ctf_ss_free(struct ctf_stream_set *ss)
{
	ctf_ss_close(ss);
	for (size_t i = 0; i < ss->nfiles; i++)
		free(ss->files[i].abs_path);
	free(ss->files);
	for (size_t i = 0; i < ss->ntraces; i++) {
		ctf_trace_free(ss->traces[i].trace);
		free(ss->traces[i].name);
	}
	free(ss->traces);
	for (size_t i = 0; i < ss->nsets; i++)
		ctf_trace_set_free(&ss->sets[i]);
	free(ss->sets);
	memset(ss, 0, sizeof(*ss));
}

/* ---- opening and grouping ---- */

/* Same stream of the same (merged) trace. */
static bool same_group(const struct ctf_ss_file *a, const struct ctf_ss_file *b)
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
	const struct ctf_ss_file *x = *(struct ctf_ss_file *const *)a;
	const struct ctf_ss_file *y = *(struct ctf_ss_file *const *)b;

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
	/* files of one stream: by their first time, then their order */
	if (x->has_first_ns && y->has_first_ns && x->first_ns != y->first_ns)
		return x->first_ns < y->first_ns ? -1 : 1;
	return x->order < y->order ? -1 : (x->order > y->order);
}

/* By trace, then by the opening order (file names) of their first files. */
static int cmp_stream_opening(const void *a, const void *b)
{
	const struct ctf_ss_stream *x = *(struct ctf_ss_stream *const *)a;
	const struct ctf_ss_stream *y = *(struct ctf_ss_stream *const *)b;

	if (x->t->rank != y->t->rank)
		return x->t->rank < y->t->rank ? -1 : 1;
	return x->files[0]->order < y->files[0]->order ? -1
						       : x->files[0]->order > y->files[0]->order;
}

/*
 * Streams without a stream_instance_id are numbered as Babeltrace 2 numbers
 * them: 0, 1, ... across the trace's stream classes, in the order of their
 * files' names. (Numbered in stream class order instead, the merge's ties,
 * which compare stream classes first, would come out the same.) `tmp` has
 * room for a pointer per stream.
 */
static void number_streams(struct ctf_stream_set *ss, void *tmp)
{
	struct ctf_ss_stream **v = tmp;
	size_t n = 0;

	for (size_t i = 0; i < ss->nstreams; i++)
		if (!ss->streams[i].files[0]->has_instance)
			v[n++] = &ss->streams[i];
	qsort(v, n, sizeof(*v), cmp_stream_opening);
	for (size_t i = 0, id = 0; i < n; i++) {
		if (i && v[i]->t->rank != v[i - 1]->t->rank)
			id = 0;
		v[i]->stream_id = id++;
	}
}

static int cmp_stream(const void *a, const void *b)
{
	const struct ctf_ss_stream *x = a, *y = b;

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

/*
 * What makes two clocks correlatable, as Babeltrace 2's muxer sees it: both
 * absolute (their origin is the Unix epoch), or neither absolute and both
 * with the same UUID, or neither absolute and both without a UUID. NULL
 * when c is compatible with c0, else why not.
 */
static const char *clock_mismatch(const struct ctf_clock *c0, const struct ctf_clock *c)
{
	if (c0->absolute != c->absolute)
		return "one is absolute, the other not";
	if (c0->absolute)
		return NULL;
	if (c0->has_uuid != c->has_uuid)
		return "neither is absolute and only one has a UUID";
	if (c0->has_uuid && memcmp(c0->uuid, c->uuid, 16))
		return "neither is absolute and their UUIDs differ";
	return NULL;
}

/* Clocks of all streams must be correlatable (docs/text-format.md section 9). */
static int check_clocks(struct ctf_stream_set *ss)
{
	const struct ctf_ss_file *first = NULL;

	for (size_t i = 0; i < ss->nfiles; i++) {
		const struct ctf_ss_file *f = &ss->files[i];
		const struct ctf_clock *c, *c0;
		const char *why;

		if (!f->sr)
			continue;
		if (!first) {
			first = f;
			continue;
		}
		c0 = first->sr->packet.clock;
		c = f->sr->packet.clock;
		if (!c0 != !c) {
			set_error(ss, "%s: cannot merge a stream %s a clock with %s, which has %s",
				  f->path, c ? "with" : "without", first->path,
				  c0 ? "one" : "none");
			return -1;
		}
		if (c && (why = clock_mismatch(c0, c))) {
			set_error(
			    ss, "%s: its clock `%s` cannot be correlated with clock `%s` of %s: %s",
			    f->path, c->name, c0->name, first->path, why);
			return -1;
		}
	}
	return 0;
}

static int clock_ns(struct ctf_stream_set *ss, struct ctf_ss_file *f, uint64_t v, int64_t *ns)
{
	const struct ctf_clock *c = f->sr->packet.clock;

	if (__builtin_expect(f->conv.clock != c, 0))
		ctf_clock_conv_init(&f->conv, c);
	if (ctf_clock_conv_ns(&f->conv, v, ns) == 0)
		return 0;
	set_error(ss,
		  "%s: packet at byte %llu: clock value %llu of clock `%s` does not fit a "
		  "signed 64-bit number of nanoseconds from the origin",
		  f->path, (unsigned long long)f->sr->packet.offset, (unsigned long long)v,
		  c->name);
	return -1;
}

static void add_warn(struct ctf_ss_stream *s, enum ctf_ss_discard_kind kind, bool has_count,
		     uint64_t count, bool has_range, int64_t begin, int64_t end)
{
	struct ctf_ss_discard *w = &s->warns[s->nwarn++];

	w->kind = kind;
	w->has_count = has_count;
	w->count = count;
	w->has_range = has_range;
	w->begin = begin;
	w->end = end;
}

/* A new packet: compares its counters with the previous packet's, as Babeltrace does. */
static int on_packet(struct ctf_stream_set *ss, struct ctf_ss_stream *s, struct ctf_ss_file *f)
{
	const struct ctf_packet *pkt = &f->sr->packet;
	bool has_begin = false, has_end = false;
	int64_t begin = 0, end = 0;

	s->nwarn = s->iwarn = 0;
	/* the packet's events: base + cycles when the clock converts the fast way */
	if (pkt->clock && f->conv.clock != pkt->clock)
		ctf_clock_conv_init(&f->conv, pkt->clock);
	f->fast_ns = pkt->clock && f->conv.fast;
	if (pkt->clock && pkt->has_timestamp_begin) {
		if (clock_ns(ss, f, pkt->timestamp_begin, &begin))
			return -1;
		has_begin = true;
	}
	if (pkt->clock && pkt->has_timestamp_end) {
		if (clock_ns(ss, f, pkt->timestamp_end, &end))
			return -1;
		has_end = true;
	}
	if (pkt->has_events_discarded) {
		uint64_t d = pkt->events_discarded;

		if (!s->seen_disc) {
			if (d != 0)
				add_warn(s, CTF_SS_DISCARDED_EVENTS, false, 0, has_begin && has_end,
					 begin, end);
		} else if (d > s->prev_disc) {
			add_warn(s, CTF_SS_DISCARDED_EVENTS, true, d - s->prev_disc,
				 s->prev_has_end && has_end, s->prev_end, end);
		} else if (d < s->prev_disc) {
			add_warn(s, CTF_SS_DISCARDED_EVENTS, false, 0, s->prev_has_end && has_end,
				 s->prev_end, end);
		}
		s->seen_disc = true;
		s->prev_disc = d;
	}
	if (pkt->has_packet_seq_num) {
		uint64_t q = pkt->packet_seq_num;

		/* Babeltrace ignores a repeated sequence number */
		if (s->seen_seq && q != s->prev_seq + 1 && q != s->prev_seq)
			add_warn(s, CTF_SS_DISCARDED_PACKETS, true, q - s->prev_seq - 1,
				 s->prev_has_end && has_begin, s->prev_end, begin);
		s->seen_seq = true;
		s->prev_seq = q;
	}
	s->prev_has_end = has_end;
	s->prev_end = end;
	return 0;
}

/*
 * Seeking, once the current packet ended before min_ns: with the file's
 * index, the packets after it that end before min_ns too are passed over
 * without reading even their headers (their events and counters would be
 * passed over all the same: the discarded-events and lost-packets items
 * that come before min_ns are skipped too).
 */
static void skip_indexed_packets(struct ctf_ss_file *f, int64_t min_ns)
{
	const struct ctf_stream_reader *r = f->sr;
	size_t k = r->packet.index + 1;
	int64_t end;

	if (!r->index || !r->packet.clock || f->conv.clock != r->packet.clock)
		return;
	while (k + 1 < r->index_count &&
	       ctf_clock_conv_ns(&f->conv, r->index[k].timestamp_end, &end) == 0 && end < min_ns)
		k++;
	if (k > r->packet.index + 1)
		ctf_stream_skip_to_packet(f->sr, k);
}

/*
 * Reads the stream's next item (with skip: the next event at or after
 * min_ns): 1, 0 at its end, -1 on error.
 */
static int stream_advance(struct ctf_stream_set *ss, struct ctf_ss_stream *s, bool skip,
			  int64_t min_ns, int got)
{
	for (;;) {
		struct ctf_ss_file *f;
		int st;

		if (got) {
			/* the caller read this status of the current file already */
			f = s->files[s->cur];
			st = got;
			got = 0;
			goto have_status;
		}
		if (s->iwarn < s->nwarn) {
			const struct ctf_ss_discard *w = &s->warns[s->iwarn++];

			s->kind = CTF_SS_DISCARD;
			s->discard = w;
			s->key = w->has_range ? w->begin : s->last_key;
			s->item_file = s->files[s->cur];
			s->last_key = s->key;
			if (skip)
				continue;
			return 1;
		}
		if (s->cur >= s->nfiles)
			return 0;
		f = s->files[s->cur];
		if (f->pending) {
			f->pending = false;
			st = CTF_STREAM_PACKET;
		} else {
			st = ctf_stream_next(f->sr);
		}
	have_status:
		switch (st) {
		case CTF_STREAM_PACKET:
			if (on_packet(ss, s, f))
				return -1;
			/*
			 * Seeking: a packet that ends before min_ns holds nothing
			 * to return (its counters are read all the same), when
			 * the next one sets the clock anew.
			 */
			if (skip && s->prev_has_end && s->prev_end < min_ns &&
			    f->sr->packet.has_timestamp_begin) {
				ctf_stream_skip_packet(f->sr);
				skip_indexed_packets(f, min_ns);
			}
			continue;
		case CTF_STREAM_EVENT:
			s->kind = CTF_SS_EVENT;
			s->discard = NULL;
			s->item_file = f;
			if (f->sr->event.has_clock) {
				if (clock_ns(ss, f, f->sr->event.clock_value, &s->event_ns))
					return -1;
				s->key = s->event_ns;
			} else {
				s->event_ns = 0;
				s->key = s->last_key;
			}
			s->last_key = s->key;
			if (skip && s->key < min_ns)
				continue;
			return 1;
		case CTF_STREAM_END:
			s->cur++;
			continue;
		default:
			set_error(ss, "%s", f->sr->error);
			return -1;
		}
	}
}

void ctf_ss_close(struct ctf_stream_set *ss)
{
	for (size_t i = 0; i < ss->nfiles; i++) {
		ctf_stream_close(ss->files[i].sr);
		ss->files[i].sr = NULL;
		ss->files[i].pending = false;
	}
	for (size_t i = 0; i < ss->nstreams; i++)
		free(ss->streams[i].files);
	free(ss->streams);
	ss->streams = NULL;
	ss->nstreams = 0;
	if (ss->heap_ready)
		ctf_merge_free(&ss->heap);
	ss->heap_ready = false;
	ss->advance = NULL;
}

int ctf_ss_open(struct ctf_stream_set *ss, bool skip, int64_t min_ns)
{
	char err[1200];
	struct ctf_ss_file **order;
	size_t n = 0;

	for (size_t i = 0; i < ss->nfiles; i++) {
		struct ctf_ss_file *f = &ss->files[i];
		int st;

		f->sr = ctf_stream_open(f->t->trace, f->path, err, sizeof(err));
		if (!f->sr) {
			set_error(ss, "%s", err);
			return -1;
		}
		if (ctf_stream_tune(f->sr, &ss->tuning)) {
			set_error(ss, "out of memory");
			return -1;
		}
		if (ss->part && f->sr->file_size &&
		    ctf_stream_set_packets(f->sr, ss->part == 1 ? 0 : ss->part_cut[i],
					   ss->part == 1 ? ss->part_cut[i] : SIZE_MAX)) {
			set_error(ss, "%s: no packet index to read a part of its packets", f->path);
			return -1;
		}
		st = ctf_stream_next(f->sr);
		if (st == CTF_STREAM_END) {
			/* an empty file: no stream */
			ctf_stream_close(f->sr);
			f->sr = NULL;
			continue;
		}
		if (st != CTF_STREAM_PACKET) {
			set_error(ss, "%s", f->sr->error);
			return -1;
		}
		f->pending = true;
		f->sc_id = f->sr->packet.stream_class->id;
		f->has_instance = f->sr->packet.has_stream_instance_id;
		f->instance = f->sr->packet.stream_instance_id;
		f->has_first_ns =
		    f->sr->packet.clock && f->sr->packet.has_timestamp_begin &&
		    ctf_clock_cycles_to_ns(f->sr->packet.clock, f->sr->packet.timestamp_begin,
					   &f->first_ns) == 0;
	}
	if (check_clocks(ss))
		return -1;

	/* group the files into streams */
	order = malloc((ss->nfiles ? ss->nfiles : 1) * sizeof(*order));
	ss->streams = calloc(ss->nfiles ? ss->nfiles : 1, sizeof(*ss->streams));
	if (!order || !ss->streams) {
		free(order);
		set_error(ss, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < ss->nfiles; i++)
		if (ss->files[i].sr)
			order[n++] = &ss->files[i];
	qsort(order, n, sizeof(*order), cmp_file_group);
	for (size_t i = 0; i < n;) {
		size_t e = i + 1;
		struct ctf_ss_stream *s = &ss->streams[ss->nstreams];

		while (e < n && same_group(order[i], order[e]))
			e++;
		s->files = malloc((e - i) * sizeof(*s->files));
		if (!s->files) {
			free(order);
			set_error(ss, "out of memory");
			return -1;
		}
		memcpy(s->files, order + i, (e - i) * sizeof(*s->files));
		s->nfiles = e - i;
		s->t = order[i]->t;
		s->sc_id = order[i]->sc_id;
		s->ordinal = ss->nstreams;
		s->key = s->last_key = INT64_MIN;
		s->stream_id = order[i]->has_instance ? order[i]->instance : 0;
		ss->nstreams++;
		i = e;
	}
	number_streams(ss, order);
	free(order);

	ctf_merge_init(&ss->heap, cmp_stream);
	ss->heap_ready = true;
	ss->last_event_ns = INT64_MIN;
	for (size_t i = 0; i < ss->nstreams; i++) {
		int st = stream_advance(ss, &ss->streams[i], skip, min_ns, 0);

		if (st < 0)
			return -1;
		if (st > 0 && ctf_merge_push(&ss->heap, &ss->streams[i])) {
			set_error(ss, "out of memory");
			return -1;
		}
	}
	return 0;
}

/*
 * Stream s's event comes before the last one returned: its stream went back
 * in time. Babeltrace stops there with an error (its muxer); so does trax,
 * naming the event.
 */
static __attribute__((noinline)) int out_of_order(struct ctf_stream_set *ss,
						  const struct ctf_ss_stream *s)
{
	const struct ctf_stream_reader *r = s->item_file->sr;

	set_error(ss,
		  "%s: packet at byte %llu: bit %llu: event \"%s\" at %lld ns comes before the "
		  "event before it (%lld ns): the events are not in time order",
		  r->path, (unsigned long long)r->packet.offset,
		  (unsigned long long)r->event.bit_offset,
		  r->event.cls && r->event.cls->name ? r->event.cls->name : "?",
		  (long long)s->event_ns, (long long)ss->last_event_ns);
	return -1;
}

/* The time order of the event s holds (with a time): 0, or -1 (out_of_order()). */
static inline int check_order(struct ctf_stream_set *ss, const struct ctf_ss_stream *s)
{
	if (s->kind != CTF_SS_EVENT || !s->item_file->sr->event.has_clock)
		return 0;
	if (__builtin_expect(s->event_ns < ss->last_event_ns, 0))
		return out_of_order(ss, s);
	ss->last_event_ns = s->event_ns;
	return 0;
}

/*
 * Whether the first stream, whose key just grew, is still before both its
 * children (strictly: ties need the full comparison): then the heap is in
 * order as it is. Streams mostly hold runs of consecutive events, so this
 * spares most sifts.
 */
static inline bool stays_first(const struct ctf_merge_heap *h)
{
	const struct ctf_ss_stream *top = h->items[0];

	if (h->count > 1 && ((const struct ctf_ss_stream *)h->items[1])->key <= top->key)
		return false;
	if (h->count > 2 && ((const struct ctf_ss_stream *)h->items[2])->key <= top->key)
		return false;
	return true;
}

/* The first stream's item, now that the heap is in order: 1, 0 at the end, -1. */
static inline int next_top(struct ctf_stream_set *ss, struct ctf_ss_stream **s)
{
	*s = ss->heap_ready ? ctf_merge_top(&ss->heap) : NULL;
	if (!*s)
		return 0;
	ss->advance = *s;
	return check_order(ss, *s) ? -1 : 1;
}

/*
 * Stream a, the one returned last, advanced the general way (got: the
 * status its file's reader gave already, or 0), the heap put in order: the
 * next item, as ctf_ss_next() returns it.
 */
static int advance_slow(struct ctf_stream_set *ss, struct ctf_ss_stream *a, int got,
			struct ctf_ss_stream **s)
{
	int st = stream_advance(ss, a, false, 0, got);

	ss->advance = NULL;
	if (st < 0)
		return -1;
	if (st == 0)
		ctf_merge_pop(&ss->heap);
	else if (!stays_first(&ss->heap))
		ctf_merge_top_changed(&ss->heap);
	return next_top(ss, s);
}

/*
 * Stream a, the one returned last, advanced: its file f's reader gave st.
 * The next item, as ctf_ss_next() returns it.
 */
static inline int next_after(struct ctf_stream_set *ss, struct ctf_ss_stream *a,
			     struct ctf_ss_file *f, int st, struct ctf_ss_stream **s)
{
	/*
	 * The common case inline: an event, on a clock converted the fast
	 * way. Anything else (packets, warnings, the end, errors) goes
	 * through stream_advance() with the status read.
	 */
	if (__builtin_expect(st == CTF_STREAM_EVENT, 1) && f->fast_ns &&
	    f->sr->event.clock_value <= INT64_MAX &&
	    !__builtin_add_overflow(f->conv.base, (int64_t)f->sr->event.clock_value,
				    &a->event_ns)) {
		a->kind = CTF_SS_EVENT;
		a->discard = NULL;
		a->item_file = f;
		a->key = a->last_key = a->event_ns;
		if (__builtin_expect(stays_first(&ss->heap), 1)) {
			/* a's event, which has a time */
			*s = a;
			if (__builtin_expect(a->event_ns < ss->last_event_ns, 0))
				return out_of_order(ss, a);
			ss->last_event_ns = a->event_ns;
			return 1;
		}
		ctf_merge_top_changed(&ss->heap);
		*s = ctf_merge_top(&ss->heap);
		ss->advance = *s;
		return check_order(ss, *s) ? -1 : 1;
	}
	return advance_slow(ss, a, st, s);
}

int ctf_ss_next(struct ctf_stream_set *ss, struct ctf_ss_stream **s)
{
	/* the stream returned last is advanced only now: its item stays valid until then */
	if (ss->advance) {
		struct ctf_ss_stream *a = ss->advance;
		struct ctf_ss_file *f;

		/* the next event of the same file (most items) */
		if (__builtin_expect(a->iwarn >= a->nwarn && a->cur < a->nfiles &&
					 !(f = a->files[a->cur])->pending,
				     1))
			return next_after(ss, a, f, ctf_stream_next(f->sr), s);
		return advance_slow(ss, a, 0, s);
	}
	return next_top(ss, s);
}

/*
 * Where stream a, whose event was just visited and is first, can go on in
 * a tight loop (ctf_stream_run()): its file, or NULL.
 */
static inline struct ctf_ss_file *run_file(const struct ctf_ss_stream *a)
{
	struct ctf_ss_file *f;

	if (a->kind != CTF_SS_EVENT || a->iwarn < a->nwarn || a->cur >= a->nfiles)
		return NULL;
	f = a->files[a->cur];
	return f->pending || !f->fast_ns || !f->sr->event.has_clock ? NULL : f;
}

/* The smallest key after the first stream's: where its run must stop. */
static inline int64_t run_bound(const struct ctf_merge_heap *h)
{
	int64_t b = INT64_MAX;

	if (h->count > 1)
		b = ((const struct ctf_ss_stream *)h->items[1])->key;
	if (h->count > 2 && ((const struct ctf_ss_stream *)h->items[2])->key < b)
		b = ((const struct ctf_ss_stream *)h->items[2])->key;
	return b;
}

int ctf_ss_each(struct ctf_stream_set *ss, int (*visit)(void *ctx, struct ctf_ss_stream *s),
		void *ctx)
{
	struct ctf_ss_stream *s;
	int st, v;

	while ((st = ctf_ss_next(ss, &s)) > 0) {
		struct ctf_ss_file *f;

		if ((v = visit(ctx, s)) != 0)
			return v;
		/* then the events of the same stream that come before any other's */
		while ((f = run_file(s)) != NULL) {
			struct ctf_stream_run run = {
			    .base = f->conv.base,
			    .bound = run_bound(&ss->heap),
			    .last_ns = ss->last_event_ns,
			    .ns_out = &s->event_ns,
			    .visit = visit,
			    .ctx = ctx,
			    .item = s,
			};
			int rs = ctf_stream_run(f->sr, &run);

			/* s->event_ns: the last event visited (s's when none was) */
			s->key = s->last_key = ss->last_event_ns = s->event_ns;
			if (rs == CTF_RUN_STOPPED)
				break;
			if (rs == CTF_RUN_VISITOR)
				return run.visit_status;
			/* an event the run read and left: as ctf_ss_next() takes it */
			if ((st = next_after(ss, s, f, CTF_STREAM_EVENT, &s)) <= 0)
				return st;
			if ((v = visit(ctx, s)) != 0)
				return v;
		}
	}
	return st;
}

/* A packet of an index, for ctf_ss_split_packets(): its start and its size. */
struct packet_start {
	int64_t ns;
	uint64_t bits;
};

static int packet_start_cmp(const void *a, const void *b)
{
	const struct packet_start *x = a, *y = b;

	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* The start times of the packets of every file, in order: NULL when one is not known. */
static struct packet_start *packet_starts(const struct ctf_stream_set *ss, size_t *count)
{
	struct packet_start *v;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < ss->nfiles; i++) {
		const struct ctf_stream_reader *r = ss->files[i].sr;

		if (r && (!r->index || !r->packet.clock))
			return NULL;
		cap += r ? r->index_count : 0;
	}
	if (cap < 2 || !(v = malloc(cap * sizeof(*v))))
		return NULL;
	for (size_t i = 0; i < ss->nfiles; i++) {
		const struct ctf_stream_reader *r = ss->files[i].sr;
		struct ctf_clock_conv cv;

		if (!r)
			continue;
		ctf_clock_conv_init(&cv, r->packet.clock);
		for (size_t k = 0; k < r->index_count; k++, n++) {
			if (ctf_clock_conv_ns(&cv, r->index[k].timestamp_begin, &v[n].ns) ||
			    (k && v[n].ns < v[n - 1].ns)) {
				free(v);
				return NULL; /* (a part must be a file's first packets) */
			}
			v[n].bits = r->index[k].content_size; /* (what is decoded) */
		}
	}
	*count = n;
	return v;
}

int ctf_ss_split_packets(const struct ctf_stream_set *ss, size_t *cut)
{
	size_t n, best = 0;
	struct packet_start *v = packet_starts(ss, &n);
	uint64_t total = 0, before = 0, best_gap = UINT64_MAX;
	int64_t at;

	if (!v)
		return -1;
	for (size_t k = 0; k < n; k++)
		total += v[k].bits;
	qsort(v, n, sizeof(*v), packet_start_cmp);
	/* the time that leaves the bytes before it closest to a half */
	for (size_t k = 0; k < n; before += v[k++].bits) {
		uint64_t gap = 2 * before > total ? 2 * before - total : total - 2 * before;

		if (k && v[k].ns != v[k - 1].ns && gap < best_gap) {
			best_gap = gap;
			best = k;
		}
	}
	if (!best) {
		free(v);
		return -1;
	}
	at = v[best].ns;
	free(v);
	for (size_t i = 0; i < ss->nfiles; i++) {
		const struct ctf_stream_reader *r = ss->files[i].sr;
		struct ctf_clock_conv cv;
		int64_t ns;

		cut[i] = 0;
		if (!r)
			continue;
		ctf_clock_conv_init(&cv, r->packet.clock);
		while (cut[i] < r->index_count &&
		       ctf_clock_conv_ns(&cv, r->index[cut[i]].timestamp_begin, &ns) == 0 &&
		       ns < at)
			cut[i]++;
	}
	return 0;
}
