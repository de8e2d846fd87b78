/*
 * tsdl-build.h - what the TSDL parser collects before the trace model is
 * complete, and the steps that complete it (internal to the reader's
 * metadata layer).
 *
 * The parser fills a tsdl_build block by block. Streams and events can come
 * in any order and field paths can name fields of other blocks, so linking
 * events to streams, clocks to integers, and resolving field paths wait
 * until the whole text is read: tsdl_build_finish().
 */
#ifndef TRAX_TSDL_BUILD_H
#define TRAX_TSDL_BUILD_H

#include <stdbool.h>

#include "reader/ctf-ir.h"
#include "reader/tsdl-error.h"

/* Deepest type nesting accepted (struct in array in struct...): bounds every recursion. */
#define TSDL_MAX_TYPE_DEPTH 128

struct tsdl_pending_event {
	struct ctf_event_class *event;
	bool has_id;
	bool has_stream_id;
	unsigned int line;
	unsigned int column;
};

struct tsdl_pending_stream {
	struct ctf_stream_class *stream;
	unsigned int column;
};

struct tsdl_build {
	struct ctf_trace *trace; /* its arena holds everything */
	const char *file;
	struct tsdl_error *err;
	bool trace_seen;
	/* the env has a string tracer_name starting with "lttng" (tsdl-clocks.c) */
	bool is_lttng;
	unsigned int env_cap, clock_cap; /* capacities of trace->env and trace->clocks */
	unsigned int trace_line;

	struct tsdl_pending_stream *streams;
	unsigned int stream_count, stream_cap;
	struct tsdl_pending_event *events;
	unsigned int event_count, event_cap;
	/* integer types with a clock mapping, to point at their clock */
	struct ctf_type **mapped;
	unsigned int mapped_count, mapped_cap;
};

/* Links events to streams and integers to clocks, resolves field paths; 0 or -1 (err set). */
int tsdl_build_finish(struct tsdl_build *build);

/*
 * Applies Babeltrace 2's clock rules (tsdl-clocks.c): LTTng's monotonic
 * clock made absolute, unmapped timestamp fields of the stream scopes
 * mapped to a clock (made when the trace has none), each stream's clock
 * found. Once all clocks are linked and the events attached to their
 * streams. 0 or -1 (err set).
 */
int tsdl_apply_clock_rules(struct tsdl_build *build);

/*
 * Resolves the field paths (sequence lengths, variant tags) of every type
 * placed in the scope `scope` of a stream or event. roots[] holds the
 * already resolved roots of the earlier scopes (NULL where absent); *root
 * is replaced by its resolved copy and roots[scope] set to it. 0 or -1.
 */
int tsdl_resolve_scope(struct ctf_arena *arena, const struct ctf_type **roots, enum ctf_scope scope,
		       const struct ctf_type **root, const char *file, struct tsdl_error *err);

#endif /* TRAX_TSDL_BUILD_H */
