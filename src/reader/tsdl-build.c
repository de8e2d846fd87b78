/*
 * tsdl-build.c - completing the trace model once the whole metadata text is
 * parsed: integers pointed at their clocks, events attached to their stream
 * (ids checked), streams and events sorted by id, field paths resolved
 * scope by scope.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/tsdl-build.h"

static __attribute__((format(printf, 4, 5))) int fail(struct tsdl_build *b, unsigned int line,
						      unsigned int column, const char *fmt, ...)
{
	char text[sizeof(((struct tsdl_error *)0)->message)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	tsdl_error_set(b->err, b->file, line, column, "%s", text);
	return -1;
}

static int link_clocks(struct tsdl_build *b)
{
	for (unsigned int i = 0; i < b->mapped_count; i++) {
		struct ctf_type *t = b->mapped[i];
		struct ctf_integer_type *in =
		    t->kind == CTF_TYPE_ENUM ? &t->u.enumeration.container : &t->u.integer;

		in->clock = ctf_trace_clock(b->trace, in->clock_name);
		if (!in->clock)
			return fail(b, t->line, t->column, "integer mapped to unknown clock '%s'",
				    in->clock_name);
	}
	return 0;
}

static int compare_events(const void *a, const void *b)
{
	const struct ctf_event_class *x = *(struct ctf_event_class *const *)a;
	const struct ctf_event_class *y = *(struct ctf_event_class *const *)b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int compare_streams(const void *a, const void *b)
{
	const struct ctf_stream_class *x = *(struct ctf_stream_class *const *)a;
	const struct ctf_stream_class *y = *(struct ctf_stream_class *const *)b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The streams in id order; an implicit one when events come without any stream block. */
static int collect_streams(struct tsdl_build *b)
{
	struct ctf_trace *trace = b->trace;
	unsigned int count = b->stream_count;

	if (!count && b->event_count)
		count = 1;
	trace->streams =
	    ctf_arena_alloc(&trace->arena, (count ? count : 1) * sizeof(*trace->streams));
	if (!trace->streams)
		return fail(b, 0, 0, "out of memory");
	for (unsigned int i = 0; i < b->stream_count; i++) {
		struct ctf_stream_class *s = b->streams[i].stream;

		if (!s->has_id && b->stream_count > 1)
			return fail(b, s->line, b->streams[i].column,
				    "stream without an id in a trace with several streams");
		trace->streams[i] = s;
	}
	if (!b->stream_count && count) {
		trace->streams[0] = ctf_arena_alloc(&trace->arena, sizeof(**trace->streams));
		if (!trace->streams[0])
			return fail(b, 0, 0, "out of memory");
	}
	trace->stream_count = count;
	qsort(trace->streams, count, sizeof(*trace->streams), compare_streams);
	for (unsigned int i = 1; i < count; i++)
		if (trace->streams[i]->id == trace->streams[i - 1]->id)
			return fail(b, trace->streams[i]->line, 1, "duplicate stream id %llu",
				    (unsigned long long)trace->streams[i]->id);
	return 0;
}

static struct ctf_stream_class *stream_of(struct tsdl_build *b, const struct tsdl_pending_event *pe)
{
	struct ctf_trace *trace = b->trace;

	if (!pe->has_stream_id) {
		if (trace->stream_count == 1)
			return trace->streams[0];
		fail(b, pe->line, pe->column,
		     "event '%s' has no stream_id but the trace has %u streams", pe->event->name,
		     trace->stream_count);
		return NULL;
	}
	for (unsigned int i = 0; i < trace->stream_count; i++)
		if (trace->streams[i]->id == pe->event->stream_id)
			return trace->streams[i];
	fail(b, pe->line, pe->column, "event '%s' refers to stream %llu, which is not declared",
	     pe->event->name, (unsigned long long)pe->event->stream_id);
	return NULL;
}

