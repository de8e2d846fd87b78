/*
 * ctf-value.h - the decoded values of one event, or of a packet's header
 * and context: a tree mirroring the types of ctf-ir.h.
 *
 * Values are built by the stream decoder (decode-stream.h) in memory that it
 * reuses: an event's values are valid until the next event is read, a
 * packet's until the next packet. Strings and text arrays usually point into
 * the mapped stream file, which stays mapped while the reader is open. No
 * string is NUL-terminated: use the length.
 */
#ifndef TRAX_CTF_VALUE_H
#define TRAX_CTF_VALUE_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/ctf-ir.h"

/*
 * One decoded field. Which member of u is set depends on type->kind:
 *
 * - CTF_TYPE_INTEGER, CTF_TYPE_ENUM: u.u holds the value on 64 bits,
 *   sign-extended when the (container) type is signed, so u.s is then the
 *   signed value. An enum's labels are looked up in its type's mappings.
 * - CTF_TYPE_FLOAT: u.d (a 32-bit float converted to double).
 * - CTF_TYPE_STRING: u.str, the bytes before the terminating NUL.
 * - CTF_TYPE_ARRAY, CTF_TYPE_SEQUENCE of text (ctf_type_is_text()): u.str,
 *   all the elements' bytes, NULs included (printers stop at the first).
 * - CTF_TYPE_STRUCT, other arrays and sequences: u.list, the children in
 *   field (element) order.
 * - CTF_TYPE_VARIANT: u.variant, the selected option's index in the
 *   variant type's options and its value.
 */
struct ctf_value {
	const struct ctf_type *type;
	union {
		uint64_t u;
		int64_t s;
		double d;
		struct {
			const char *ptr;
			uint64_t len;
		} str;
		struct {
			struct ctf_value *items;
			uint64_t count;
		} list;
		struct {
			struct ctf_value *value;
			uint32_t option;
		} variant;
	} u;
};

/*
 * True when an array or sequence of this element type is decoded as bytes
 * (u.str) rather than as children: 8-bit integers with an encoding, as
 * LTTng's ctf_array_text/ctf_sequence_text write them and as readers print
 * them (one quoted string).
 */
static inline bool ctf_type_is_text_element(const struct ctf_type *elem)
{
	return elem->kind == CTF_TYPE_INTEGER && elem->u.integer.size == 8 &&
	       elem->u.integer.encoding != CTF_ENCODING_NONE;
}

/* The child of a struct value named name (TSDL name), NULL when absent. */
const struct ctf_value *ctf_value_field(const struct ctf_value *v, const char *name);

#endif /* TRAX_CTF_VALUE_H */
