/*
 * decode-prog.c - compiling scope types into decoding programs and running
 * them (see decode-prog.h).
 *
 * Compilation mirrors ctf_decode_field() step for step: every type aligns
 * to its own alignment before it is read, structs decode their fields in
 * order, variants pick the option of the first mapping (in option order)
 * that holds the tag. What the program cannot do as a plain load is left
 * to the generic decoder, one field at a time.
 */
#include "reader/decode-prog.h"

#include <stdlib.h>
#include <string.h>

#include "reader/bitfield.h"
#include "reader/decode-clock.h"
#include "reader/decode-prog-impl.h"

/* Programs larger than this are not worth a side copy of the value tree. */
#define PROG_MAX_SLOTS 4096
#define PROG_MAX_OPS   8192

/* ---- compiling ---- */

struct builder {
	struct ctf_decode_prog *p;
	uint32_t cap_ops, cap_blocks, cap_fields, cap_variants, cap_generic;
	/* the block being filled (open_block), its base alignment and size so far */
	bool open_block;
	uint32_t block_align, block_bits;
	/* alignment asked by structs, not applied yet (applied by what follows) */
	uint32_t pending_align;
	/* per slot: where its struct's children begin (paths are resolved through it) */
	uint32_t *child_base;
	const struct ctf_type **slot_type; /* what each slot compiled so far holds */
	/* the scopes compiled so far: their root slots (paths start there) */
	int32_t scope_root[CTF_SCOPE_COUNT];
	enum ctf_byte_order trace_bo;
	bool failed;
};

static bool grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t n = *cap ? *cap : 16;
	void *a;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	a = realloc(*arr, (size_t)n * elem);
	if (!a)
		return false;
	*arr = a;
	*cap = n;
	return true;
}

static struct prog_op *emit(struct builder *b, enum op_kind kind, const struct ctf_type *t,
			    uint32_t slot)
{
	struct ctf_decode_prog *p = b->p;
	struct prog_op *op;

	if (b->failed || p->nops >= PROG_MAX_OPS ||
	    !grow((void **)&p->ops, &b->cap_ops, p->nops + 1, sizeof(*p->ops))) {
		b->failed = true;
		return NULL;
	}
	op = &p->ops[p->nops++];
	memset(op, 0, sizeof(*op));
	op->kind = (uint8_t)kind;
	op->slot = slot;
	op->align_mask = t && t->align > 1 ? t->align - 1 : 0;
	if (kind != OP_BLOCK) {
		/* aligning to the larger of two powers of two does both */
		if (b->pending_align > op->align_mask + 1)
			op->align_mask = b->pending_align - 1;
		b->pending_align = 1;
		b->open_block = false;
	}
	return op;
}

/* n new slots, in a row: the index of the first, or UINT32_MAX. */
static uint32_t new_slots(struct builder *b, uint32_t n)
{
	uint32_t first = b->p->nslots;

	if (b->failed || n > PROG_MAX_SLOTS - first) {
		b->failed = true;
		return UINT32_MAX;
	}
	b->p->nslots += n;
	return first;
}

static enum ctf_byte_order order_of(const struct builder *b, enum ctf_byte_order bo)
{
	return bo == CTF_BYTE_ORDER_UNSET ? b->trace_bo : bo;
}

static bool is_host_order(enum ctf_byte_order bo)
{
	return (bo == CTF_BYTE_ORDER_BE) == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

/*
 * Places a leaf of `size` bits and alignment `align` in the open block, or
 * in a new one; false when it cannot be in a block (it is then an
 * operation of its own).
 */
static bool block_add(struct builder *b, uint32_t align, unsigned size, enum block_kind kind,
		      uint8_t flags, uint32_t slot)
{
	struct ctf_decode_prog *p = b->p;
	uint32_t need = align > b->pending_align ? align : b->pending_align, off, shift;
	struct block_field *f;

	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || b->failed)
		return false;
	if (b->open_block && need <= b->block_align) {
		off = (b->block_bits + need - 1) & ~(need - 1);
		shift = b->block_align >= 8 ? off % 8 : 7;
	} else {
		off = 0;
		shift = need >= 8 ? 0 : 7;
	}
	/* one 8-byte load must hold the field wherever it starts in its byte */
	if (size + shift > 64 || off > (1u << 30))
		return false;
	if (!b->open_block || need > b->block_align) {
		struct prog_op *op;

		if (!grow((void **)&p->blocks, &b->cap_blocks, p->nblocks + 1, sizeof(*p->blocks)))
			goto oom;
		op = emit(b, OP_BLOCK, NULL, slot);
		if (!op)
			return false;
		op->align_mask = need - 1;
		op->aux = p->nblocks;
		p->blocks[p->nblocks++] = (struct prog_block){.first = p->nfields};
		b->open_block = true;
		b->block_align = need;
		b->block_bits = 0;
	}
	b->pending_align = 1;
	if (!grow((void **)&p->fields, &b->cap_fields, p->nfields + 1, sizeof(*p->fields)))
		goto oom;
	f = &p->fields[p->nfields++];
	f->mask = ctf_bits_mask(size);
	f->off = off;
	f->slot = slot;
	f->size = (uint8_t)size;
	if (kind == BLOCK_INT)
		kind = flags & FLAG_CLOCK ? BLOCK_CLOCK : BLOCK_INTEGER;
	f->kind = (uint8_t)kind;
	f->flags = flags;
	/* sign extension by two shifts: the field's top bit to bit 63 and back */
	f->sext = (uint8_t)(flags & FLAG_SIGNED ? 64 - size : 0);
	b->block_bits = off + size;
	p->blocks[p->nblocks - 1].count++;
	p->blocks[p->nblocks - 1].bits = b->block_bits;
	return true;
oom:
	b->failed = true;
	return false;
}

