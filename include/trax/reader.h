/*
 * trax/reader.h - reading CTF 1.8 traces (as LTTng and trax write them)
 * from C or C++: the events of one or several traces, merged in time
 * order, their fields, and the traces' environment and clocks.
 *
 *	const char *paths[] = { "/path/to/session" };
 *	struct trax_reader *r = trax_reader_open(paths, 1);
 *	const struct trax_event *ev;
 *	int st;
 *
 *	if (!r)
 *		die(trax_reader_error(NULL));
 *	while ((st = trax_reader_next(r, &ev)) > 0) {
 *		const struct trax_field *f =
 *			trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "msg");
 *		size_t len;
 *		printf("%s %s\n", trax_event_name(ev), f ? trax_field_string(f, &len) : "");
 *	}
 *	if (st < 0)
 *		die(trax_reader_error(r));
 *	trax_reader_close(r);
 *
 * Lifetime rule: the event returned by trax_reader_next(), every field
 * handle obtained from it (and every string returned by trax_field_string)
 * are valid until the next call to trax_reader_next(), trax_reader_seek_ns()
 * or trax_reader_close() on the same reader. Strings about the traces
 * (paths, environment, clock names) are valid until trax_reader_close().
 *
 * Errors: functions returning int give 0 (or a count, or 1) on success and
 * -1 on error; functions returning pointers give NULL. NULL or out-of-range
 * arguments are errors, never crashes. trax_reader_error() gives a one-line
 * message naming the file and the position of the fault.
 *
 * A reader is not thread-safe: use one reader per thread (several readers
 * may read the same traces at once). trax_reader_print() and
 * trax_reader_count() may run threads of their own inside the call.
 *
 * Printing a whole trace as Babeltrace 2 does (what `trax view` does):
 *
 *	struct trax_reader_options ro;
 *	struct trax_print_options po;
 *
 *	trax_reader_options_init(&ro);
 *	ro.trace_order = TRAX_TRACE_ORDER_BY_NAME;
 *	r = trax_reader_open_with(paths, 1, &ro);
 *	trax_print_options_init(&po);
 *	po.clock_gmt = 1;
 *	if (trax_reader_print(r, STDOUT_FILENO, &po) < 0)
 *		die(trax_reader_error(r));
 *
 * Options structures start with their size (set by their _init function):
 * a program built against this header keeps working with later versions
 * of the library, which may add fields at their end.
 */
#ifndef TRAX_READER_H
#define TRAX_READER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct trax_reader;
struct trax_event;
struct trax_field;

/* The field scopes of an event. */
enum trax_scope {
	TRAX_SCOPE_PAYLOAD = 0,		 /* event.fields */
	TRAX_SCOPE_EVENT_CONTEXT,	 /* event.context (per event class) */
	TRAX_SCOPE_STREAM_EVENT_CONTEXT, /* stream.event.context (LTTng's added contexts) */
	TRAX_SCOPE_PACKET_CONTEXT,	 /* stream.packet.context (e.g. cpu_id) */
	TRAX_SCOPE_EVENT_HEADER,	 /* stream.event.header */
	TRAX_SCOPE_PACKET_HEADER,	 /* trace.packet.header */
};

/* What a field holds. */
enum trax_field_kind {
	TRAX_FIELD_INVALID = -1, /* a NULL field */
	TRAX_FIELD_SIGNED = 0,	 /* signed integer: trax_field_int() */
	TRAX_FIELD_UNSIGNED,	 /* unsigned integer: trax_field_uint() */
	TRAX_FIELD_FLOAT,	 /* trax_field_double() */
	TRAX_FIELD_STRING,	 /* trax_field_string() */
	TRAX_FIELD_ENUM,	 /* integer value (int/uint) and labels: trax_field_enum_label() */
	TRAX_FIELD_STRUCT,	 /* children by index and by name */
	TRAX_FIELD_ARRAY,	 /* children by index (elements, unnamed) */
	TRAX_FIELD_SEQUENCE,	 /* the same, of a variable length */
	TRAX_FIELD_VARIANT,	 /* trax_field_variant_selected(): the one child */
};

/* ---- opening, iterating, errors ---- */

