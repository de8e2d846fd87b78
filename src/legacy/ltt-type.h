/*
 * ltt-type.h - the types of the fields of pre-CTF events, as the facility
 * XML (seed 000, both grammars of docs/legacy-formats.md 1.6) and the
 * marker format strings (seed 002, 2.5) describe them, and the walk of a
 * payload by its type.
 *
 * Sizes that depend on the machine that wrote the trace (int, long,
 * pointer, size_t) are kept symbolic in the type and resolved against an
 * ABI (struct ltt_abi) when a payload is read: one facility description
 * serves traces of 32- and 64-bit machines. A type tree and its strings
 * live in an arena owned by whoever parsed it (lxml_*, lmarker_*).
 */
#ifndef TRAX_LEGACY_LTT_TYPE_H
#define TRAX_LEGACY_LTT_TYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ltt_kind {
	LTT_SIGNED,   /* two's complement integer */
	LTT_UNSIGNED, /* also pointers (base 16), characters (size 1) */
	LTT_FLOAT,    /* IEEE 754, size 4 or 8 */
	LTT_STRING,   /* NUL-terminated */
	LTT_ENUM,     /* an unsigned integer (size) with labels */
	LTT_ARRAY,    /* length elements of elem */
	LTT_SEQUENCE, /* a length_type integer, then that many elem */
	LTT_STRUCT,   /* fields in order */
	LTT_UNION,    /* typecode_size 0: every field at the same offset (a C union);
			 else a typecode_size-byte unsigned code selects field[code] */
	LTT_TYPEREF,  /* a named type, ref once resolved (NULL: undeclared) */
};

/* Where a scalar's size comes from. */
enum ltt_size_ref {
	LTT_SIZE_FIXED,	  /* size */
	LTT_SIZE_INT,	  /* the ABI's int_size */
	LTT_SIZE_LONG,	  /* long_size */
	LTT_SIZE_POINTER, /* pointer_size */
	LTT_SIZE_SIZE_T,  /* size_t_size (size_t, ssize_t, off_t) */
};

struct ltt_type;

struct ltt_field {
	const char *name;
	struct ltt_type *type;
};

struct ltt_label {
	const char *name;
	int64_t value;
};

struct ltt_type {
	enum ltt_kind kind;
	enum ltt_size_ref size_ref; /* integers, floats, enums */
	uint8_t size;		    /* bytes, when size_ref is LTT_SIZE_FIXED */
	uint8_t base;		    /* how to show an integer: 10, 16 (pointers, %x), 8 */
	bool network;		    /* big-endian whatever the trace's byte order */
	bool is_char;		    /* a char / %c: arrays and sequences of it read as text */
	const char *name;	    /* a named type's name; a typeref's target */
	struct ltt_type *ref;	    /* LTT_TYPEREF: the named type, NULL if undeclared */
	struct ltt_label *labels;   /* LTT_ENUM */
	size_t nlabels;
	uint64_t length;	      /* LTT_ARRAY */
	struct ltt_type *elem;	      /* LTT_ARRAY, LTT_SEQUENCE */
	struct ltt_type *length_type; /* LTT_SEQUENCE: an unsigned integer type */
	struct ltt_field *fields;     /* LTT_STRUCT, LTT_UNION */
	size_t nfields;
	uint8_t typecode_size; /* LTT_UNION: the selector's bytes, 0: none */
	/*
	 * ltype.c's cache of the type's alignment under the ABI whose sizes
	 * align_key packs (0: none yet; LTT_ALIGN_ANY_ABI: under every ABI, set
	 * where the type is built, never written, as for shared static types):
	 * every element of an array and every nested struct asks for it. A
	 * trace's own types are walked by one thread at a time.
	 */
	uint64_t align_key;
	uint8_t align_cached;
};

#define LTT_ALIGN_ANY_ABI UINT64_MAX

/* What the machine that wrote a payload was: per facility load or marker. */
struct ltt_abi {
	uint8_t int_size, long_size, pointer_size, size_t_size;
	/*
	 * 0: packed. Else A (the arch size): a scalar of size s is aligned on
	 * min(A, s) from the payload start; strings on 1, arrays on their
	 * element's, sequences on max(length, element), structs and unions on
	 * their largest member's (docs/legacy-formats.md 1.3, 2.5).
	 */
	uint8_t alignment;
	bool big_endian;       /* the integers' byte order */
	bool float_big_endian; /* the floats' */
	/*
	 * Seed 002's markers: the field after a string is not realigned
	 * (2.5). Seed 000's genevent payloads: the fallback of 1.3 when the
	 * computed size misses the header's event_size.
	 */
	bool realign_after_string;
};

/*
 * The alignment t asks for under abi before the arch size caps it
 * (docs/legacy-formats.md 1.3), computed without the cache; 0 for an
 * undeclared type or a loop.
 */
unsigned ltt_type_alignment(const struct ltt_type *t, const struct ltt_abi *abi);
/*
 * The bytes that put off on a multiple of a (0 when a is 0 or 1): a mask
 * for the powers of two that every real alignment is, as the readers pad
 * every event header and payload.
 */
static inline uint64_t ltt_pad(uint64_t off, unsigned a)
{
	if (a <= 1)
		return 0;
	if (!(a & (a - 1)))
		return (0 - off) & (a - 1);
	return (a - off % a) % a;
}

/* A scalar's size in bytes under abi (0 for non-scalars). */
unsigned ltt_type_scalar_size(const struct ltt_type *t, const struct ltt_abi *abi);