static void compile_integer(struct builder *b, const struct ctf_type *t,
			    const struct ctf_integer_type *it, uint32_t slot)
{
	enum ctf_byte_order bo = order_of(b, it->byte_order);
	/* (a signed field mapped to a clock does not move it: decode-field.c) */
	uint8_t flags = (uint8_t)((it->is_signed ? FLAG_SIGNED : 0) |
				  (it->clock && !it->is_signed ? FLAG_CLOCK : 0));
	struct prog_op *op;

	if (it->size == 0 || it->size > 64) {
		b->failed = true; /* the generic decoder reports it */
		return;
	}
	if (is_host_order(bo) && block_add(b, t->align, it->size, BLOCK_INT, flags, slot))
		return;
	op = emit(b, bo == CTF_BYTE_ORDER_BE ? OP_BITS_BE : OP_BITS_LE, t, slot);
	if (!op)
		return;
	op->size = (uint8_t)it->size;
	op->flags = flags;
}

/* The slot a field path designates when it is fixed at compile time, else -1. */
static int32_t resolve_slot(const struct builder *b, const struct ctf_field_path *path)
{
	uint32_t slot;

	if ((unsigned)path->scope >= CTF_SCOPE_COUNT || b->scope_root[path->scope] < 0)
		return -1;
	slot = (uint32_t)b->scope_root[path->scope];
	for (unsigned int i = 0; i < path->length; i++) {
		int32_t s = path->steps[i];

		if (b->child_base[slot] == UINT32_MAX || s < 0)
			return -1;
		slot = b->child_base[slot] + (uint32_t)s;
	}
	/* decode-field.c requires an enum tag: let the run-time path check it */
	if (!b->slot_type[slot] || b->slot_type[slot]->kind != CTF_TYPE_ENUM)
		return -1;
	return (int32_t)slot;
}

static void compile(struct builder *b, const struct ctf_type *t, uint32_t slot);

static void compile_struct(struct builder *b, const struct ctf_type *t, uint32_t slot)
{
	const struct ctf_struct_type *st = &t->u.structure;
	uint32_t first = new_slots(b, st->field_count);

	if (b->failed)
		return;
	b->child_base[slot] = first;
	if (t->align > b->pending_align)
		b->pending_align = t->align;
	for (unsigned int i = 0; i < st->field_count; i++)
		compile(b, st->fields[i].type, first + i);
}

static void compile_variant(struct builder *b, const struct ctf_type *t, uint32_t slot)
{
	const struct ctf_variant_type *vt = &t->u.variant;
	struct ctf_decode_prog *p = b->p;
	struct prog_variant *pv;
	uint32_t vi = p->nvariants, *jumps, first;
	struct prog_op *op;

	if (!vt->tag_type || vt->tag_type->kind != CTF_TYPE_ENUM || vt->option_count == 0 ||
	    !grow((void **)&p->variants, &b->cap_variants, vi + 1, sizeof(*p->variants))) {
		b->failed = true;
		return;
	}
	pv = &p->variants[p->nvariants++];
	memset(pv, 0, sizeof(*pv));
	pv->vt = vt;
	pv->tag_slot = resolve_slot(b, &vt->tag);
	pv->option_op = calloc(vt->option_count, sizeof(uint32_t));
	pv->option_slot = calloc(vt->option_count, sizeof(uint32_t));
	jumps = calloc(vt->option_count, sizeof(uint32_t));
	if (!pv->option_op || !pv->option_slot || !jumps) {
		free(jumps);
		b->failed = true;
		return;
	}
	op = emit(b, OP_VARIANT, t, slot);
	if (op)
		op->aux = vi;
	first = new_slots(b, vt->option_count);
	for (unsigned int i = 0; !b->failed && i < vt->option_count; i++) {
		struct prog_op *j;

		/* p->variants may move while options compile: index it afresh */
		p->variants[vi].option_op[i] = p->nops;
		p->variants[vi].option_slot[i] = first + i;
		compile(b, vt->options[i].type, first + i);
		j = emit(b, OP_JUMP, NULL, slot);
		if (j)
			jumps[i] = (uint32_t)(j - p->ops);
	}
	for (unsigned int i = 0; !b->failed && i < vt->option_count; i++)
		p->ops[jumps[i]].aux = p->nops;
	p->variants[vi].end_op = p->nops;
	free(jumps);
}

