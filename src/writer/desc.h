/*
 * desc.h - what the CTF writer needs to know of a trace to describe it in
 * TSDL, and nothing of who records it: producers (libtrax-ust from its
 * probe descriptors, traxd from what applications send, a future kernel
 * domain) build these structures, the writer (metadata.c) turns them into
 * text. Every string and array is the producer's, and must outlive the
 * calls it is passed to; the writer copies nothing.
 *
 * A trace is a class (ctfw_trace: uuid, clock, env), stream classes
 * (ctfw_stream: id, the context fields recorded after each event header)
 * and event classes (ctfw_event_class: name, log level, EMF URI, payload
 * fields). The packet header and packet context are the layout of
 * writer/packet.h, and every event header the compact one it defines: they
 * are not described here because records are written only that way.
 *
 * Types are what CTF 1.8 offers for payloads: integers, floating point
 * numbers, strings, enumerations, static arrays, sequences (whose length is
 * a field of its own, written just before), structures and variants (whose
 * tag is an enumeration field of their own, written before them), nested as
 * deep as wanted. A field that must not be written (visible to filters only) is
 * left out by its producer.
 */
#ifndef TRAX_WRITER_DESC_H
#define TRAX_WRITER_DESC_H

#include <stdbool.h>
#include <stdint.h>

#include "common/clock.h"

enum ctfw_byte_order {
	CTFW_BYTE_ORDER_NATIVE = 0, /* the trace's (the recording machine's) */
	CTFW_BYTE_ORDER_BE,	    /* e.g. LTTng's *_network fields */
	CTFW_BYTE_ORDER_LE,
};

enum ctfw_encoding {
	CTFW_ENCODING_NONE = 0,
	CTFW_ENCODING_UTF8, /* an integer holding text (arrays and sequences of characters) */
};

struct ctfw_integer {
	uint8_t size;	    /* bits, 1 to 64 */
	uint8_t align;	    /* bits: 8 for trax's byte-packed records */
	bool is_signed;	    /* two's complement */
	uint8_t base;	    /* how readers display it: 2, 8, 10 or 16 */
	uint8_t byte_order; /* enum ctfw_byte_order */
	uint8_t encoding;   /* enum ctfw_encoding */
};

/* IEEE 754: 8 and 24 for a float, 11 and 53 for a double. */
struct ctfw_float {
	uint8_t exp_dig;
	uint8_t mant_dig; /* the implicit bit included */
	uint8_t align;	  /* bits */
};

/*
 * One mapping of an enumeration: label for the values start..end. The values
 * are bit patterns; each is written as a signed or an unsigned number as
 * its flag says (a producer may write -5 in an unsigned enumeration, as
 * LTTng-UST does for what its source wrote as -5). An implicit mapping is
 * written without values: TSDL gives it the value after the previous
 * mapping's end (0 for the first), which start and end must hold.
 */
struct ctfw_enum_mapping {
	const char *label;
	int64_t start, end;
	bool start_signed, end_signed;
	bool implicit;
};

enum ctfw_type_kind {
	CTFW_TYPE_INTEGER = 1,
	CTFW_TYPE_FLOAT,
	CTFW_TYPE_STRING, /* UTF-8, NUL-terminated */
	CTFW_TYPE_ENUM,
	CTFW_TYPE_ARRAY,    /* a fixed number of elements */
	CTFW_TYPE_SEQUENCE, /* a length field, then that many elements */
	CTFW_TYPE_STRUCT,
	CTFW_TYPE_VARIANT, /* one of its options, as the tag field's label says */
};

struct ctfw_field;

struct ctfw_type {
	enum ctfw_type_kind kind;
	union {
		struct ctfw_integer integer;
		struct ctfw_float floating;
		struct {
			struct ctfw_integer container;
			const struct ctfw_enum_mapping *mappings;
			unsigned int nr_mappings; /* TSDL wants at least one */
		} enumeration;
		struct {
			const struct ctfw_type *elem;
			uint32_t length;
		} array;
		/*
		 * The length is written as a field of its own just before the
		 * sequence's, named after it: "_NAME_length" for field "NAME"
		 * (LTTng's convention, which readers display).
		 */
		struct {
			const struct ctfw_type *elem;
			struct ctfw_integer length;
		} sequence;
		struct {
			const struct ctfw_field *fields;
			unsigned int nr_fields;
		} structure;
		/*
		 * The tag is an enumeration field declared before the variant in
		 * the same structure (its name, without the leading '_' the
		 * writer adds). The option recorded is the one whose name is the
		 * tag's label, with the '_' the writer adds to both: a tag's
		 * mapping for option "a" is labelled "_a". TSDL wants at least
		 * one option.
		 */
		struct {
			const char *tag;
			const struct ctfw_field *options;
			unsigned int nr_options;
		} variant;
	};
};

/*
 * A field of a structure (an event's payload, a stream's event context).
 * Its name is a C identifier, written with a leading '_' as LTTng writes
 * them (no field can then clash with a TSDL keyword); readers drop it.
 */
struct ctfw_field {
	const char *name;
	struct ctfw_type type;
};

/* A byte-aligned integer in the trace's byte order, without encoding. */
static inline struct ctfw_integer ctfw_integer(unsigned int size, bool is_signed, unsigned int base)
{
	return (struct ctfw_integer){
	    .size = (uint8_t)size, .align = 8, .is_signed = is_signed, .base = (uint8_t)base};
}

/* A byte-aligned IEEE 754 number of 32 or 64 bits. */
static inline struct ctfw_float ctfw_float_bits(unsigned int bits)
{
	return bits == 32 ? (struct ctfw_float){8, 24, 8} : (struct ctfw_float){11, 53, 8};
}

/*
 * An event class: what its records hold. Where it is recorded (its stream
 * and its id there) is given when it is written, since one class can be
 * recorded in several streams, under other ids.
 */
struct ctfw_event_class {
	const char *name;
	int loglevel;		   /* < 0: none written */
	const char *model_emf_uri; /* NULL: none written */
	const struct ctfw_field *fields;
	unsigned int nr_fields;
};

/* A stream class: its id and what each record holds after its event header. */
struct ctfw_stream {
	uint32_t id;
	const struct ctfw_field *event_context; /* NULL when nr_event_context is 0 */
	unsigned int nr_event_context;
};

/* One entry of the trace's env block: a string, or an integer when str is NULL. */
struct ctfw_env_entry {
	const char *key;
	const char *str;
	int64_t num;
};

/* The trace: its uuid (in every packet header), its clock and its env. */
struct ctfw_trace {
	uint8_t uuid[16];
	struct trax_clock_info clock;
	const struct ctfw_env_entry *env;
	unsigned int nr_env;
};

#endif /* TRAX_WRITER_DESC_H */
