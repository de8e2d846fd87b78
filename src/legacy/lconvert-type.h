/*
 * lconvert-type.h - the CTF writer's description (writer/desc.h) of a
 * legacy event class's payload (ltt-type.h), and the payload sink that
 * writes the matching CTF record: the two walk types the same way, so a
 * record is the payload's values in field order.
 *
 * Mapping (docs/legacy-formats.md "How trax reads them"): integers keep
 * their size under the class's ABI, signedness and base; floats, strings
 * and enumerations (their labels) as such; an array or sequence of
 * <char> is a text array or sequence (UTF-8 bytes), one of <uchar> stays
 * numbers; structures as
 * structures; a union with a selector is an enumeration field NAME_tag
 * (labelled by the members' names) and a variant NAME; a union without
 * one is a structure of all its members (each read at the same offset).
 * Names that are not C identifiers are made ones ('_' for other bytes).
 */
#ifndef TRAX_LEGACY_LCONVERT_TYPE_H
#define TRAX_LEGACY_LCONVERT_TYPE_H

#include <stddef.h>
#include <stdint.h>

#include "legacy/ltt-type.h"
#include "writer/desc.h"

/* Where descriptions live: freed all at once. */
struct lconv_arena {
	struct lconv_chunk *chunks;
	int failed; /* out of memory */
};

void lconv_arena_free(struct lconv_arena *a);

/*
 * The fields of payload type t (a struct: its fields; anything else: one
 * field "value") under abi, into *fields / *n (arena memory). 0, or -1
 * (no memory).
 */
int lconv_payload_fields(struct lconv_arena *a, const struct ltt_type *t, const struct ltt_abi *abi,
			 const struct ctfw_field **fields, unsigned int *n);

/* A growing byte buffer: the record being made. */
struct lconv_buf {
	uint8_t *p;
	size_t len, cap;
	int failed;
};

/* What the sink needs: where to write, and the class's ABI. */
struct lconv_sink_ctx {
	struct lconv_buf *out;
	const struct ltt_abi *abi;
};

/* The sink (ltt_payload_decode's arg: a struct lconv_sink_ctx). */
extern const struct ltt_payload_sink lconv_sink;

/*
 * The same record without a walk, for a fixed-layout payload: its bytes
 * (lconv_plan_record_len) from payload p of at least pl->need bytes into
 * out, as the sink writes them.
 */
size_t lconv_plan_record_len(const struct ltt_plan *pl);
void lconv_plan_write(const struct ltt_plan *pl, const uint8_t *p, uint8_t *out);

#endif /* TRAX_LEGACY_LCONVERT_TYPE_H */