static void compile_generic(struct builder *b, const struct ctf_type *t, uint32_t slot)
{
	struct ctf_decode_prog *p = b->p;
	struct prog_op *op;

	if (!grow((void **)&p->generic, &b->cap_generic, p->ngeneric + 1, sizeof(*p->generic))) {
		b->failed = true;
		return;
	}
	/* the generic decoder aligns by itself */
	op = emit(b, OP_GENERIC, NULL, slot);
	if (!op)
		return;
	op->aux = p->ngeneric;
	p->generic[p->ngeneric++] = t;
}

static void compile(struct builder *b, const struct ctf_type *t, uint32_t slot)
{
	struct prog_op *op;

	if (b->failed)
		return;
	b->slot_type[slot] = t;
	/* Alignments are powers of two in practice; anything else goes generic. */
	if (t->align == 0 || (t->align & (t->align - 1)) != 0) {
		compile_generic(b, t, slot);
		return;
	}
	switch (t->kind) {
	case CTF_TYPE_INTEGER:
		compile_integer(b, t, &t->u.integer, slot);
		return;
	case CTF_TYPE_ENUM:
		compile_integer(b, t, &t->u.enumeration.container, slot);
		return;
	case CTF_TYPE_FLOAT: {
		unsigned size = t->u.floating.exp_dig + t->u.floating.mant_dig;

		if (size != 32 && size != 64) {
			b->failed = true;
			return;
		}
		if (is_host_order(order_of(b, t->u.floating.byte_order)) &&
		    block_add(b, t->align, size, size == 32 ? BLOCK_F32 : BLOCK_F64, 0, slot))
			return;
		op = emit(b, size == 32 ? OP_FLOAT32 : OP_FLOAT64, t, slot);
		if (op) {
			op->size = (uint8_t)size;
			if (order_of(b, t->u.floating.byte_order) == CTF_BYTE_ORDER_BE)
				op->flags = FLAG_BE;
		}
		return;
	}
	case CTF_TYPE_STRING:
		emit(b, OP_STRING, t, slot);
		return;
	case CTF_TYPE_STRUCT:
		compile_struct(b, t, slot);
		return;
	case CTF_TYPE_VARIANT:
		compile_variant(b, t, slot);
		return;
	case CTF_TYPE_ARRAY:
	case CTF_TYPE_SEQUENCE:
		compile_generic(b, t, slot);
		return;
	}
	b->failed = true;
}

void ctf_decode_prog_free(struct ctf_decode_prog *p)
{
	if (!p)
		return;
	/* (tagged_options exist only when ops[1] is the variant) */
	if (p->tagged_options)
		for (uint32_t k = 0; k < p->variants[p->ops[1].aux].vt->option_count; k++)
			free(p->tagged_options[k].run.fields);
	for (uint32_t i = 0; i < p->nvariants; i++) {
		free(p->variants[i].option_block);
		free(p->variants[i].option_op);
		free(p->variants[i].option_slot);
	}
	free(p->variants);
	free(p->by_tag);
	free(p->tagged_options);
	free(p->run.fields);
	free(p->blocks);
	free(p->fields);
	free(p->ops);
	free(p->slots);
	free(p->generic);
	free(p);
}

/* Gives every slot its type and every struct its items: the tree's fixed shape. */
static void shape_tree(struct ctf_decode_prog *p, const uint32_t *child_base, uint32_t slot,
		       const struct ctf_type *t)
{
	struct ctf_value *v = &p->slots[slot];

	v->type = t;
	if (t->kind == CTF_TYPE_STRUCT && child_base[slot] != UINT32_MAX) {
		v->u.list.items = &p->slots[child_base[slot]];
		v->u.list.count = t->u.structure.field_count;
		for (unsigned int i = 0; i < t->u.structure.field_count; i++)
			shape_tree(p, child_base, child_base[slot] + i,
				   t->u.structure.fields[i].type);
	}
}

/* Each option's subtree (variants are found through their operations). */
static void shape_options(struct ctf_decode_prog *p, const uint32_t *child_base)
{
	for (uint32_t i = 0; i < p->nvariants; i++) {
		const struct prog_variant *pv = &p->variants[i];

		for (unsigned int k = 0; k < pv->vt->option_count; k++)
			shape_tree(p, child_base, pv->option_slot[k], pv->vt->options[k].type);
	}
}

/*
 * Finds the options that decode one block (or nothing) and then jump on
 * with no alignment: the variant's operation runs those itself (LTTng's
 * event headers are such variants).
 */