static int attach_events(struct tsdl_build *b)
{
	struct ctf_trace *trace = b->trace;
	struct ctf_stream_class **owner;
	unsigned int *filled;
	int ret = 0;

	owner = calloc(b->event_count ? b->event_count : 1, sizeof(*owner));
	filled = calloc(trace->stream_count ? trace->stream_count : 1, sizeof(*filled));
	if (!owner || !filled) {
		ret = fail(b, 0, 0, "out of memory");
		goto out;
	}
	for (unsigned int e = 0; e < b->event_count; e++) {
		owner[e] = stream_of(b, &b->events[e]);
		if (!owner[e]) {
			ret = -1;
			goto out;
		}
		owner[e]->event_count++;
	}
	for (unsigned int s = 0; s < trace->stream_count; s++) {
		struct ctf_stream_class *stream = trace->streams[s];

		stream->events =
		    ctf_arena_alloc(&trace->arena, (stream->event_count ? stream->event_count : 1) *
						       sizeof(*stream->events));
		if (!stream->events) {
			ret = fail(b, 0, 0, "out of memory");
			goto out;
		}
	}
	for (unsigned int e = 0; e < b->event_count; e++) {
		struct tsdl_pending_event *pe = &b->events[e];
		struct ctf_stream_class *stream = owner[e];

		if (!pe->has_id && stream->event_count > 1) {
			ret = fail(b, pe->line, pe->column,
				   "event '%s' has no id but its stream has %u events",
				   pe->event->name, stream->event_count);
			goto out;
		}
		pe->event->stream_id = stream->id;
		for (unsigned int s = 0; s < trace->stream_count; s++)
			if (trace->streams[s] == stream)
				stream->events[filled[s]++] = pe->event;
	}
	for (unsigned int s = 0; s < trace->stream_count; s++) {
		struct ctf_stream_class *stream = trace->streams[s];

		qsort(stream->events, stream->event_count, sizeof(*stream->events), compare_events);
		for (unsigned int i = 1; i < stream->event_count; i++)
			if (stream->events[i]->id == stream->events[i - 1]->id) {
				ret = fail(b, stream->events[i]->line, stream->events[i]->column,
					   "event '%s' has the id %llu of an earlier event",
					   stream->events[i]->name,
					   (unsigned long long)stream->events[i]->id);
				goto out;
			}
	}
out:
	free(owner);
	free(filled);
	return ret;
}

static int resolve_paths(struct tsdl_build *b)
{
	struct ctf_trace *trace = b->trace;
	const struct ctf_type *roots[CTF_SCOPE_COUNT] = {0};

#define RESOLVE(scope, slot)                                                                       \
	do {                                                                                       \
		const struct ctf_type *root_ = (slot);                                             \
		if (tsdl_resolve_scope(&trace->arena, roots, (scope), &root_, b->file, b->err))    \
			return -1;                                                                 \
		(slot) = root_;                                                                    \
	} while (0)

	RESOLVE(CTF_SCOPE_PACKET_HEADER, trace->packet_header);
	for (unsigned int s = 0; s < trace->stream_count; s++) {
		struct ctf_stream_class *stream = trace->streams[s];

		RESOLVE(CTF_SCOPE_PACKET_CONTEXT, stream->packet_context);
		RESOLVE(CTF_SCOPE_EVENT_HEADER, stream->event_header);
		RESOLVE(CTF_SCOPE_EVENT_COMMON_CONTEXT, stream->event_context);
		for (unsigned int e = 0; e < stream->event_count; e++) {
			struct ctf_event_class *event = stream->events[e];

			RESOLVE(CTF_SCOPE_EVENT_CONTEXT, event->context);
			RESOLVE(CTF_SCOPE_EVENT_FIELDS, event->fields);
		}
	}
#undef RESOLVE
	return 0;
}

int tsdl_build_finish(struct tsdl_build *b)
{
	if (!b->trace_seen)
		return fail(b, 0, 0, "no trace block (trace { major = 1; minor = 8; ... };)");
	if (link_clocks(b) || collect_streams(b) || attach_events(b) || tsdl_apply_clock_rules(b) ||
	    resolve_paths(b))
		return -1;
	return 0;
}
