/*
 * decode-field.h - decoding one field (and everything inside it) from the
 * bits of a packet into a ctf_value tree, checking every read against the
 * packet's bounds. Used by the stream reader (decode-stream.h) for each
 * scope of a packet and of an event.
 */
#ifndef TRAX_CTF_DECODE_FIELD_H
#define TRAX_CTF_DECODE_FIELD_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/ctf-ir.h"
#include "reader/ctf-value.h"
#include "reader/decode-pool.h"

struct ctf_decode_progs;

/* The state of a decoding in progress, set up by the stream reader. */
struct ctf_decode_ctx {
	const uint8_t *buf;		      /* the packet's first byte */
	uint64_t pos;			      /* bits from buf: where the next field starts */
	uint64_t limit;			      /* bits from buf: no field may end past it */
	enum ctf_byte_order trace_byte_order; /* for types left unset */
	struct ctf_value_pool *pool;	      /* where values are allocated */
	/*
	 * The root struct of each scope decoded or being decoded, NULL for
	 * the others: sequence lengths and variant tags are looked up there.
	 */
	const struct ctf_value *roots[CTF_SCOPE_COUNT];
	uint64_t clock; /* the stream's clock value, updated by mapped fields */
	/*
	 * The scope types compiled so far (decode-prog.h), built lazily, NULL
	 * until the first scope. Freed by ctf_decode_ctx_release().
	 */
	struct ctf_decode_progs *progs;
	/* On error: */
	uint64_t err_pos; /* bit offset of the fault, from buf */
	char err[256];	  /* what is wrong */
};

/*
 * Decodes the root struct of scope `scope` (type t, a struct) at c->pos
 * into *out (allocated from c->pool) and makes it that scope's root for
 * the field paths decoded after. Returns 0, or -1 with c->err and
 * c->err_pos set.
 */
int ctf_decode_scope(struct ctf_decode_ctx *c, enum ctf_scope scope, const struct ctf_type *t,
		     struct ctf_value **out);

/* Decodes one field of type t at c->pos into *out; as above. */
int ctf_decode_field(struct ctf_decode_ctx *c, const struct ctf_type *t, struct ctf_value *out);
/*
 * The option variant vt takes for its decoded enumeration tag: that of the
 * first mapping, in option order, whose range holds the tag (Babeltrace's
 * order); -1 when none does.
 */
int64_t ctf_variant_option_of_tag(const struct ctf_variant_type *vt, const struct ctf_value *tag);

/*
 * The value a sequence length or variant tag path designates among the
 * scopes decoded (c->roots), NULL when it is not decoded.
 */
const struct ctf_value *ctf_decode_lookup(const struct ctf_decode_ctx *c,
					  const struct ctf_field_path *p);

/* Frees what the decodings with c kept (c->progs); c stays usable. */
void ctf_decode_ctx_release(struct ctf_decode_ctx *c);

#endif /* TRAX_CTF_DECODE_FIELD_H */