/*
 * Opens the traces found under paths[0..count-1]: each a trace directory
 * (holding a `metadata` file) or a directory tree holding traces, to any
 * depth (an LTTng session or output directory). All their events are merged
 * in time order. Returns NULL on error (no trace found, bad metadata, a
 * stream file that cannot be read, clocks that cannot be correlated (see
 * struct trax_clock_info), NULL or empty arguments, no memory); the message
 * is then given by trax_reader_error(NULL) in the same thread, until the
 * next open.
 */
struct trax_reader *trax_reader_open(const char *const *paths, size_t count);

/* How traces without a UUID are ordered among events of the same time. */
enum trax_trace_order {
	TRAX_TRACE_ORDER_BY_PATH = 0, /* by their directories' paths */
	TRAX_TRACE_ORDER_BY_NAME,     /* by Babeltrace's trace names (as babeltrace2, trax view) */
};

/* A read window of none: the stream files are read through their mapping. */
#define TRAX_READ_WINDOW_NONE ((size_t)-1)

/* How trax_reader_open_with() reads. */
struct trax_reader_options {
	size_t size; /* sizeof(struct trax_reader_options): set by trax_reader_options_init() */
	/*
	 * Threads trax_reader_print() and trax_reader_count() may use: 0 (the
	 * default) as many as help (two), 1 the calling thread only.
	 */
	unsigned int threads;
	/*
	 * Bytes of a stream file read at a time: 0 (the default) 256 KiB,
	 * TRAX_READ_WINDOW_NONE the file's mapping read in place. Any other
	 * size works (small ones are for tests).
	 */
	size_t read_window;
	/*
	 * 1 (the default): events of a fixed layout are decoded by machine
	 * code made for it (x86-64); 0: by the interpreter, as elsewhere.
	 */
	int jit;
	enum trax_trace_order trace_order; /* default TRAX_TRACE_ORDER_BY_PATH */
};

/* Fills o with the defaults (and its size). */
void trax_reader_options_init(struct trax_reader_options *o);

/*
 * trax_reader_open() with options (NULL: the defaults, as
 * trax_reader_open()). NULL on error, as trax_reader_open(); also for
 * options of a size no version of the library knew (o->size 0).
 */
struct trax_reader *trax_reader_open_with(const char *const *paths, size_t count,
					  const struct trax_reader_options *o);

/* Releases the reader and everything obtained from it; NULL is accepted. */
void trax_reader_close(struct trax_reader *r);

/*
 * The next event in time order: 1 with *ev set, 0 at the end of all
 * traces, -1 on error (a damaged stream file: every event read before the
 * fault was returned first; the error stays until trax_reader_seek_ns()).
 */
int trax_reader_next(struct trax_reader *r, const struct trax_event **ev);

/*
 * Calls fn for each event left, in the order trax_reader_next() would
 * return them, with the same event (valid during the call only): the way
 * to read a whole trace fast, runs of events of one stream being decoded
 * in a tight loop. fn returns 0 to go on, anything else to stop, which is
 * then returned, the next event being the one after. 0 at the end of all
 * traces, -1 on error (as trax_reader_next(): the events before the fault
 * were given to fn first).
 */
int trax_reader_each(struct trax_reader *r, int (*fn)(void *ctx, const struct trax_event *ev),
		     void *ctx);

/*
 * Positions the reader so that the next event returned is the first one
 * whose timestamp is at or after ns (nanoseconds from the clocks' origin,
 * as trax_event_timestamp_ns()). Seeking before the first event rewinds,
 * after the last one makes trax_reader_next() return 0. Events without a
 * timestamp take the previous one of their stream (in a stream without a
 * clock, all events are before any ns but INT64_MIN, which rewinds).
 * It reopens the stream files and passes over what comes before ns: the
 * events of packets that end before it are not decoded, and where a
 * stream file has LTTng's packet index (index/NAME.idx) those packets are
 * not even read; only the events of the packet that holds ns are.
 * Clears a sticky error. 0, or -1 on error.
 */
int trax_reader_seek_ns(struct trax_reader *r, int64_t ns);

/*
 * The last error of r, as one line: "FILE: packet at byte N: bit B: what"
 * for stream files, "FILE:LINE:COL: what" for metadata, "what" for bad
 * arguments. "" when there was none. With r NULL: the error of the last
 * failed trax_reader_open() of the calling thread.
 */
