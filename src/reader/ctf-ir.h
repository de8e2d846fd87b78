/*
 * ctf-ir.h - the reader's in-memory model of a CTF 1.8 trace's metadata:
 * what the TSDL text says, checked and with every field path resolved, in
 * the form the packet decoder walks.
 *
 * The whole model is allocated from the trace's arena and is read-only once
 * built; ctf_trace_free() releases it at once. Types may be shared between
 * several fields (a typealias used twice is one node) except where a type
 * holds a variant or a sequence: those are copied per place of use, since
 * their tag or length path is resolved relative to that place.
 */
#ifndef TRAX_CTF_IR_H
#define TRAX_CTF_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/ctf-arena.h"

enum ctf_byte_order {
	CTF_BYTE_ORDER_UNSET = 0, /* only while parsing: the trace's byte order */
	CTF_BYTE_ORDER_LE,
	CTF_BYTE_ORDER_BE,
};

enum ctf_encoding {
	CTF_ENCODING_NONE = 0,
	CTF_ENCODING_UTF8,
	CTF_ENCODING_ASCII,
};

/* The dynamic scopes of CTF 1.8, in the order a packet and an event are laid out. */
enum ctf_scope {
	CTF_SCOPE_PACKET_HEADER = 0,	/* trace.packet.header */
	CTF_SCOPE_PACKET_CONTEXT,	/* stream.packet.context */
	CTF_SCOPE_EVENT_HEADER,		/* stream.event.header */
	CTF_SCOPE_EVENT_COMMON_CONTEXT, /* stream.event.context */
	CTF_SCOPE_EVENT_CONTEXT,	/* event.context */
	CTF_SCOPE_EVENT_FIELDS,		/* event.fields */
	CTF_SCOPE_COUNT
};

/* A path step that enters the element of an array or sequence being decoded. */
#define CTF_PATH_CURRENT_ELEMENT (-1)

/*
 * Where a sequence's length or a variant's tag is: a scope and the steps
 * from that scope's root struct. A step is a field index in a struct, an
 * option index in a variant (the option being decoded) or
 * CTF_PATH_CURRENT_ELEMENT for the element of an array or sequence being
 * decoded.
 */
struct ctf_field_path {
	enum ctf_scope scope;
	unsigned int length;
	const int32_t *steps;
};

enum ctf_type_kind {
	CTF_TYPE_INTEGER = 0,
	CTF_TYPE_FLOAT,
	CTF_TYPE_ENUM,
	CTF_TYPE_STRING,
	CTF_TYPE_STRUCT,
	CTF_TYPE_VARIANT,
	CTF_TYPE_ARRAY,
	CTF_TYPE_SEQUENCE,
};

struct ctf_clock;
struct ctf_type;

struct ctf_integer_type {
	unsigned int size; /* bits, 1..64 */
	bool is_signed;
	enum ctf_byte_order byte_order;
	unsigned int base; /* 2, 8, 10 or 16: how to print it */
	enum ctf_encoding encoding;
	const char *clock_name;	       /* map = clock.NAME.value, or NULL */
	const struct ctf_clock *clock; /* that clock, resolved */
};

struct ctf_float_type {
	unsigned int exp_dig;
	unsigned int mant_dig; /* exp_dig + mant_dig is the size: 32 or 64 */
	enum ctf_byte_order byte_order;
};

/*
 * One label of an enumeration and the inclusive range it covers. Values are
 * stored as 64 bits: two's complement when the container is signed (compare
 * them as int64_t then), plain unsigned otherwise.
 */
struct ctf_enum_mapping {
	const char *label;
	uint64_t start;
	uint64_t end;
};

struct ctf_enum_type {
	struct ctf_integer_type container; /* a copy of the container integer type */
	unsigned int mapping_count;
	const struct ctf_enum_mapping *mappings; /* in declaration order */
};

struct ctf_string_type {
	enum ctf_encoding encoding;
};

/* A field of a struct or an option of a variant. */
struct ctf_field {
	const char *name;	  /* the TSDL identifier, used by field paths and tags */
	const char *display_name; /* name without one leading underscore, as readers print it */
	const struct ctf_type *type;
	/*
	 * A sequence's length or a variant's tag names it: a value that a
	 * reader shows even when it only moves a clock (Babeltrace 2 keeps it).
	 */
	bool length_or_tag;
};

struct ctf_struct_type {
	unsigned int field_count;
	const struct ctf_field *fields;
	unsigned int min_align; /* from align(N), 1 when absent */
};

struct ctf_variant_type {
	const char *tag_name; /* the path as written between < > */
	struct ctf_field_path tag;
	const struct ctf_type *tag_type; /* the tag field's type: an enum */
	unsigned int option_count;
	const struct ctf_field *options;
	/*
	 * For each mapping of the tag's enum (same index), the option whose
	 * TSDL name is the mapping's label, or -1 when there is none.
	 */
	const int32_t *option_of_mapping;
};

struct ctf_array_type {
	const struct ctf_type *element;
	uint64_t length;
};

