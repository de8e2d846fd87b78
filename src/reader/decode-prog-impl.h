/*
 * decode-prog-impl.h - the insides of decoding programs (decode-prog.h),
 * shared by their compiler and runners (decode-prog.c) and by the stream
 * reader's per-event fast path (decode-stream.c), which runs the two common
 * program shapes inline without leaving its loop.
 */
#ifndef TRAX_CTF_DECODE_PROG_IMPL_H
#define TRAX_CTF_DECODE_PROG_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "reader/bitfield.h"
#include "reader/decode-clock.h"
#include "reader/decode-prog.h"

enum op_kind {
	OP_BLOCK,   /* aux: a run of fixed-offset fields, in p->blocks */
	OP_BITS_LE, /* an integer outside blocks */
	OP_BITS_BE,
	OP_FLOAT32, /* floats: the bits, then a conversion */
	OP_FLOAT64,
	OP_STRING,
	OP_ALIGN,   /* only aligns (a struct's alignment with no field after it) */
	OP_VARIANT, /* aux: the variant's index in p->variants */
	OP_JUMP,    /* aux: the next operation */
	OP_GENERIC, /* aux: the type's index in p->generic */
	OP_END,
};

enum op_flag {
	FLAG_SIGNED = 1,
	FLAG_CLOCK = 2, /* mapped to the stream's clock */
	FLAG_BE = 4,	/* floats: big-endian bits */
};

struct prog_op {
	uint8_t kind;
	uint8_t size; /* bits, for integers and floats */
	uint8_t flags;
	uint32_t align_mask; /* alignment - 1, applied before the read */
	uint32_t slot;	     /* the value written */
	uint32_t aux;
};

/*
 * A block: consecutive integers and floats in host byte order whose offsets
 * from the block's (aligned) start are known in advance. One bounds check
 * covers the block; each field is then an 8-byte load, a shift and a mask.
 */
enum block_kind {
	BLOCK_INT,     /* as block_add() is told; it picks one of the next two */
	BLOCK_INTEGER, /* signed or not: sign-extended by sext bits (0: unsigned) */
	BLOCK_CLOCK,   /* unsigned or signed, mapped to the clock */
	BLOCK_F32,
	BLOCK_F64,
};

struct block_field {
	uint64_t mask; /* the field's low bits */
	uint32_t off;  /* bits from the block's start */
	uint32_t slot;
	uint8_t size;
	uint8_t kind;  /* enum block_kind */
	uint8_t flags; /* FLAG_SIGNED, FLAG_CLOCK */
	uint8_t sext;  /* 64 - size when signed, else 0 (integers and clock values) */
};

struct prog_block {
	uint32_t first, count; /* in p->fields */
	uint32_t bits;	       /* the block's size */
};

struct prog_variant {
	const struct ctf_variant_type *vt;
	int32_t tag_slot;      /* the tag's slot, -1: looked up by path at run time */
	uint32_t *option_op;   /* per option: its first operation */
	uint32_t *option_slot; /* per option: its value's slot */
	/*
	 * Per option: the block operation that is all it decodes, run without
	 * leaving the variant's operation; -1 when it decodes nothing, -2
	 * when it is more.
	 */
	int32_t *option_block;
	uint32_t end_op; /* where every option continues */
	/* The last tag seen and its option: tags repeat from event to event. */
	bool memo_valid;
	uint64_t memo_tag;
	uint32_t memo_option;
};

/*
 * A fixed run: fields at offsets known in advance from an aligned start,
 * across blocks whose alignments the start's implies (decode-prog.c,
 * fix_layout), each written straight to its value.
 */
struct fixed_field {
	uint64_t mask;
	struct ctf_value *dst;
	uint32_t off; /* bits from the run's start */
	uint8_t kind; /* enum block_kind */
	uint8_t size;
	uint8_t sext;
	uint8_t flags;
};

struct fixed_run {
	/*
	 * The first nints fields are BLOCK_INTEGER, the next nclocks
	 * BLOCK_CLOCK (in their order), the others floats.
	 */
	uint32_t nints, nclocks;
	uint32_t nfields;
	uint32_t bits; /* where the run ends (its last alignment included) */
	struct fixed_field *fields;
};

/* What a tagged program does for one option, with the indirections resolved. */
struct tagged_option {
	const struct prog_block *block; /* NULL: the option decodes nothing */
	uint32_t align_mask;		/* the block's alignment - 1 */
	struct ctf_value *value;	/* the option's value, for the variant */
	/* with a fixed header (fixed below): the option's fields, from the header's start */
	struct fixed_run run;
};