const char *trax_reader_error(const struct trax_reader *r);

/* ---- the traces ---- */

/* How many traces were found; trace indexes are 0..count-1. */
size_t trax_reader_trace_count(const struct trax_reader *r);
/* The trace's directory, NULL for a bad index. */
const char *trax_reader_trace_path(const struct trax_reader *r, size_t trace);

/* The environment (env block of the metadata): the number of entries and their keys. */
size_t trax_reader_env_count(const struct trax_reader *r, size_t trace);
const char *trax_reader_env_key(const struct trax_reader *r, size_t trace, size_t i);
/* The string value of key, NULL when absent or an integer. */
const char *trax_reader_env_string(const struct trax_reader *r, size_t trace, const char *key);
/* The integer value of key in *value: 0, or -1 when absent or a string. */
int trax_reader_env_int(const struct trax_reader *r, size_t trace, const char *key, int64_t *value);

/*
 * A clock of a trace, as Babeltrace 2 takes it: the clocks of the metadata,
 * or, in a trace without any but whose packet contexts or event headers
 * have time stamp fields (timestamp_begin, timestamp_end, timestamp) that
 * map to no clock, the clock made for them: "default", 1 GHz, no offset,
 * not absolute, no UUID.
 */
struct trax_clock_info {
	const char *name;
	const char *description; /* NULL when absent */
	uint64_t freq;		 /* Hz */
	uint64_t precision;	 /* cycles */
	int64_t offset_s;	 /* seconds from the origin (Unix epoch) to the clock's zero */
	int64_t offset;		 /* and cycles, added */
	/*
	 * 1 when the clock is absolute (origin: the Unix epoch): its metadata
	 * says absolute = true, or it is the clock "monotonic" of an LTTng
	 * trace (env tracer_name starting with "lttng"), which always is.
	 * Traces merge when all their clocks are absolute, or none is and all
	 * have the same UUID, or none is and none has a UUID (trax_reader_open).
	 */
	int absolute;
	int has_uuid;
	uint8_t uuid[16];
};

/* The number of clocks of the trace (0 for a bad index). */
size_t trax_reader_clock_count(const struct trax_reader *r, size_t trace);
/* Fills *info with clock i of the trace: 0, or -1 for a bad index. */
int trax_reader_clock(const struct trax_reader *r, size_t trace, size_t i,
		      struct trax_clock_info *info);

/* ---- the stream files ---- */

/*
 * What a stream file holds, from its packets' headers and contexts (the
 * events are not decoded): for Babeltrace 1's stream intersection (the
 * time range all streams of a trace cover) and for statistics of lost
 * events. Times are nanoseconds from the clocks' origin, as
 * trax_event_timestamp_ns().
 */
struct trax_stream_info {
	size_t size;	  /* sizeof(struct trax_stream_info): set by the caller */
	size_t trace;	  /* the trace's index (trax_reader_trace_path) */
	const char *path; /* the stream file */
	uint64_t stream_class_id;
	int has_instance;     /* the packet header has stream_instance_id: */
	uint64_t instance_id; /* its value in the first packet */
	int has_cpu_id;	      /* the first packet's context has cpu_id: */
	uint64_t cpu_id;
	uint64_t packets; /* packets in the file */
	/*
	 * 1 when the first packet has timestamp_begin and the last one
	 * timestamp_end, on a clock: begin_ns and end_ns are then set.
	 */
	int has_bounds;
	int64_t begin_ns, end_ns;
	/*
	 * The packets' running count of events the tracer discarded
	 * (events_discarded), in the file's last packet: what the stream lost
	 * from its start to the file's end (for the files of a rotated
	 * stream, the last one's counts the earlier ones' losses too).
	 * has_discarded 0 when the packet context has no such counter.
	 */
	int has_discarded;
	uint64_t events_discarded;
	/* Packets missing between the file's packets' sequence numbers (packet_seq_num). */
	int has_seq;
	uint64_t packets_lost;
};

