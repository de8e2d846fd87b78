/*
 * decode-prog.h - scope types compiled into straight-line decoding
 * programs: the fast path of the field decoder (decode-field.h).
 *
 * The generic decoder walks a type tree per field and allocates a value
 * per field. But a scope's type (an event header, a payload) is decoded
 * millions of times with the same shape: its value tree has the same nodes
 * every time, except under variants (one subtree per option) and in arrays
 * and sequences. So each scope type is compiled once into
 *
 *   - a value tree built in advance (every struct's items, every option's
 *     subtree), whose leaves the program overwrites event after event;
 *   - a flat array of operations: align, bounds-check, load, store;
 *     variants jump to their option's operations; arrays, sequences and
 *     anything unusual call the generic decoder for that one field.
 *
 * A program never reports a fault itself: on any read past the packet
 * content, or a tag with no option, it gives up, and the caller decodes the
 * scope again with the generic decoder, which says exactly what is wrong.
 */
#ifndef TRAX_CTF_DECODE_PROG_H
#define TRAX_CTF_DECODE_PROG_H

#include "reader/decode-field.h"

struct ctf_decode_prog;

/*
 * The program of root struct type t decoded as scope `scope` with c's
 * trace byte order, compiled on first use and cached in c (freed by
 * ctf_decode_progs_free()). NULL when t has no program (the generic
 * decoder then does it all) or memory runs out.
 */
struct ctf_decode_prog *ctf_decode_prog_get(struct ctf_decode_ctx *c, enum ctf_scope scope,
					    const struct ctf_type *t);

/*
 * Compiles the root struct types of n scopes decoded one after the other
 * (an event's contexts and payload, say) into one program, which the
 * caller frees with ctf_decode_prog_free(). NULL as above.
 */
struct ctf_decode_prog *ctf_decode_prog_build(const struct ctf_type *const *types,
					      const enum ctf_scope *scopes, unsigned int n,
					      enum ctf_byte_order trace_bo);
void ctf_decode_prog_free(struct ctf_decode_prog *p);

/* The value the program decodes the i-th scope into (valid while the program is). */
struct ctf_value *ctf_decode_prog_root(struct ctf_decode_prog *p, unsigned int i);

/*
 * Decodes the scopes at c->pos into the program's value tree, making
 * their roots c->roots[scope] and updating c->pos and c->clock. Returns
 * 0; 1 when it gave up (c->pos and c->clock are as they were: decode the
 * scopes generically); -1 when the generic
 * decoder, called for an array or sequence, failed (c->err set).
 */
int ctf_decode_prog_run(struct ctf_decode_prog *p, struct ctf_decode_ctx *c);

/* Frees the programs cached in c. */
void ctf_decode_progs_free(struct ctf_decode_ctx *c);

#endif /* TRAX_CTF_DECODE_PROG_H */