static void fuse_variants(struct ctf_decode_prog *p)
{
	for (uint32_t i = 0; i < p->nvariants; i++) {
		struct prog_variant *pv = &p->variants[i];
		unsigned int n = pv->vt->option_count;

		pv->option_block = malloc(n * sizeof(*pv->option_block));
		if (!pv->option_block)
			continue; /* the plain way works */
		for (unsigned int k = 0; k < n; k++) {
			const struct prog_op *op = &p->ops[pv->option_op[k]];

			pv->option_block[k] = -2;
			if (op->kind == OP_JUMP && op->align_mask == 0)
				pv->option_block[k] = -1;
			else if (op->kind == OP_BLOCK && op[1].kind == OP_JUMP &&
				 op[1].align_mask == 0)
				pv->option_block[k] = (int32_t)pv->option_op[k];
		}
	}
}

static bool pick_option(struct prog_variant *pv, const struct ctf_value *tag, uint32_t *option);

/* Whether the program is a tag and a variant of blocks on it (see `tagged`). */
static void find_tagged(struct ctf_decode_prog *p)
{
	const struct prog_op *op = p->ops;
	const struct prog_block *tb;
	const struct block_field *tf;
	struct prog_variant *pv;
	struct ctf_value tag;

	if (p->nroots != 1 || p->nops < 3 || op[0].kind != OP_BLOCK || op[1].kind != OP_VARIANT)
		return;
	tb = &p->blocks[op[0].aux];
	tf = &p->fields[tb->first];
	pv = &p->variants[op[1].aux];
	/* tags of up to 16 bits (LTTng's compact and large headers): a table of 128 KiB at most */
	if (tb->count != 1 || tf->kind != BLOCK_INTEGER || (tf->flags & FLAG_SIGNED) ||
	    tf->off != 0 || tf->size > 16 || pv->tag_slot != (int32_t)tf->slot ||
	    !pv->option_block || p->ops[pv->end_op].kind != OP_END || p->ops[pv->end_op].align_mask)
		return;
	for (unsigned int k = 0; k < pv->vt->option_count; k++)
		if (pv->option_block[k] < -1)
			return;
	if (pv->vt->option_count > INT16_MAX)
		return;
	p->by_tag = malloc(((size_t)1 << tf->size) * sizeof(*p->by_tag));
	p->tagged_options = calloc(pv->vt->option_count + 1, sizeof(*p->tagged_options));
	if (!p->by_tag || !p->tagged_options)
		return; /* the interpreter does it */
	for (unsigned int k = 0; k < pv->vt->option_count; k++) {
		struct tagged_option *to = &p->tagged_options[k];
		int32_t bi = pv->option_block[k];

		to->value = &p->slots[pv->option_slot[k]];
		if (bi >= 0) {
			to->block = &p->blocks[p->ops[bi].aux];
			to->align_mask = p->ops[bi].align_mask;
		}
	}
	memset(&tag, 0, sizeof(tag));
	p->by_tag_n = 1u << tf->size;
	if (!pv->vt->tag_type->u.enumeration.container.is_signed) {
		/*
		 * pick_option()'s choice, the smallest option whose mapping holds
		 * the tag, range by range: 65536 tags of LTTng's large header
		 * cost a millisecond one at a time.
		 */
		const struct ctf_enum_type *e = &pv->vt->tag_type->u.enumeration;

		for (uint32_t t = 0; t < p->by_tag_n; t++)
			p->by_tag[t] = -1;
		for (unsigned int i = 0; i < e->mapping_count; i++) {
			const struct ctf_enum_mapping *m = &e->mappings[i];
			int32_t opt = pv->vt->option_of_mapping[i];

			if (opt < 0 || (uint32_t)opt >= pv->vt->option_count ||
			    m->start >= p->by_tag_n || m->end < m->start)
				continue;
			for (uint64_t t = m->start; t <= m->end && t < p->by_tag_n; t++)
				if (p->by_tag[t] < 0 || opt < p->by_tag[t])
					p->by_tag[t] = (int16_t)opt;
		}
	} else {
		for (uint32_t t = 0; t < p->by_tag_n; t++) {
			uint32_t option;

			tag.u.u = t;
			p->by_tag[t] = pick_option(pv, &tag, &option) ? (int16_t)option : -1;
		}
	}
	pv->memo_valid = false;
	p->tagged = true;
}

/* Appends the fields of block bl, at bit offset base of a run, to the run. */
static bool run_add_block(struct ctf_decode_prog *p, struct fixed_run *fr, uint32_t *cap,
			  const struct prog_block *bl, uint32_t base)
{
	if (!grow((void **)&fr->fields, cap, fr->nfields + bl->count, sizeof(*fr->fields)))
		return false;
	for (uint32_t i = 0; i < bl->count; i++) {
		const struct block_field *f = &p->fields[bl->first + i];

		fr->fields[fr->nfields++] = (struct fixed_field){
		    .mask = f->mask,
		    .dst = &p->slots[f->slot],
		    .off = base + f->off,
		    .kind = f->kind,
		    .size = f->size,
		    .sext = f->sext,
		    .flags = f->flags,
		};
	}
	return true;
}

