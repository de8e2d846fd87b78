/*
 * tsdl-clocks.c - the clock rules Babeltrace 2 applies to CTF 1.8 metadata
 * beyond what the TSDL text says (docs/text-format.md, section 5.1):
 *
 * - an LTTng trace's clock named "monotonic" is absolute (its origin is the
 *   Unix epoch) whatever its `absolute` attribute says, since old LTTng
 *   versions did not say so; a trace is LTTng's when its env has a string
 *   tracer_name that starts with "lttng";
 * - integers (or enums) named timestamp_begin or timestamp_end in a packet
 *   context, or timestamp in an event header, at any depth of structs and
 *   variants, that map to no clock are timestamps all the same: they map
 *   to the trace's only clock, or, in a trace without clocks, to a clock
 *   made for them ("default": 1 GHz, no offset, not absolute, no UUID).
 *   With several clocks, which one is meant is unknown: an error.
 * - a stream's clock is the one clock that fields of its scopes or of its
 *   events map to (a payload's too); fields of one stream mapped to two
 *   clocks, or of the trace packet header mapped to one, are an error.
 *
 * Types may be shared between fields: a type that has to change is copied,
 * and so are the structs and variants that hold it, up to the scope's root.
 * Every walk visits a shared type once (tsdl-ptr-map.h).
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "reader/tsdl-ptr-map.h"
#include "reader/tsdl-build.h"

struct clock_rules {
	struct tsdl_build *b;
	const struct ctf_stream_class *sc; /* the stream block at hand, for errors */
	const char *scope;		   /* its scope's name, for errors */
	const char *name;		   /* the display name of the fields to map */
	const struct ctf_clock *clock;	   /* where they map; NULL until one needs it */
	/* map_in: type -> its mapped version; clock_in: type -> the clock in it */
	struct ptr_map memo;
	const struct ctf_clock *two[2]; /* clock_in: two clocks found in one stream */
	bool failed;
};