/*
 * The number of stream files of the traces (empty files included: they
 * have no packets), each described by trax_reader_stream_info(), in the
 * order the traces were found. The first call reads every file's packet
 * headers and contexts (not their events) and keeps the answers:
 * (size_t)-1 on error (trax_reader_error(r)). The reader's position is
 * not changed.
 */
size_t trax_reader_stream_count(struct trax_reader *r);
/* Fills *info (info->size set by the caller) for stream file i: 0, or -1 for a bad index. */
int trax_reader_stream_info(struct trax_reader *r, size_t i, struct trax_stream_info *info);

/* ---- events ---- */

/* The event class's name; NULL for a NULL event. */
const char *trax_event_name(const struct trax_event *ev);
/* The event class's id within its stream class. */
uint64_t trax_event_id(const struct trax_event *ev);
/*
 * 1 when the event has a time (its stream class has a clock: one that a
 * field of the stream or of its events maps to, see struct
 * trax_clock_info), else 0.
 */
int trax_event_has_timestamp(const struct trax_event *ev);
/*
 * Nanoseconds from the clock's origin (the Unix epoch for LTTng), 0 without a time:
 * the stream's clock once the event's header is read, as Babeltrace 2 takes it.
 */
int64_t trax_event_timestamp_ns(const struct trax_event *ev);
/* The raw clock value (cycles) in *cycles: 0, or -1 without a time. */
int trax_event_clock_cycles(const struct trax_event *ev, uint64_t *cycles);
/* The index of the event's trace (see trax_reader_trace_path). */
size_t trax_event_trace_index(const struct trax_event *ev);
/* Its stream class id and stream id (stream_instance_id, or numbered as Babeltrace does). */
uint64_t trax_event_stream_class_id(const struct trax_event *ev);
uint64_t trax_event_stream_id(const struct trax_event *ev);

/* The number of top-level fields of a scope (0 when the scope is not declared). */
size_t trax_event_field_count(const struct trax_event *ev, enum trax_scope scope);
/* Top-level field i of a scope, NULL when out of range. */
const struct trax_field *trax_event_field_by_index(const struct trax_event *ev,
						   enum trax_scope scope, size_t i);
/*
 * The top-level field of a scope with this name: its display name (the
 * TSDL name without one leading underscore) or its TSDL name. NULL when
 * absent.
 */
const struct trax_field *trax_event_field_by_name(const struct trax_event *ev,
						  enum trax_scope scope, const char *name);

/* ---- fields ---- */

enum trax_field_kind trax_field_kind(const struct trax_field *f);
/* The display name; NULL for array elements and a NULL field. */
const char *trax_field_name(const struct trax_field *f);
/* The name as written in the metadata (TSDL); NULL for array elements. */
const char *trax_field_tsdl_name(const struct trax_field *f);

/*
 * The value of an integer or enum field: 0, or -1 when the field is not
 * one or the value does not fit (a negative value for uint, above
 * INT64_MAX for int).
 */
int trax_field_int(const struct trax_field *f, int64_t *value);
int trax_field_uint(const struct trax_field *f, uint64_t *value);
/* A float's value (integers and enums converted): 0, or -1. */
int trax_field_double(const struct trax_field *f, double *value);
/*
 * A string field's bytes, NUL-terminated, and their count in *len (len
 * may be NULL). Text arrays and sequences (8-bit integers with an
 * encoding, e.g. LTTng's ctf_array_text) are also read as strings, up to
 * their first NUL. NULL for other kinds.
 */
const char *trax_field_string(const struct trax_field *f, size_t *len);
/*
 * The index-th label of an enum whose range holds the field's value
 * (index from 0), NULL past the last one (or for other kinds).
 */
const char *trax_field_enum_label(const struct trax_field *f, size_t index);

/*
 * Children of a struct (fields), array or sequence (elements, text ones
 * included: one 8-bit integer per byte) or variant (1: the selected
 * option). 0 for other kinds.
 */
size_t trax_field_child_count(const struct trax_field *f);
const struct trax_field *trax_field_child(const struct trax_field *f, size_t i);
/* A struct's field by display or TSDL name, or a variant's selected option if it has that name. */
const struct trax_field *trax_field_child_by_name(const struct trax_field *f, const char *name);
/* A variant's selected option (named after the option), NULL for other kinds. */
const struct trax_field *trax_field_variant_selected(const struct trax_field *f);