/* Moves the fields of kind k after the first n, in a stable way; the new n. */
static uint32_t run_gather(struct fixed_run *fr, uint32_t n, uint8_t k)
{
	struct fixed_field tmp;

	for (uint32_t i = n; i < fr->nfields; i++)
		if (fr->fields[i].kind == k) {
			/* a stable move: the fields between keep their order */
			tmp = fr->fields[i];
			memmove(&fr->fields[n + 1], &fr->fields[n], (i - n) * sizeof(tmp));
			fr->fields[n++] = tmp;
		}
	return n;
}

/*
 * Plain integers first (their order does not matter: each writes its own
 * value), then the clock values in their order (each builds on the one
 * before), then the floats: runs of one kind, without tests.
 */
static void run_partition(struct fixed_run *fr)
{
	fr->nints = run_gather(fr, 0, BLOCK_INTEGER);
	fr->nclocks = run_gather(fr, fr->nints, BLOCK_CLOCK) - fr->nints;
}

/*
 * Offset of a part aligned to mask + 1 that follows `bits` bits of a run
 * whose start is aligned to start_mask + 1: known in advance when the
 * start's alignment is at least as large; false otherwise.
 */
static bool fixed_offset(uint32_t start_mask, uint32_t mask, uint64_t bits, uint32_t *off)
{
	uint64_t o = (bits + mask) & ~(uint64_t)mask;

	if (mask > start_mask || o > (1u << 30))
		return false;
	*off = (uint32_t)o;
	return true;
}

bool ctf_prog_fuse_run(const struct ctf_decode_prog *hp, unsigned int o,
		       const struct ctf_decode_prog *bp, struct fixed_run *out)
{
	const struct fixed_run *hr, *br = &bp->run;
	uint32_t boff, n;

	memset(out, 0, sizeof(*out));
	if (!hp->fixed || !hp->tagged || !bp->fixed || !bp->flat)
		return false;
	hr = &hp->tagged_options[o].run;
	/* the event's time is the clock after its header: the body must not move it */
	if (br->nclocks ||
	    !fixed_offset(hp->fixed_align_mask, bp->fixed_align_mask, hr->bits, &boff) ||
	    (uint64_t)boff + br->bits > (1u << 30))
		return false;
	n = hr->nfields + br->nfields;
	out->fields = malloc((n ? n : 1) * sizeof(*out->fields));
	if (!out->fields)
		return false;
	for (uint32_t k = 0; k < hr->nfields; k++)
		out->fields[k] = hr->fields[k];
	for (uint32_t k = 0; k < br->nfields; k++) {
		out->fields[hr->nfields + k] = br->fields[k];
		out->fields[hr->nfields + k].off += boff;
	}
	out->nfields = n;
	out->bits = boff + br->bits;
	/* the header's clock values stay before the body's */
	run_partition(out);
	return true;
}

/* Finds whether the program has a fixed layout, and lays it out (see `fixed`). */
static void fix_layout(struct ctf_decode_prog *p)
{
	uint32_t cap = 0, off;

	p->fixed_align_mask = p->ops[0].align_mask;
	if (p->flat) {
		const struct prog_op *op = p->ops;
		uint64_t bits = 0;

		for (; op->kind == OP_BLOCK; op++) {
			const struct prog_block *bl = &p->blocks[op->aux];

			if (!fixed_offset(p->fixed_align_mask, op->align_mask, bits, &off) ||
			    !run_add_block(p, &p->run, &cap, bl, off))
				return;
			bits = (uint64_t)off + bl->bits;
		}
		if (!fixed_offset(p->fixed_align_mask, op->align_mask, bits, &off))
			return;
		p->run.bits = p->fixed_bits = off;
		run_partition(&p->run);
		p->fixed = true;
	} else if (p->tagged) {
		const struct prog_op *op = p->ops;
		const struct prog_block *tb = &p->blocks[op[0].aux];
		const struct prog_variant *pv = &p->variants[op[1].aux];
		uint32_t voff;

		if (!run_add_block(p, &p->run, &cap, tb, 0) ||
		    !fixed_offset(p->fixed_align_mask, op[1].align_mask, tb->bits, &voff))
			return;
		p->fixed_bits = tb->bits; /* the tag is read whatever follows */
		for (unsigned int k = 0; k < pv->vt->option_count; k++) {
			struct tagged_option *to = &p->tagged_options[k];
			uint32_t ocap = 0;

			off = voff;
			if ((to->block &&
			     (!fixed_offset(p->fixed_align_mask, to->align_mask, voff, &off) ||
			      !run_add_block(p, &to->run, &ocap, to->block, off))))
				return;
			to->run.bits = to->block ? off + to->block->bits : voff;
			run_partition(&to->run);
			if (p->fixed_bits < to->run.bits)
				p->fixed_bits = to->run.bits;
		}
		p->tag_value = &p->slots[p->fields[tb->first].slot];
		p->variant_value = &p->slots[op[1].slot];
		p->fixed = true;
	}
}

