/* ctf-ir.c - lookups over the metadata model and its release. */
#include "reader/ctf-ir.h"

#include <stdlib.h>
#include <string.h>

void ctf_trace_free(struct ctf_trace *trace)
{
	struct ctf_arena arena;

	if (!trace)
		return;
	/* The trace itself lives in its arena: copy the arena out before releasing it. */
	arena = trace->arena;
	ctf_arena_release(&arena);
}

const struct ctf_stream_class *ctf_trace_stream(const struct ctf_trace *trace, uint64_t id)
{
	for (unsigned int i = 0; i < trace->stream_count; i++)
		if (trace->streams[i]->id == id)
			return trace->streams[i];
	return NULL;
}

const struct ctf_event_class *ctf_stream_event(const struct ctf_stream_class *stream, uint64_t id)
{
	unsigned int lo = 0, hi = stream->event_count;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		uint64_t mid_id = stream->events[mid]->id;

		if (mid_id == id)
			return stream->events[mid];
		if (mid_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct ctf_event_class *ctf_trace_event_by_name(const struct ctf_trace *trace,
						      const char *name)
{
	for (unsigned int s = 0; s < trace->stream_count; s++) {
		const struct ctf_stream_class *stream = trace->streams[s];

		for (unsigned int e = 0; e < stream->event_count; e++)
			if (strcmp(stream->events[e]->name, name) == 0)
				return stream->events[e];
	}
	return NULL;
}

const struct ctf_clock *ctf_trace_clock(const struct ctf_trace *trace, const char *name)
{
	for (unsigned int i = 0; i < trace->clock_count; i++)
		if (strcmp(trace->clocks[i].name, name) == 0)
			return &trace->clocks[i];
	return NULL;
}

const struct ctf_env_entry *ctf_trace_env(const struct ctf_trace *trace, const char *key)
{
	for (unsigned int i = 0; i < trace->env_count; i++)
		if (strcmp(trace->env[i].key, key) == 0)
			return &trace->env[i];
	return NULL;
}

bool ctf_field_is_packet_bookkeeping(const struct ctf_field *f)
{
	const char *n = f->name;

	if (f->type->kind != CTF_TYPE_INTEGER)
		return false;
	return !strcmp(n, "timestamp_begin") || !strcmp(n, "timestamp_end") ||
	       !strcmp(n, "content_size") || !strcmp(n, "packet_size") ||
	       !strcmp(n, "events_discarded") || !strcmp(n, "packet_seq_num");
}

const struct ctf_field *ctf_struct_field(const struct ctf_type *type, const char *name)
{
	if (!type || type->kind != CTF_TYPE_STRUCT)
		return NULL;
	for (unsigned int i = 0; i < type->u.structure.field_count; i++)
		if (strcmp(type->u.structure.fields[i].name, name) == 0)
			return &type->u.structure.fields[i];
	return NULL;
}

const char *ctf_scope_name(enum ctf_scope scope)
{
	static const char *const names[CTF_SCOPE_COUNT] = {
	    "trace.packet.header",  "stream.packet.context", "stream.event.header",
	    "stream.event.context", "event.context",	     "event.fields",
	};

	return (unsigned int)scope < CTF_SCOPE_COUNT ? names[scope] : "?";
}

bool ctf_enum_label_matches(const struct ctf_enum_type *et, unsigned int i, uint64_t v)
{
	const char *label = et->mappings[i].label;
	bool sgn = et->container.is_signed;
	unsigned int j;

	for (j = 0; j < i; j++)
		if (!strcmp(et->mappings[j].label, label))
			return false;
	for (j = i; j < et->mapping_count; j++) {
		const struct ctf_enum_mapping *m = &et->mappings[j];

		if (strcmp(m->label, label))
			continue;
		if (sgn ? (int64_t)v >= (int64_t)m->start && (int64_t)v <= (int64_t)m->end
			: v >= m->start && v <= m->end)
			return true;
	}
	return false;
}

const char *ctf_enum_label_next(const struct ctf_enum_type *et, uint64_t v, unsigned int *i)
{
	while (*i < et->mapping_count) {
		unsigned int k = (*i)++;

		if (ctf_enum_label_matches(et, k, v))
			return et->mappings[k].label;
	}
	return NULL;
}
