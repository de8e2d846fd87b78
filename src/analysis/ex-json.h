/*
 * ex-json.h - the JSON writer of `trax export` (export.h): a buffer
 * written out to a FILE when full, numbers and strings appended by hand
 * (no printf per value), and a trace's field values as JSON values, so
 * that exporting costs little more than reading.
 */
#ifndef TRAX_ANALYSIS_EX_JSON_H
#define TRAX_ANALYSIS_EX_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "trax/reader.h"

#define EX_OUT_SIZE (256 * 1024)

struct ex_out {
	FILE *f;
	char *buf; /* EX_OUT_SIZE bytes */
	size_t len;
	int failed; /* a write failed: errno was set by it */
};

/* 0, or -1 when memory runs out. */
int ex_out_init(struct ex_out *o, FILE *f);
/* Writes what is buffered: 0, or -1 when a write failed (now or before). */
int ex_out_flush(struct ex_out *o);
/* Flushes and releases the buffer: 0, or -1 as ex_out_flush(). */
int ex_out_close(struct ex_out *o);

/* Writes out the buffer, then appends s (the slow path of ex_put). */
void ex_put_slow(struct ex_out *o, const char *s, size_t n);

/* (inline: most pieces are a few bytes, often of a known length) */
static inline void ex_put(struct ex_out *o, const char *s, size_t n)
{
	if (__builtin_expect(o->len + n <= EX_OUT_SIZE, 1)) {
		memcpy(o->buf + o->len, s, n);
		o->len += n;
	} else
		ex_put_slow(o, s, n);
}

static inline void ex_puts(struct ex_out *o, const char *s)
{
	ex_put(o, s, strlen(s));
}
void ex_int(struct ex_out *o, int64_t v);
void ex_uint(struct ex_out *o, uint64_t v);
/* A double as JSON: shortest round-trip digits ("%.17g"), null for NaN and infinities. */
void ex_double(struct ex_out *o, double v);
/* ns as microseconds with the fraction kept exactly: 1234567 -> 1234.567 */
void ex_us(struct ex_out *o, int64_t ns);
/*
 * s as a JSON string (quoted): control characters escaped, valid UTF-8
 * kept, other bytes as \u00XX (Latin-1), so that the output is always
 * valid UTF-8 JSON.
 */
void ex_str(struct ex_out *o, const char *s);
/*
 * A field's value: integers as numbers, enums as their first label (the
 * number without one), floats, strings (text arrays too), structs as
 * objects, arrays and sequences as arrays, variants as their selected
 * option's value.
 */
void ex_field(struct ex_out *o, const struct trax_field *f);
/*
 * The fields of a scope of ev as the members of an object, without braces
 * (`"a":1,"b":"x"`); first: 1 when no member precedes. Returns the number
 * of members written.
 */
size_t ex_scope_members(struct ex_out *o, const struct trax_event *ev, enum trax_scope scope,
			int first);

#endif /* TRAX_ANALYSIS_EX_JSON_H */