struct ctf_decode_prog {
	unsigned int nroots;
	enum ctf_scope root_scope[CTF_SCOPE_COUNT];
	uint32_t root_slot[CTF_SCOPE_COUNT];
	struct prog_op *ops;
	struct ctf_value *slots;
	struct prog_block *blocks;
	struct block_field *fields;
	struct prog_variant *variants;
	const struct ctf_type **generic;
	uint32_t nops, nslots, nblocks, nfields, nvariants, ngeneric;
	/*
	 * A program that is only a tag, a variant on it whose options are
	 * blocks, and the end (LTTng's event headers) runs without the
	 * interpreter (run_tagged): by_tag[t] is the option of tag t, -1 for
	 * none, for the tags below by_tag_n.
	 */
	bool tagged;
	uint32_t by_tag_n;
	int16_t *by_tag;
	struct tagged_option *tagged_options; /* per option of the variant */
	/* Only blocks and the end (most payloads, with their contexts): run_flat. */
	bool flat;
	/*
	 * Fixed layout: a flat program whose blocks' alignments follow from
	 * the first's (run: every field), or a tagged one whose options'
	 * do (each tagged option's run), so that nothing is aligned or
	 * looked up between fields. fixed_align_mask: the start's alignment.
	 */
	bool fixed;
	uint32_t fixed_align_mask;
	uint32_t fixed_bits; /* the most bits a fixed program reads from its aligned start */
	struct fixed_run run;
	struct ctf_value *tag_value, *variant_value; /* a fixed tagged program's */
};

static inline __attribute__((always_inline)) void
store(struct ctf_value *slot, const struct block_field *f, uint64_t v, uint64_t *clock)
{
	/* plain integers first, without a jump: they are nearly every field */
	if (__builtin_expect(f->kind == BLOCK_INTEGER, 1)) {
		slot->u.s = (int64_t)(v << f->sext) >> f->sext;
		return;
	}
	switch (f->kind) {
	case BLOCK_CLOCK:
		*clock = ctf_clock_update(*clock, v, f->size);
		slot->u.u = f->flags & FLAG_SIGNED ? (uint64_t)ctf_bits_sign_extend(v, f->size) : v;
		break;
	case BLOCK_F32: {
		uint32_t b32 = (uint32_t)v;
		float fl;

		memcpy(&fl, &b32, sizeof(fl));
		slot->u.d = fl;
		break;
	}
	default:
		memcpy(&slot->u.d, &v, sizeof(v));
		break;
	}
}

/* Decodes a fixed run starting at pos; the caller checked that it fits, with 64 bits of slack. */
static inline __attribute__((always_inline)) void
fixed_run_decode(const struct fixed_run *fr, const uint8_t *buf, uint64_t pos, uint64_t *clock)
{
	const struct fixed_field *__restrict f = fr->fields;

	if (!f)
		return; /* no field (an empty struct): nothing to add an offset to */
	const struct fixed_field *const ints_end = f + fr->nints,
					*const clocks_end = ints_end + fr->nclocks,
					*const end = f + fr->nfields;

	/* the plain integers (most fields), without a test of their kind */
	for (; f < ints_end; f++) {
		uint64_t at = pos + f->off, w;

		memcpy(&w, buf + at / 8, sizeof(w));
		w = (w >> (at % 8)) & f->mask;
		f->dst->u.s = (int64_t)(w << f->sext) >> f->sext;
	}
	/*
	 * Clock values, in their order: each one's bits replace the clock's
	 * low bits (mask), one more turn of them when the value went back
	 * (ctf_clock_update(); with 64 bits, mask + 1 is 0).
	 */
	for (; f < clocks_end; f++) {
		uint64_t at = pos + f->off, w, c = *clock;

		memcpy(&w, buf + at / 8, sizeof(w));
		w = (w >> (at % 8)) & f->mask;
		*clock = ((c & ~f->mask) | w) + (w < (c & f->mask) ? f->mask + 1 : 0);
		f->dst->u.s = (int64_t)(w << f->sext) >> f->sext;
	}
	for (; f < end; f++) {
		uint64_t at = pos + f->off, w;

		memcpy(&w, buf + at / 8, sizeof(w));
		w = (w >> (at % 8)) & f->mask;
		if (f->kind == BLOCK_F32) {
			uint32_t b32 = (uint32_t)w;
			float fl;

			memcpy(&fl, &b32, sizeof(fl));
			f->dst->u.d = fl;
		} else {
			memcpy(&f->dst->u.d, &w, sizeof(w));
		}
	}
}

/*
 * A fixed program (see fixed) at c->pos: 0, or -1 when it does not fit
 * before the content's end (with 64 bits of slack) or its tag has no
 * option, with c untouched. *option: the tagged program's option.
 */
static inline __attribute__((always_inline)) int
ctf_prog_run_fixed(struct ctf_decode_prog *p, struct ctf_decode_ctx *c, int *option)
{
	uint64_t pos = (c->pos + p->fixed_align_mask) & ~(uint64_t)p->fixed_align_mask;
	uint64_t limit = c->limit, clock = c->clock;
	const struct fixed_run *fr = &p->run;

	/* one test for any option: whatever the tag, the program reads no further */
	if (pos > limit || limit - pos < (uint64_t)p->fixed_bits + 64)
		return -1;
	if (p->tagged) {
		const struct fixed_field *tf = &p->run.fields[0];
		uint64_t at = pos + tf->off, w, tag;
		int o;

		memcpy(&w, c->buf + at / 8, sizeof(w));
		tag = (w >> (at % 8)) & tf->mask;
		if ((o = p->by_tag[tag]) < 0)
			return -1;
		fr = &p->tagged_options[o].run;
		p->tag_value->u.u = tag;
		p->variant_value->u.variant.option = (uint32_t)o;
		p->variant_value->u.variant.value = p->tagged_options[o].value;
		*option = o;
	}
	fixed_run_decode(fr, c->buf, pos, &clock);
	c->pos = pos + fr->bits;
	c->clock = clock;
	return 0;
}