/* ---- printing and counting: Babeltrace 2's output in one call ---- */

enum trax_print_format {
	/*
	 * Babeltrace 2's text (sink.text.pretty), byte for byte
	 * (docs/text-format.md): one line per event, its warnings
	 * ("WARNING: Tracer discarded ...") on stderr in their places.
	 */
	TRAX_PRINT_TEXT = 0,
	/*
	 * One JSON object per event and line: timestamp (ns from the origin,
	 * or null), name, stream_id, fields, context, packet_context.
	 */
	TRAX_PRINT_JSON,
};

/* What trax_reader_print() prints: babeltrace2's options of the same names. */
struct trax_print_options {
	size_t size; /* sizeof(struct trax_print_options): set by trax_print_options_init() */
	enum trax_print_format format;
	int clock_cycles;  /* time stamps in clock cycles */
	int clock_date;	   /* the date with the time stamps */
	int clock_gmt;	   /* in UTC rather than local time (TZ) */
	int clock_seconds; /* as seconds since the origin */
	int no_delta;	   /* without the time since the previous event */
	/*
	 * The field names printed (--names): a comma-separated list of
	 * payload, context, scope, header, all, none; NULL: payload,context.
	 */
	const char *names;
	/*
	 * The header items printed (--fields): trace, trace:hostname,
	 * trace:domain, trace:procname, trace:vpid, loglevel, emf, callsite,
	 * all; NULL: trace:hostname,trace:procname,trace:vpid.
	 */
	const char *fields;
	/*
	 * Printing on two threads: each reads the whole traces and formats
	 * every other chunk of this many events (0: the default, 4096; small
	 * ones are for tests).
	 */
	size_t chunk_events;
};

/* Fills o with the defaults (babeltrace2's without options) and its size. */
void trax_print_options_init(struct trax_print_options *o);

/*
 * Checks a names (names nonzero) or fields list of struct
 * trax_print_options: 0, or -1 with its first unknown item copied
 * (NUL-terminated, cut to fit) into bad[0..badlen-1].
 */
int trax_print_check_list(int names, const char *list, char *bad, size_t badlen);

/*
 * Prints every event left to the file descriptor fd, in time order, as
 * o says (NULL: the defaults), then returns: 0 at the end of the traces;
 * -1 on a reading error (trax_reader_error(r); everything before the
 * fault was printed; also for bad options); -2 when fd could not be
 * written (errno says why, EPIPE when a pipe's reader went away;
 * trax_reader_error(r) too). Warnings go to stderr.
 *
 * On a reader that has not read yet, with threads allowed
 * (trax_reader_options), the traces are opened a second time and two
 * threads each format every other chunk of events: about twice as fast.
 */
int trax_reader_print(struct trax_reader *r, int fd, const struct trax_print_options *o);

/*
 * Printing chosen events: a printer writes the lines of the events given
 * to it (from trax_reader_next() or trax_reader_each() on r), each as
 * trax_reader_print() would print it, the time since the previous event
 * printed. It buffers: trax_printer_close() writes out what is left. The
 * discarded-events warnings, which trax_reader_next() does not give, are
 * trax_reader_print()'s only.
 */
struct trax_printer;

/* A printer of r's events to fd; NULL on error (bad options or fd, memory: trax_reader_error(r)).
 */
struct trax_printer *trax_printer_open(struct trax_reader *r, int fd,
				       const struct trax_print_options *o);
/* Prints ev, an event of the printer's reader: 0, -1 for a NULL or foreign event. */
int trax_printer_event(struct trax_printer *p, const struct trax_event *ev);
/*
 * Writes out what is left and releases the printer (NULL is accepted): 0,
 * or -2 when fd could not be written (errno says why).
 */
int trax_printer_close(struct trax_printer *p);

/*
 * Decodes every event left and counts them in *count: 0, or -1 on error
 * (trax_reader_error(r); *count is then unset). On a reader that has not
 * read yet, with threads allowed, two threads each decode about half of
 * the packets where LTTng's packet indexes tell where to split.
 */
int trax_reader_count(struct trax_reader *r, uint64_t *count);

#ifdef __cplusplus
}
#endif

#endif /* TRAX_READER_H */