struct ctf_decode_prog *ctf_decode_prog_build(const struct ctf_type *const *types,
					      const enum ctf_scope *scopes, unsigned int n,
					      enum ctf_byte_order trace_bo)
{
	struct builder b = {.trace_bo = trace_bo, .pending_align = 1};
	struct ctf_decode_prog *p;

	if (n == 0 || n > CTF_SCOPE_COUNT)
		return NULL;
	for (unsigned int i = 0; i < n; i++)
		if (types[i]->kind != CTF_TYPE_STRUCT || (unsigned)scopes[i] >= CTF_SCOPE_COUNT)
			return NULL;
	p = b.p = calloc(1, sizeof(*b.p));
	b.child_base = malloc(PROG_MAX_SLOTS * sizeof(*b.child_base));
	b.slot_type = calloc(PROG_MAX_SLOTS, sizeof(*b.slot_type));
	if (!b.p || !b.child_base || !b.slot_type)
		b.failed = true;
	else
		/* no slot has children until its struct is compiled */
		memset(b.child_base, 0xff, PROG_MAX_SLOTS * sizeof(*b.child_base));
	for (unsigned int i = 0; i < CTF_SCOPE_COUNT; i++)
		b.scope_root[i] = -1;
	for (unsigned int i = 0; i < n && !b.failed; i++) {
		uint32_t root = new_slots(&b, 1);

		if (b.failed)
			break;
		p->root_scope[i] = scopes[i];
		p->root_slot[i] = root;
		p->nroots = i + 1;
		b.scope_root[scopes[i]] = (int32_t)root;
		compile(&b, types[i], root);
	}
	emit(&b, OP_END, NULL, 0);
	if (!b.failed) {
		p->slots = calloc(p->nslots, sizeof(*p->slots));
		fuse_variants(p);
		if (p->slots)
			find_tagged(p); /* points into the slots */
		p->flat = p->ops[p->nops - 1].kind == OP_END;
		for (uint32_t i = 0; i + 1 < p->nops; i++)
			if (p->ops[i].kind != OP_BLOCK)
				p->flat = false;
		if (p->slots)
			fix_layout(p);
	}
	free(b.slot_type);
	if (b.failed || !p->slots) {
		free(b.child_base);
		ctf_decode_prog_free(p);
		return NULL;
	}
	for (unsigned int i = 0; i < n; i++)
		shape_tree(p, b.child_base, p->root_slot[i], types[i]);
	shape_options(p, b.child_base);
	free(b.child_base);
	return p;
}

/* ---- the cache, per decoding context ---- */

struct prog_entry {
	const struct ctf_type *type; /* NULL: empty entry */
	enum ctf_scope scope;
	struct ctf_decode_prog *prog; /* NULL: the type has none */
};

struct ctf_decode_progs {
	struct prog_entry *entries;
	size_t mask; /* entry count - 1 (a power of two) */
	size_t used;
	/* the last hit: consecutive events mostly share their classes */
	struct prog_entry *last[CTF_SCOPE_COUNT];
};

static inline size_t entry_hash(const struct ctf_type *t, enum ctf_scope s, size_t mask)
{
	return (size_t)((((uintptr_t)t >> 4) + (uintptr_t)s) * 0x9E3779B97F4A7C15ull >> 20) & mask;
}

static bool cache_grow(struct ctf_decode_progs *ps)
{
	size_t n = ps->entries ? (ps->mask + 1) * 2 : 64;
	struct prog_entry *e = calloc(n, sizeof(*e));

	if (!e)
		return false;
	for (size_t i = 0; ps->entries && i <= ps->mask; i++) {
		size_t h;

		if (!ps->entries[i].type)
			continue;
		for (h = entry_hash(ps->entries[i].type, ps->entries[i].scope, n - 1); e[h].type;
		     h = (h + 1) & (n - 1))
			;
		e[h] = ps->entries[i];
	}
	free(ps->entries);
	ps->entries = e;
	ps->mask = n - 1;
	memset(ps->last, 0, sizeof(ps->last));
	return true;
}

