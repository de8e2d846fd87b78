/*
 * lv0-walk.c - the walk of an LTTV tracefile's events (docs/legacy-formats.md
 * 1.2.2, 1.3, 1.7, 1.8): blocks in begin-TSC order, the event header and
 * its alignment, the 32-bit TSC extension, the bounds of each block, and
 * the blocks a flight recorder left unclosed.
 */
#include <stdio.h>

#include "legacy/lv0-impl.h"

static int enter_block(struct ltt_cursor *c)
{
	const struct lv0_file *lf = c->f->priv;
	const struct ltrace_block *b = &c->f->blocks[c->block];
	struct lv0_cursor *lc = c->priv;

	lc->unclosed = b->lost_size == LV0_LOST_UNCLOSED || b->end_tsc < b->begin_tsc;
	c->pos = b->offset + lf->hdr_size;
	if (lc->unclosed) {
		c->end = b->offset + lf->block_size;
	} else if (b->lost_size > lf->block_size - lf->hdr_size) {
		return ltrace_cursor_fail(c, b->offset,
					  "block %u: lost_size %u leaves less than its %u bytes "
					  "of headers",
					  b->number, b->lost_size, lf->hdr_size);
	} else {
		c->end = b->offset + lf->block_size - b->lost_size;
	}
	c->tsc = b->begin_tsc;
	c->in_block = true;
	lc->warned_tsc = false;
	return 0;
}

void lv0_walk_abandon_block(struct ltt_cursor *c, const struct lv0_raw *r, const char *why)
{
	const struct ltrace_block *b = &c->f->blocks[c->block];

	ltrace_cursor_warn(c, b->offset,
			   "block %u was never closed (flight recorder): from offset %llu on, its "
			   "last %llu bytes are lost (%s)",
			   b->number, (unsigned long long)r->offset,
			   (unsigned long long)(c->end - r->offset), why);
	c->in_block = false;
	c->block++;
}

int lv0_walk_next(struct ltt_cursor *c, struct lv0_raw *r)
{
	const struct lv0_file *lf = c->f->priv;
	struct lv0_cursor *lc = c->priv;
	unsigned hs = lf->has_heartbeat ? 8 : 12;
	const struct ltrace_block *b;
	const uint8_t *h;
	uint64_t pos, pay;

	for (;;) {
		if (c->failed)
			return -1;
		if (!c->in_block) {
			if (c->block >= c->f->nblocks)
				return 0;
			if (enter_block(c) < 0)
				return -1;
		}
		b = &c->f->blocks[c->block];
		pos = c->pos + ltt_pad(c->pos - b->offset, lf->alignment);
		if (pos >= c->end) {
			c->in_block = false;
			c->block++;
			continue;
		}
		r->offset = pos;
		if (c->end - pos < hs) {
			if (lc->unclosed) {
				lv0_walk_abandon_block(c, r, "a partial event header");
				continue;
			}
			return ltrace_cursor_fail(c, pos,
						  "block %u: %llu bytes before the block's end are "
						  "less than an event header",
						  b->number, (unsigned long long)(c->end - pos));
		}
		break;
	}
	h = c->f->data + pos;
	if (lf->has_heartbeat) {
		r->tsc = ltrace_tsc_extend(c->tsc, ltrace_u32(h, lf->big_endian), 32);
		h += 4;
	} else {
		r->tsc = ltrace_u64(h, lf->big_endian);
		h += 8;
	}
	r->facility = h[0];
	r->event = h[1];
	r->size = ltrace_u16(h + 2, lf->big_endian);
	pay = pos + hs;
	pay += ltt_pad(pay - b->offset, lf->alignment);
	if (pay > c->end || (r->size != 0xFFFF && r->size > c->end - pay)) {
		if (lc->unclosed) {
			lv0_walk_abandon_block(c, r, "an event overruns it");
			return lv0_walk_next(c, r);
		}
		return ltrace_cursor_fail(c, pos,
					  "block %u: event size %u overruns its block (events end "
					  "at offset %llu)",
					  b->number, r->size, (unsigned long long)c->end);
	}
	r->payload_off = pay;
	r->avail = c->end - pay;
	r->base = (uint32_t)(pay - b->offset);
	if (!lc->unclosed && !lc->warned_tsc && r->tsc > b->end_tsc) {
		lc->warned_tsc = true;
		ltrace_cursor_warn(c, pos,
				   "block %u: TSC %llu is past the block's end TSC %llu (a missed "
				   "32-bit wrap?)",
				   b->number, (unsigned long long)r->tsc,
				   (unsigned long long)b->end_tsc);
	}
	c->tsc = r->tsc;
	c->pos = pay;
	return 1;
}

void lv0_walk_skip(struct ltt_cursor *c, const struct lv0_raw *r, uint64_t len)
{
	c->pos = r->payload_off + len;
}