static void rules_fail(struct clock_rules *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* An error at the stream block at hand. */
static void rules_fail(struct clock_rules *m, const char *fmt, ...)
{
	char text[sizeof(((struct tsdl_error *)0)->message)];
	unsigned int column = 0;
	va_list ap;

	for (unsigned int i = 0; i < m->b->stream_count; i++)
		if (m->b->streams[i].stream == m->sc)
			column = m->b->streams[i].column;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	tsdl_error_set(m->b->err, m->b->file, m->sc->line, column, "%s", text);
	m->failed = true;
}

/* ---- timestamp fields mapped to no clock ---- */

/* The clock unmapped timestamps map to: the only one, or "default" made now. */
static const struct ctf_clock *timestamp_clock(struct clock_rules *m)
{
	struct ctf_trace *trace = m->b->trace;
	struct ctf_clock *c;

	if (trace->clock_count == 1)
		return &trace->clocks[0];
	if (trace->clock_count > 1) {
		rules_fail(m,
			   "stream %llu: `%s` of its %s maps to no clock and the trace has %u "
			   "clocks: which one is meant is unknown (map = clock.NAME.value)",
			   (unsigned long long)m->sc->id, m->name, m->scope, trace->clock_count);
		return NULL;
	}
	/* no integer points at trace->clocks yet (there is none): it may move */
	c = ctf_arena_alloc(&trace->arena, sizeof(*c));
	if (!c) {
		rules_fail(m, "out of memory");
		return NULL;
	}
	c->name = "default";
	c->freq = 1000000000;
	trace->clocks = c;
	trace->clock_count = 1;
	return c;
}

static bool is_unmapped_integer(const struct ctf_type *t)
{
	return (t->kind == CTF_TYPE_INTEGER && !t->u.integer.clock) ||
	       (t->kind == CTF_TYPE_ENUM && !t->u.enumeration.container.clock);
}

/* A copy of the integer or enum t mapped to the timestamp clock; NULL on error. */
static const struct ctf_type *mapped_copy(struct clock_rules *m, const struct ctf_type *t)
{
	struct ctf_integer_type *in;
	struct ctf_type *copy;

	if (!m->clock)
		m->clock = timestamp_clock(m);
	if (!m->clock)
		return NULL;
	copy = ctf_arena_alloc(&m->b->trace->arena, sizeof(*copy));
	if (!copy) {
		rules_fail(m, "out of memory");
		return NULL;
	}
	*copy = *t;
	in = copy->kind == CTF_TYPE_ENUM ? &copy->u.enumeration.container : &copy->u.integer;
	in->clock_name = m->clock->name;
	in->clock = m->clock;
	return copy;
}

static const struct ctf_type *map_in(struct clock_rules *m, const struct ctf_type *t);

/*
 * Maps the fields of a struct's or variant's member list; returns the list
 * itself when nothing changed, else a copy (NULL with m->failed on error;
 * an empty list may be NULL too).
 */
static const struct ctf_field *map_members(struct clock_rules *m, const struct ctf_field *fields,
					   unsigned int count)
{
	struct ctf_field *copy = NULL;

	for (unsigned int i = 0; i < count; i++) {
		const struct ctf_type *t = fields[i].type;

		if (strcmp(fields[i].display_name, m->name) == 0 && is_unmapped_integer(t))
			t = mapped_copy(m, t);
		if (t)
			t = map_in(m, t);
		if (!t)
			return NULL;
		if (t == fields[i].type)
			continue;
		if (!copy) {
			copy = ctf_arena_alloc(&m->b->trace->arena, count * sizeof(*copy));
			if (!copy) {
				rules_fail(m, "out of memory");
				return NULL;
			}
			memcpy(copy, fields, count * sizeof(*copy));
		}
		copy[i].type = t;
	}
	return copy ? copy : fields;
}

/* t with its members of that name mapped (t itself when none is); NULL on error. */
static const struct ctf_type *map_in(struct clock_rules *m, const struct ctf_type *t)
{
	const struct ctf_field *fields;
	const void *done;
	struct ctf_type *copy;

	if (t->kind != CTF_TYPE_STRUCT && t->kind != CTF_TYPE_VARIANT)
		return t;
	if (ptr_map_get(&m->memo, t, &done))
		return done;
	if (t->kind == CTF_TYPE_STRUCT)
		fields = map_members(m, t->u.structure.fields, t->u.structure.field_count);
	else
		fields = map_members(m, t->u.variant.options, t->u.variant.option_count);
	if (m->failed)
		return NULL;
	if (fields == (t->kind == CTF_TYPE_STRUCT ? t->u.structure.fields : t->u.variant.options)) {
		copy = NULL;
	} else {
		copy = ctf_arena_alloc(&m->b->trace->arena, sizeof(*copy));
		if (!copy) {
			rules_fail(m, "out of memory");
			return NULL;
		}
		*copy = *t;
		if (copy->kind == CTF_TYPE_STRUCT)
			copy->u.structure.fields = fields;
		else
			copy->u.variant.options = fields;
	}
	if (ptr_map_put(&m->memo, t, copy ? copy : t)) {
		rules_fail(m, "out of memory");
		return NULL;
	}
	return copy ? copy : t;
}

/* Maps the members named `name` of the scope *root (may be NULL); 0 or -1. */
static int map_scope(struct clock_rules *m, const struct ctf_type **root, const char *scope,
		     const char *name)
{
	const struct ctf_type *t;

	if (!*root)
		return 0;
	m->scope = scope;
	m->name = name;
	t = map_in(m, *root);
	ptr_map_clear(&m->memo); /* (its results hold for this name only) */
	if (!t)
		return -1;
	*root = t;
	return 0;
}

/* ---- each stream's clock ---- */

/* Merges clock b into *a: false when both are clocks and differ (m->two set). */
static bool merge_clock(struct clock_rules *m, const struct ctf_clock **a,
			const struct ctf_clock *b)
{
	if (b && *a && *a != b) {
		m->two[0] = *a;
		m->two[1] = b;
		return false;
	}
	if (b)
		*a = b;
	return true;
}

/*
 * The clock the integers of t map to (NULL: none); with two different ones,
 * NULL and m->two set. (The same for each place of t: computed once.)
 */
static const struct ctf_clock *clock_in(struct clock_rules *m, const struct ctf_type *t)
{
	const struct ctf_clock *c = NULL;
	const struct ctf_field *fields = NULL;
	unsigned int n = 0;
	const void *done;

	if (!t)
		return NULL;
	switch (t->kind) {
	case CTF_TYPE_INTEGER:
		return t->u.integer.clock;
	case CTF_TYPE_ENUM:
		return t->u.enumeration.container.clock;
	case CTF_TYPE_ARRAY:
		return clock_in(m, t->u.array.element);
	case CTF_TYPE_SEQUENCE:
		return clock_in(m, t->u.sequence.element);
	case CTF_TYPE_STRUCT:
		fields = t->u.structure.fields;
		n = t->u.structure.field_count;
		break;
	case CTF_TYPE_VARIANT:
		fields = t->u.variant.options;
		n = t->u.variant.option_count;
		break;
	default:
		return NULL;
	}
	if (ptr_map_get(&m->memo, t, &done))
		return done;
	for (unsigned int i = 0; i < n; i++)
		if (!merge_clock(m, &c, clock_in(m, fields[i].type)) || m->two[0])
			return NULL;
	if (ptr_map_put(&m->memo, t, c)) {
		m->failed = true;
		return NULL;
	}
	return c;
}

/* Each stream's clock (ctf_stream_class.clock); 0 or -1. */
static int stream_clocks(struct clock_rules *m)
{
	struct ctf_trace *trace = m->b->trace;
	const struct ctf_clock *c = clock_in(m, trace->packet_header);

	if (c || m->two[0]) {
		tsdl_error_set(m->b->err, m->b->file, m->b->trace_line, 1,
			       "the trace packet header maps a field to clock `%s`: only "
			       "streams have clocks",
			       c ? c->name : m->two[0]->name);
		return -1;
	}
	for (unsigned int s = 0; !m->failed && s < trace->stream_count; s++) {
		struct ctf_stream_class *sc = trace->streams[s];
		bool ok;

		m->sc = sc;
		c = NULL;
		ok = merge_clock(m, &c, clock_in(m, sc->packet_context)) &&
		     merge_clock(m, &c, clock_in(m, sc->event_header)) &&
		     merge_clock(m, &c, clock_in(m, sc->event_context));
		for (unsigned int e = 0; ok && e < sc->event_count; e++)
			ok = merge_clock(m, &c, clock_in(m, sc->events[e]->context)) &&
			     merge_clock(m, &c, clock_in(m, sc->events[e]->fields));
		if (m->two[0]) {
			rules_fail(m, "stream %llu: its fields map to two clocks, `%s` and `%s`",
				   (unsigned long long)sc->id, m->two[0]->name, m->two[1]->name);
			return -1;
		}
		sc->clock = c;
	}
	if (m->failed) {
		tsdl_error_set(m->b->err, m->b->file, 0, 0, "out of memory");
		return -1;
	}
	return 0;
}

static void lttng_monotonic_absolute(struct tsdl_build *b)
{
	struct ctf_trace *trace = b->trace;

	if (!b->is_lttng)
		return;
	for (unsigned int i = 0; i < trace->clock_count; i++)
		if (strcmp(trace->clocks[i].name, "monotonic") == 0)
			trace->clocks[i].absolute = true;
}

int tsdl_apply_clock_rules(struct tsdl_build *b)
{
	struct ctf_trace *trace = b->trace;
	struct clock_rules m = {.b = b};
	int ret = 0;

	lttng_monotonic_absolute(b);
	for (unsigned int s = 0; s < trace->stream_count; s++) {
		struct ctf_stream_class *sc = trace->streams[s];

		m.sc = sc;
		if (map_scope(&m, &sc->packet_context, "packet context", "timestamp_begin") ||
		    map_scope(&m, &sc->packet_context, "packet context", "timestamp_end") ||
		    map_scope(&m, &sc->event_header, "event header", "timestamp"))
			return -1;
	}
	assert(!m.failed && !m.memo.count);
	ret = stream_clocks(&m);
	ptr_map_clear(&m.memo);
	return ret;
}