struct ctf_decode_prog *ctf_decode_prog_get(struct ctf_decode_ctx *c, enum ctf_scope scope,
					    const struct ctf_type *t)
{
	struct ctf_decode_progs *ps = c->progs;
	struct prog_entry *e;
	size_t h;

	if (__builtin_expect(ps != NULL, 1)) {
		e = ps->last[scope];
		if (e && e->type == t)
			return e->prog;
		for (h = entry_hash(t, scope, ps->mask); ps->entries[h].type;
		     h = (h + 1) & ps->mask)
			if (ps->entries[h].type == t && ps->entries[h].scope == scope) {
				ps->last[scope] = &ps->entries[h];
				return ps->entries[h].prog;
			}
	} else {
		ps = c->progs = calloc(1, sizeof(*ps));
		if (!ps)
			return NULL;
	}
	if ((ps->used + 1) * 2 > (ps->entries ? ps->mask + 1 : 0) && !cache_grow(ps))
		return NULL;
	for (h = entry_hash(t, scope, ps->mask); ps->entries[h].type; h = (h + 1) & ps->mask)
		;
	e = &ps->entries[h];
	e->type = t;
	e->scope = scope;
	e->prog = ctf_decode_prog_build(&t, &scope, 1, c->trace_byte_order);
	ps->used++;
	ps->last[scope] = e;
	return e->prog;
}

void ctf_decode_progs_free(struct ctf_decode_ctx *c)
{
	struct ctf_decode_progs *ps = c->progs;

	if (!ps)
		return;
	for (size_t i = 0; ps->entries && i <= ps->mask; i++)
		ctf_decode_prog_free(ps->entries[i].prog);
	free(ps->entries);
	free(ps);
	c->progs = NULL;
}

struct ctf_value *ctf_decode_prog_root(struct ctf_decode_prog *p, unsigned int i)
{
	return &p->slots[p->root_slot[i]];
}

/* ---- running ---- */

/* The option for tag, as decode-field.c picks it; false when there is none. */
static bool pick_option(struct prog_variant *pv, const struct ctf_value *tag, uint32_t *option)
{
	const struct ctf_variant_type *vt = pv->vt;
	int64_t best;

	if (pv->memo_valid && pv->memo_tag == tag->u.u) {
		*option = pv->memo_option;
		return true;
	}
	best = ctf_variant_option_of_tag(vt, tag);
	if (best < 0 || (uint64_t)best >= vt->option_count)
		return false;
	pv->memo_valid = true;
	pv->memo_tag = tag->u.u;
	pv->memo_option = (uint32_t)best;
	*option = (uint32_t)best;
	return true;
}

/* Decodes a block at pos (aligned): 0, or -1 when it does not fit before limit. */
static inline __attribute__((always_inline)) int
run_block(const struct ctf_decode_prog *p, const struct prog_block *bl, const uint8_t *buf,
	  uint64_t pos, uint64_t limit, struct ctf_value *slots, uint64_t *clock)
{
	const struct block_field *f = p->fields + bl->first, *end = f + bl->count;

	/* 64 bits of slack: every 8-byte load stays inside the content */
	if (__builtin_expect(limit - pos >= (uint64_t)bl->bits + 64, 1)) {
		for (; f < end; f++) {
			uint64_t at = pos + f->off, w;

			memcpy(&w, buf + at / 8, sizeof(w));
			store(&slots[f->slot], f, (w >> (at % 8)) & f->mask, clock);
		}
		return 0;
	}
	/* near the end of the content: exact reads, field by field */
	for (; f < end; f++) {
		uint64_t at = pos + f->off;

		if (at > limit || limit - at < f->size)
			return -1;
		store(&slots[f->slot], f, ctf_bits_read_le(buf, at, f->size), clock);
	}
	return 0;
}