/*
 * Option o of a fixed tagged program hp (an event header) and the fixed
 * flat program bp (an event body) that follows it, as one fixed run from
 * the header's aligned start into both programs' values, in *out (whose
 * fields the caller frees): one run per event instead of two. False when
 * bp's start is not known in advance from hp's alignment, when bp has
 * fields mapped to the clock (the event's time is the clock after the
 * header alone), or when memory runs out.
 */
bool ctf_prog_fuse_run(const struct ctf_decode_prog *hp, unsigned int o,
		       const struct ctf_decode_prog *bp, struct fixed_run *out);

/* Moves pos up to op's alignment; false when that passes limit. */
static inline bool align_op(const struct prog_op *op, uint64_t *pos, uint64_t limit)
{
	uint64_t aligned;

	if (!op->align_mask)
		return true;
	aligned = (*pos + op->align_mask) & ~(uint64_t)op->align_mask;
	if (aligned < *pos || aligned > limit)
		return false;
	*pos = aligned;
	return true;
}

/*
 * A tagged program (a tag, a variant of blocks on it, the end: LTTng's
 * event headers), straight: the tag, the option from the table, its block.
 * Returns the option, or -1 for anything out of the ordinary (near the end
 * of the content, a tag without option) with c untouched: the caller then
 * runs the interpreter, which starts over.
 */
static inline __attribute__((always_inline)) int ctf_prog_run_tagged(struct ctf_decode_prog *p,
								     struct ctf_decode_ctx *c)
{
	const struct prog_op *op = p->ops;
	const struct prog_block *tb = &p->blocks[op[0].aux];
	const struct block_field *f = &p->fields[tb->first], *end;
	const struct tagged_option *to;
	struct ctf_value *slots = p->slots;
	const uint8_t *buf = c->buf;
	uint64_t pos = c->pos, limit = c->limit, clock = c->clock, at, w, tag;
	int option;

	c->roots[p->root_scope[0]] = &slots[p->root_slot[0]];
	if (!align_op(&op[0], &pos, limit) || limit - pos < (uint64_t)tb->bits + 64)
		return -1;
	at = pos + f->off;
	memcpy(&w, buf + at / 8, sizeof(w));
	tag = (w >> (at % 8)) & f->mask;
	pos += tb->bits;
	if (tag >= p->by_tag_n || (option = p->by_tag[tag]) < 0 || !align_op(&op[1], &pos, limit))
		return -1;
	to = &p->tagged_options[option];
	if (to->block) {
		const struct prog_block *bl = to->block;

		pos = (pos + to->align_mask) & ~(uint64_t)to->align_mask;
		if (pos > limit || limit - pos < (uint64_t)bl->bits + 64)
			return -1;
		for (f = p->fields + bl->first, end = f + bl->count; f < end; f++) {
			at = pos + f->off;
			memcpy(&w, buf + at / 8, sizeof(w));
			store(&slots[f->slot], f, (w >> (at % 8)) & f->mask, &clock);
		}
		pos += bl->bits;
	}
	slots[p->fields[tb->first].slot].u.u = tag;
	slots[op[1].slot].u.variant.option = (uint32_t)option;
	slots[op[1].slot].u.variant.value = to->value;
	c->pos = pos;
	c->clock = clock;
	return option;
}

/*
 * A flat program (blocks, then the end: most payloads, and contexts with
 * them): block after block, straight. 0, or -1 near the end of the content
 * (or at an alignment past it) with c->pos and c->clock untouched.
 */
static inline __attribute__((always_inline)) int ctf_prog_run_flat(struct ctf_decode_prog *p,
								   struct ctf_decode_ctx *c)
{
	const struct prog_op *op = p->ops;
	struct ctf_value *slots = p->slots;
	const uint8_t *buf = c->buf;
	uint64_t pos = c->pos, limit = c->limit, clock = c->clock, at, w;

	for (; op->kind == OP_BLOCK; op++) {
		const struct prog_block *bl = &p->blocks[op->aux];
		const struct block_field *f = p->fields + bl->first, *end = f + bl->count;

		if (!align_op(op, &pos, limit) || limit - pos < (uint64_t)bl->bits + 64)
			return -1;
		for (; f < end; f++) {
			at = pos + f->off;
			memcpy(&w, buf + at / 8, sizeof(w));
			store(&slots[f->slot], f, (w >> (at % 8)) & f->mask, &clock);
		}
		pos += bl->bits;
	}
	if (!align_op(op, &pos, limit))
		return -1;
	c->pos = pos;
	c->clock = clock;
	return 0;
}

#endif /* TRAX_CTF_DECODE_PROG_IMPL_H */