struct ctf_sequence_type {
	const struct ctf_type *element;
	const char *length_name; /* the path as written between [ ] */
	struct ctf_field_path length;
	const struct ctf_type *length_type; /* unsigned integer or enum over one */
};

struct ctf_type {
	enum ctf_type_kind kind;
	/*
	 * Alignment in bits. A variant's is 1: it is aligned by the option
	 * selected. A struct's is the largest of its fields' and align(N).
	 */
	unsigned int align;
	bool has_paths;	    /* holds a variant or a sequence (resolved per place) */
	unsigned int depth; /* nesting levels, 1 for a scalar */
	unsigned int line;  /* where the type is written in the metadata text */
	unsigned int column;
	union {
		struct ctf_integer_type integer;
		struct ctf_float_type floating;
		struct ctf_enum_type enumeration;
		struct ctf_string_type string;
		struct ctf_struct_type structure;
		struct ctf_variant_type variant;
		struct ctf_array_type array;
		struct ctf_sequence_type sequence;
	} u;
};

struct ctf_clock {
	const char *name;
	bool has_uuid;
	uint8_t uuid[16];
	const char *description; /* NULL when absent */
	uint64_t freq;		 /* Hz, 1000000000 by default */
	uint64_t precision;	 /* in clock cycles */
	int64_t offset_s;	 /* seconds from the Epoch to the clock's zero */
	int64_t offset;		 /* and cycles, added */
	bool absolute;
};

struct ctf_env_entry {
	const char *key;
	bool is_string;
	const char *string; /* when is_string */
	int64_t integer;    /* otherwise */
};

struct ctf_event_class {
	const char *name;
	uint64_t id;
	uint64_t stream_id;
	bool has_loglevel;
	int64_t loglevel;
	const char *emf_uri;		/* model.emf.uri, NULL when absent */
	const struct ctf_type *context; /* event.context: a struct, or NULL */
	const struct ctf_type *fields;	/* event.fields: a struct, or NULL */
	unsigned int line;		/* of the event block */
	unsigned int column;
};

struct ctf_stream_class {
	uint64_t id; /* 0 when the metadata gives none (a single stream) */
	bool has_id;
	const struct ctf_type *packet_context; /* structs, or NULL */
	const struct ctf_type *event_header;
	const struct ctf_type *event_context;
	/*
	 * The stream's clock (Babeltrace 2's default clock class): the one
	 * clock that fields of its scopes or of its events map to; NULL when
	 * none does (its events have no time).
	 */
	const struct ctf_clock *clock;
	unsigned int event_count;
	struct ctf_event_class **events; /* sorted by id */
	unsigned int line;		 /* of the stream block (0: implicit) */
};

struct ctf_trace {
	struct ctf_arena arena; /* owns everything below */
	unsigned int major;
	unsigned int minor;
	bool has_uuid;
	uint8_t uuid[16];
	enum ctf_byte_order byte_order;
	const struct ctf_type *packet_header; /* a struct, or NULL */
	unsigned int env_count;
	struct ctf_env_entry *env;
	unsigned int clock_count;
	struct ctf_clock *clocks;
	unsigned int stream_count;
	struct ctf_stream_class **streams; /* sorted by id */
};

/* Releases the trace and its whole model; NULL is accepted. */
void ctf_trace_free(struct ctf_trace *trace);

/* Lookups over the model; NULL when absent. */
const struct ctf_stream_class *ctf_trace_stream(const struct ctf_trace *trace, uint64_t id);
const struct ctf_event_class *ctf_stream_event(const struct ctf_stream_class *stream, uint64_t id);
/* The first event class of that name in any stream. */
const struct ctf_event_class *ctf_trace_event_by_name(const struct ctf_trace *trace,
						      const char *name);
const struct ctf_clock *ctf_trace_clock(const struct ctf_trace *trace, const char *name);
const struct ctf_env_entry *ctf_trace_env(const struct ctf_trace *trace, const char *key);
/* The field of a struct with that TSDL name, NULL when absent or not a struct. */
const struct ctf_field *ctf_struct_field(const struct ctf_type *type, const char *name);
/*
 * Whether a packet context member is one of the integers CTF gives a meaning
 * (timestamp_begin, timestamp_end, content_size, packet_size,
 * events_discarded, packet_seq_num): readers use them to frame packets and
 * leave them out of what they print.
 */
bool ctf_field_is_packet_bookkeeping(const struct ctf_field *f);
/* The TSDL prefix of a scope, e.g. "stream.event.header". */
const char *ctf_scope_name(enum ctf_scope scope);

/*
 * Whether readers print mapping i's label for the value v: the mapping is
 * the first declaration of its label, and some mapping of that label covers
 * v (a label declared for several ranges is printed once).
 */
bool ctf_enum_label_matches(const struct ctf_enum_type *et, unsigned int i, uint64_t v);
/*
 * The labels readers print for v, one per call: the label of the next
 * mapping from *i that ctf_enum_label_matches(), *i moved past it; NULL
 * after the last. *i starts at 0.
 */
const char *ctf_enum_label_next(const struct ctf_enum_type *et, uint64_t v, unsigned int *i);

#endif /* TRAX_CTF_IR_H */