/* The interpreter: every program can run here. */
static int run_ops(struct ctf_decode_prog *p, struct ctf_decode_ctx *c)
{
	/*
	 * Threaded dispatch (a GNU C extension): each operation jumps to the
	 * next from its own site, which branch predictors follow far better
	 * than one shared switch.
	 */
	static const void *const dispatch[] = {
	    [OP_BLOCK] = &&op_block,	 [OP_BITS_LE] = &&op_bits_le, [OP_BITS_BE] = &&op_bits_be,
	    [OP_FLOAT32] = &&op_float32, [OP_FLOAT64] = &&op_float64, [OP_STRING] = &&op_string,
	    [OP_ALIGN] = &&op_align,	 [OP_VARIANT] = &&op_variant, [OP_JUMP] = &&op_jump,
	    [OP_GENERIC] = &&op_generic, [OP_END] = &&op_end,
	};
	const struct prog_op *op = p->ops;
	struct ctf_value *slots = p->slots;
	const uint8_t *buf = c->buf;
	const uint64_t limit = c->limit, start = c->pos, start_clock = c->clock;
	uint64_t pos = start, clock = start_clock, v;

	c->roots[p->root_scope[0]] = &slots[p->root_slot[0]];
	for (unsigned int i = 1; i < p->nroots; i++)
		c->roots[p->root_scope[i]] = &slots[p->root_slot[i]];
#define NEXT() goto *dispatch[(++op)->kind]
#define ALIGN()                                                                                    \
	do {                                                                                       \
		if (!align_op(op, &pos, limit))                                                    \
			goto give_up;                                                              \
	} while (0)
	goto *dispatch[op->kind];

op_block:
	ALIGN();
	if (run_block(p, &p->blocks[op->aux], buf, pos, limit, slots, &clock))
		goto give_up;
	pos += p->blocks[op->aux].bits;
	NEXT();
op_bits_le:
	ALIGN();
	if (limit - pos < op->size)
		goto give_up;
	v = ctf_bits_read_le(buf, pos, op->size);
	goto integer;
op_bits_be:
	ALIGN();
	if (limit - pos < op->size)
		goto give_up;
	v = ctf_bits_read_be(buf, pos, op->size);
integer:
	pos += op->size;
	if (op->flags & FLAG_CLOCK)
		clock = ctf_clock_update(clock, v, op->size);
	slots[op->slot].u.u =
	    op->flags & FLAG_SIGNED ? (uint64_t)ctf_bits_sign_extend(v, op->size) : v;
	NEXT();
op_float32 : {
	uint32_t b32;
	float f;

	ALIGN();
	if (limit - pos < 32)
		goto give_up;
	b32 = (uint32_t)(op->flags & FLAG_BE ? ctf_bits_read_be(buf, pos, 32)
					     : ctf_bits_read_le(buf, pos, 32));
	memcpy(&f, &b32, sizeof(f));
	slots[op->slot].u.d = f;
	pos += 32;
	NEXT();
}
op_float64:
	ALIGN();
	if (limit - pos < 64)
		goto give_up;
	v = op->flags & FLAG_BE ? ctf_bits_read_be(buf, pos, 64) : ctf_bits_read_le(buf, pos, 64);
	memcpy(&slots[op->slot].u.d, &v, sizeof(v));
	pos += 64;
	NEXT();
op_string : {
	const uint8_t *str, *nul;

	ALIGN();
	if (pos % 8)
		goto give_up;
	str = buf + pos / 8;
	nul = memchr(str, 0, (limit - pos) / 8);
	if (!nul)
		goto give_up;
	slots[op->slot].u.str.ptr = (const char *)str;
	slots[op->slot].u.str.len = (uint64_t)(nul - str);
	pos += (uint64_t)(nul - str + 1) * 8;
	NEXT();
}
op_align:
	ALIGN();
	NEXT();
op_variant : {
	struct prog_variant *pv = &p->variants[op->aux];
	const struct ctf_value *tag;
	uint32_t option;
	int32_t simple;

	ALIGN();
	if (pv->tag_slot >= 0) {
		tag = &slots[pv->tag_slot];
	} else {
		c->pos = pos;
		tag = ctf_decode_lookup(c, &pv->vt->tag);
		if (!tag || tag->type->kind != CTF_TYPE_ENUM)
			goto give_up;
	}
	if (!pick_option(pv, tag, &option))
		goto give_up;
	slots[op->slot].u.variant.option = option;
	slots[op->slot].u.variant.value = &slots[pv->option_slot[option]];
	simple = pv->option_block ? pv->option_block[option] : -2;
	if (simple == -2) {
		op = p->ops + pv->option_op[option];
		goto *dispatch[op->kind];
	}
	if (simple >= 0) {
		const struct prog_op *bop = &p->ops[simple];

		if (!align_op(bop, &pos, limit) ||
		    run_block(p, &p->blocks[bop->aux], buf, pos, limit, slots, &clock))
			goto give_up;
		pos += p->blocks[bop->aux].bits;
	}
	op = p->ops + pv->end_op;
	goto *dispatch[op->kind];
}
op_jump:
	ALIGN();
	op = p->ops + op->aux;
	goto *dispatch[op->kind];
op_generic:
	/* the alignment a struct left pending is this op's; the field's own is the decoder's */
	ALIGN();
	c->pos = pos;
	c->clock = clock;
	if (ctf_decode_field(c, p->generic[op->aux], &slots[op->slot]))
		return -1;
	pos = c->pos;
	clock = c->clock;
	NEXT();
op_end:
	ALIGN();
	c->pos = pos;
	c->clock = clock;
	return 0;
give_up:
	c->pos = start;
	c->clock = start_clock;
	return 1;
#undef NEXT
#undef ALIGN
}

int ctf_decode_prog_run(struct ctf_decode_prog *p, struct ctf_decode_ctx *c)
{
	if (p->fixed) {
		int option;

		for (unsigned int i = 0; i < p->nroots; i++)
			c->roots[p->root_scope[i]] = &p->slots[p->root_slot[i]];
		if (ctf_prog_run_fixed(p, c, &option) == 0)
			return 0;
	}
	if (p->flat) {
		/* later scopes decoded the generic way may name these by path */
		for (unsigned int i = 0; i < p->nroots; i++)
			c->roots[p->root_scope[i]] = &p->slots[p->root_slot[i]];
		if (ctf_prog_run_flat(p, c) == 0)
			return 0;
	} else if (p->tagged && ctf_prog_run_tagged(p, c) >= 0) {
		return 0;
	}
	return run_ops(p, c);
}