/* The type behind typerefs (NULL when one is undeclared). */
const struct ltt_type *ltt_type_resolve(const struct ltt_type *t);

/*
 * The walk of a payload: ltt_payload_decode() calls these in field order,
 * depth first. name is the field's name (NULL for array/sequence
 * elements). Returning non-zero from a callback stops the walk (its value
 * is returned). Any callback may be NULL.
 */
struct ltt_payload_sink {
	int (*integer)(void *arg, const char *name, const struct ltt_type *t, unsigned size,
		       uint64_t raw); /* raw: the bits, sign-extended for LTT_SIGNED and LTT_ENUM of
					 signed values */
	int (*floating)(void *arg, const char *name, const struct ltt_type *t, unsigned size,
			double v);
	int (*string)(void *arg, const char *name, const struct ltt_type *t, const char *s,
		      size_t len);
	/* an enum: its value and label (NULL when no label has it) */
	int (*enumeration)(void *arg, const char *name, const struct ltt_type *t, unsigned size,
			   uint64_t raw, const char *label);
	/* arrays and sequences: n elements follow, then end_compound */
	int (*begin_array)(void *arg, const char *name, const struct ltt_type *t, uint64_t n);
	/* structs; unions without selector (each member follows, all read at one offset) */
	int (*begin_struct)(void *arg, const char *name, const struct ltt_type *t);
	/* unions with a selector: code, then the selected member */
	int (*begin_union)(void *arg, const char *name, const struct ltt_type *t, uint64_t code);
	int (*end_compound)(void *arg, const struct ltt_type *t);
};

/*
 * Walks payload p (len bytes, which starts base bytes after the block's
 * start: alignment is relative to it) as type t (a struct: its fields are
 * the payload's) under abi. Returns the bytes the payload takes (which
 * may be less than len), or -1 with err set (one line: the field and its
 * offset in the payload: past the end, an undeclared type, a union code
 * out of range...). A callback's non-zero return stops it: -2.
 */
long ltt_payload_decode(const struct ltt_type *t, const struct ltt_abi *abi, const uint8_t *p,
			size_t len, size_t base, const struct ltt_payload_sink *sink, void *arg,
			char *err, size_t errlen);

/* The payload's size without a sink (the same rules): bytes, or -1 with err set. */
long ltt_payload_size(const struct ltt_type *t, const struct ltt_abi *abi, const uint8_t *p,
		      size_t len, size_t base, char *err, size_t errlen);

/*
 * A fixed-layout payload's plan: where each scalar of a type lies, for
 * payloads whose start is base bytes after their block's (only base
 * modulo the ABI's alignment matters), so that reading one needs no walk
 * of its type. Types with strings, sequences or unions have none, nor
 * types of more than LTT_PLAN_MAX_ITEMS scalars. A payload of len >= need
 * bytes takes ltt_plan_size() bytes and decodes as the items say (what
 * ltt_payload_decode would read, in its order); a shorter one has an
 * error: walk it for the message.
 */
#define LTT_PLAN_MAX_ITEMS 256

struct ltt_plan_item {
	uint32_t off;  /* in the payload */
	uint8_t size;  /* 1, 2, 4 or 8 */
	bool big;      /* stored big-endian */
	bool is_float; /* else an integer or enumeration (the sink's raw bits) */
};

struct ltt_plan {
	size_t n;
	size_t need; /* the end of the last item */
	size_t size; /* the walk's end (past need: the padding of an empty tail) */
	struct ltt_plan_item items[];
};

/* t's plan under abi (malloc'd: free()), or NULL: no fixed layout, or no memory. */
struct ltt_plan *ltt_payload_plan(const struct ltt_type *t, const struct ltt_abi *abi, size_t base);

/* The bytes a payload of len bytes takes by plan pl, or -1 when it is too short. */
static inline long ltt_plan_size(const struct ltt_plan *pl, size_t len)
{
	if (len < pl->need)
		return -1;
	return (long)(pl->size < len ? pl->size : len);
}

/*
 * Facility descriptions (lxml.c): every <facility> element of an eventdefs
 * XML file, both grammars.
 */
struct ltt_event_type {
	const char *name;
	const char *description;  /* NULL when none */
	struct ltt_type *payload; /* a struct of its fields */
};

struct ltt_facility {
	const char *name;
	const char *description;
	struct ltt_event_type *events; /* in file order: index = the event id */
	size_t nevents;
	struct ltt_type **named; /* its <type name=...> declarations */
	size_t nnamed;
	uint32_t checksum; /* 0: not computed */
	struct lxml_arena *arena;
};

/*
 * Parses text (len bytes of file, named in messages) into *out (n
 * facilities, in file order; freed by lxml_free). 0, or -1 with err set:
 * one line "FILE:LINE:COL: what".
 */
int lxml_parse(const char *text, size_t len, const char *file, struct ltt_facility **out, size_t *n,
	       char *err, size_t errlen);
void lxml_free(struct ltt_facility *f, size_t n);

/*
 * Marker formats (lmarker.c, seed 002 2.5): "name %conv name #1u%zu ..."
 * into a struct type, in arena memory owned by the returned handle.
 * NULL with err set (the format and the position).
 */
struct lmarker_type;
struct lmarker_type *lmarker_parse(const char *format, char *err, size_t errlen);
const struct ltt_type *lmarker_type_get(const struct lmarker_type *m);
void lmarker_free(struct lmarker_type *m);

#endif /* TRAX_LEGACY_LTT_TYPE_H */
