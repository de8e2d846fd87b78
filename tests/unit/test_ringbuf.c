/*
 * test_ringbuf.c - unit tests of src/ringbuf: reservation and commit, the
 * packet open/close hooks, the consumer side (get/put), flush, discard and
 * overwrite modes, short/long record lengths, and a multi-threaded run with
 * a concurrent consumer.
 *
 * The buffer does not look inside records: this test gives them its own
 * layout (struct rec) and its own packet header (struct hdr), and drives the
 * clock itself.
 *
 * Usage: test_ringbuf [RECORDS_PER_THREAD]   (default 200000)
 * Exits 0 when every check holds; prints the first failed check and exits 1
 * if not (tests/check.h, CHECK_STOP).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the threads wait on each other: a failed check ends the run */
#define CHECK_STOP
#include "check.h"
#include "ringbuf/ringbuf.h"

/* ---- fake clock ------------------------------------------------------ */

/*
 * Mode 0: returns fake_now, which the single-threaded tests set by hand.
 * Mode 1: a counter bumped on every read, jumping by JUMP every 1000 reads
 * (strictly increasing), so that concurrent records need both lengths.
 */
#define JUMP 300
static int clock_mode;
static uint64_t fake_now;
static uint64_t clock_reads;

static uint64_t fake_clock(void)
{
	if (clock_mode == 0) {
		__atomic_fetch_add(&clock_reads, 1, __ATOMIC_RELAXED);
		return __atomic_load_n(&fake_now, __ATOMIC_RELAXED);
	}
	/*
	 * Relaxed: like a hardware clock, reading it must not order anything
	 * between the threads (ThreadSanitizer would see a synchronization
	 * the real clock does not give).
	 */
	uint64_t v = __atomic_fetch_add(&fake_now, 1, __ATOMIC_RELAXED);

	return 1000000 + v + (v / 1000) * JUMP;
}

/* ---- packet header and hooks ------------------------------------------ */

/*
 * The open and close hooks of one sub-buffer may run in either order: the
 * producer that opens it can be preempted between its CAS and its open hook
 * while others fill the sub-buffer and close it. So (like the library's CTF
 * hooks) they write disjoint fields, and the consumer clears the close
 * fields (closed, ts_end, content) before it releases a sub-buffer, so that a
 * missing close in a later lap shows.
 */

#define HDR_MAGIC 0x7061636b65747321ull
struct hdr {
	uint64_t magic;
	uint64_t seq;
	uint64_t ts_begin;
	uint64_t ts_end;
	uint64_t content;
	uint64_t discarded;
	uint64_t closed;
};
#define H 64 /* header_size: struct hdr, rounded up */

/* What the hooks saw (single-threaded tests); counters (all tests). */
struct hook_event {
	int close;
	uint64_t off; /* sub-buffer address - rb->data */
	uint64_t ts, seq, content, discarded;
};
#define MAX_EVENTS 4096
static struct hook_event events[MAX_EVENTS];
static int nr_events;
static int log_hooks;
static uint64_t nr_opens, nr_closes;
/* If set, called (once) from the next open hook: a producer "preempted" there. */
static void (*open_extra)(struct ringbuf *rb);

static void hook_open(struct ringbuf *rb, void *subbuf, uint64_t ts, uint64_t seq)
{
	struct hdr *h = subbuf;

	h->magic = HDR_MAGIC;
	h->seq = seq;
	h->ts_begin = ts;
	__atomic_fetch_add(&nr_opens, 1, __ATOMIC_RELAXED);
	if (log_hooks && nr_events < MAX_EVENTS)
		events[nr_events++] =
		    (struct hook_event){0, (uint64_t)((char *)subbuf - rb->data), ts, seq, 0, 0};
	if (open_extra) {
		void (*f)(struct ringbuf *) = open_extra;

		open_extra = NULL;
		f(rb);
	}
}

static void hook_close(struct ringbuf *rb, void *subbuf, uint64_t ts_end, uint64_t content,
		       uint64_t discarded)
{
	struct hdr *h = subbuf;

	h->ts_end = ts_end;
	h->content = content;
	h->discarded = discarded;
	h->closed = 1;
	__atomic_fetch_add(&nr_closes, 1, __ATOMIC_RELAXED);
	if (log_hooks && nr_events < MAX_EVENTS)
		events[nr_events++] = (struct hook_event){
		    1, (uint64_t)((char *)subbuf - rb->data), ts_end, 0, content, discarded};
}

/* ---- records ------------------------------------------------------------ */

struct rec {
	uint32_t len;
	uint16_t tid;
	uint8_t ext;
	uint8_t pad;
	uint64_t seq;
	uint64_t ts;
}; /* 24 bytes, then len - 24 bytes of pattern */
#define REC_MIN ((uint32_t)sizeof(struct rec))

static uint8_t pattern(unsigned tid, uint64_t seq, uint32_t i)
{
	return (uint8_t)(seq * 7u + tid * 13u + i);
}

/* Reserves and fills a record (no commit); returns the reserve result. */
static int put_rec(struct ringbuf *rb, struct ringbuf_slot *s, unsigned tid, uint64_t seq,
		   size_t ls, size_t ll)
{
	int ret = ringbuf_reserve(rb, s, ls, ll);
	struct rec r;
	uint32_t i;

	if (ret)
		return ret;
	CHECK(s->len == (s->extended ? ll : ls));
	r.len = s->len;
	r.tid = (uint16_t)tid;
	r.ext = (uint8_t)s->extended;
	r.pad = 0;
	r.seq = seq;
	r.ts = s->ts;
	memcpy(s->ptr, &r, sizeof(r));
	for (i = REC_MIN; i < s->len; i++)
		((uint8_t *)s->ptr)[i] = pattern(tid, seq, i);
	return 0;
}

/* Reserves, fills and commits. */
static int emit(struct ringbuf *rb, unsigned tid, uint64_t seq, size_t ls, size_t ll,
		struct ringbuf_slot *out)
{
	struct ringbuf_slot s;
	int ret = put_rec(rb, &s, tid, seq, ls, ll);

	if (ret == 0) {
		ringbuf_commit(rb, s.pos, s.len);
		if (out)
			*out = s;
	}
	return ret;
}

/* A parsed record, as the consumer saw it. */
struct seen {
	unsigned tid;
	uint64_t seq, ts, pos;
	uint32_t len;
	int ext;
};

/* Consumer-side state across packets of one buffer. */
struct reader {
	uint64_t prev_ts_end; /* ts_end of the previous packet */
	uint64_t prev_rec_ts; /* timestamp of the previous record */
	uint64_t packets, records, ext_records;
	uint64_t prev_discarded;
	int have_prev;
	int strict; /* every record has its own clock read (multi-threaded test) */
	unsigned ts_bits;
	/* Where parsed records go (single-threaded tests), or NULL. */
	struct seen *out;
	size_t out_max, out_len;
	/* Called on each record (multi-threaded test), or NULL. */
	void (*on_rec)(const struct seen *);
};

/*
 * Checks one complete sub-buffer taken at pos: its header, and the records
 * tiling its content exactly, in timestamp order, with the right lengths.
 */
static void read_packet(struct ringbuf *rb, struct reader *rd, uint64_t pos, const void *sb)
{
	const struct hdr *h = sb;
	const uint64_t S = rb->cfg.subbuf_size;
	uint64_t off = H, prev = h->ts_begin;
	int first = 1;

	CHECK_EQ(pos & (S - 1), 0);
	CHECK_EQ(h->magic, HDR_MAGIC);
	CHECK_EQ(h->closed, 1);
	CHECK_EQ(h->seq, pos / S);
	CHECK(h->content > H); /* a packet is opened by a record */
	CHECK(h->content < S); /* a record never ends at the sub-buffer end */
	CHECK(h->ts_begin <= h->ts_end);
	if (rd->have_prev) {
		/* ts_end of a packet <= ts_begin of the next one */
		CHECK(rd->prev_ts_end <= h->ts_begin);
		CHECK(rd->prev_discarded <= h->discarded);
	}
	while (off < h->content) {
		struct rec r;
		struct seen s;
		uint32_t i;

		CHECK(h->content - off >= REC_MIN);
		memcpy(&r, (const char *)sb + off, sizeof(r));
		CHECK(r.len >= REC_MIN);
		CHECK(off + r.len <= h->content);
		for (i = REC_MIN; i < r.len; i++)
			CHECK_EQ(((const uint8_t *)sb)[off + i], pattern(r.tid, r.seq, i));
		if (first) {
			/* The packet header carries the first record's timestamp. */
			CHECK_EQ(r.ts, h->ts_begin);
			CHECK_EQ(r.ext, 0);
		} else {
			CHECK(r.ts >= prev);
			if (rd->strict)
				CHECK(r.ts > prev);
		}
		if (!r.ext) /* the short form can be decoded from the previous one */
			CHECK(r.ts - prev < ((uint64_t)1 << rd->ts_bits));
		CHECK(r.ts <= h->ts_end);
		if (rd->records)
			CHECK(rd->strict ? r.ts > rd->prev_rec_ts : r.ts >= rd->prev_rec_ts);
		s.tid = r.tid;
		s.seq = r.seq;
		s.ts = r.ts;
		s.pos = pos + off;
		s.len = r.len;
		s.ext = r.ext;
		if (rd->out) {
			CHECK(rd->out_len < rd->out_max);
			rd->out[rd->out_len++] = s;
		}
		if (rd->on_rec)
			rd->on_rec(&s);
		rd->records++;
		rd->ext_records += r.ext;
		rd->prev_rec_ts = r.ts;
		prev = r.ts;
		off += r.len;
		first = 0;
	}
	CHECK_EQ(off, h->content);
	rd->prev_ts_end = h->ts_end;
	rd->prev_discarded = h->discarded;
	rd->have_prev = 1;
	rd->packets++;
}

/* Clears the close fields and releases the sub-buffer. */
static void release(struct ringbuf *rb, uint64_t pos, void *sb)
{
	struct hdr *h = sb;

	h->closed = 0;
	h->ts_end = 0;
	h->content = 0;
	ringbuf_put_subbuf(rb, pos);
}

/* Takes, checks and releases every complete sub-buffer; returns how many. */
static unsigned drain(struct ringbuf *rb, struct reader *rd)
{
	unsigned n = 0;
	uint64_t pos;
	void *sb;

	while (ringbuf_get_subbuf(rb, &pos, &sb) == 0) {
		read_packet(rb, rd, pos, sb);
		release(rb, pos, sb);
		n++;
	}
	return n;
}

/* ---- buffers ---------------------------------------------------------- */

static struct ringbuf_config make_cfg(size_t S, unsigned N, enum ringbuf_mode mode,
				      unsigned ts_bits)
{
	struct ringbuf_config c;

	memset(&c, 0, sizeof(c));
	c.subbuf_size = S;
	c.num_subbuf = N;
	c.mode = mode;
	c.header_size = H;
	c.ts_bits = ts_bits;
	c.open = hook_open;
	c.close = hook_close;
	c.clock = fake_clock;
	return c;
}

static void *new_buf(struct ringbuf *rb, const struct ringbuf_config *c)
{
	size_t sz = ringbuf_shm_size(c);
	void *mem = aligned_alloc(4096, (sz + 4095) & ~(size_t)4095);

	CHECK(mem != NULL);
	memset(mem, 0, sz);
	CHECK_EQ(ringbuf_create(rb, mem, c), 0);
	return mem;
}

static uint64_t wpos(struct ringbuf *rb)
{
	return __atomic_load_n(&rb->shm->head.write_pos, __ATOMIC_ACQUIRE);
}

static uint64_t rpos(struct ringbuf *rb)
{
	return __atomic_load_n(&rb->shm->read_pos, __ATOMIC_ACQUIRE);
}

static void reset_hooks(void)
{
	nr_events = 0;
	log_hooks = 1;
	nr_opens = nr_closes = 0;
	clock_mode = 0;
	fake_now = 1000;
}

/* ---- single-threaded tests --------------------------------------------- */

static void test_config(void)
{
	struct ringbuf_config c = make_cfg(256, 2, RINGBUF_DISCARD, 8), bad;
	struct ringbuf rb, rb2;
	void *mem;

	check_part = "config";
	CHECK_EQ(ringbuf_config_check(&c), 0);
	bad = c;
	bad.subbuf_size = 128;
	CHECK_EQ(ringbuf_config_check(&bad), -EINVAL);
	bad = c;
	bad.subbuf_size = 384;
	CHECK_EQ(ringbuf_config_check(&bad), -EINVAL);
	bad = c;
	bad.num_subbuf = 1;
	CHECK_EQ(ringbuf_config_check(&bad), -EINVAL);
	bad = c;
	bad.num_subbuf = 3;
	CHECK_EQ(ringbuf_config_check(&bad), -EINVAL);
	bad = c;
	bad.header_size = 128;
	CHECK_EQ(ringbuf_config_check(&bad), -EINVAL);
	bad = c;
	bad.ts_bits = 0;
	CHECK_EQ(ringbuf_config_check(&bad), -EINVAL);
	bad = c;
	bad.ts_bits = 64;
	CHECK_EQ(ringbuf_config_check(&bad), -EINVAL);
	bad = c;
	bad.clock = NULL; /* the trace clock */
	CHECK_EQ(ringbuf_config_check(&bad), 0);
	bad = c;
	bad.close = NULL;
	CHECK_EQ(ringbuf_config_check(&bad), -EINVAL);
	CHECK(ringbuf_shm_size(&c) >= sizeof(struct ringbuf_shm) + 2 * 64 + 2 * 256);

	reset_hooks();
	mem = new_buf(&rb, &c);
	CHECK_EQ(emit(&rb, 0, 0, 40, 48, NULL), 0);
	/* A second handle on the same memory sees the same buffer. */
	CHECK_EQ(ringbuf_attach(&rb2, mem, &c), 0);
	CHECK_EQ(wpos(&rb2), H + 40);
	bad = c;
	bad.num_subbuf = 4;
	CHECK_EQ(ringbuf_attach(&rb2, mem, &bad), -EINVAL);
	bad = c;
	bad.mode = RINGBUF_OVERWRITE;
	CHECK_EQ(ringbuf_attach(&rb2, mem, &bad), -EINVAL);
	free(mem);
}

/* Records come out in order with their contents; hooks get the right values. */
static void test_order_and_hooks(void)
{
	struct ringbuf_config c = make_cfg(1024, 4, RINGBUF_DISCARD, 27);
	struct ringbuf rb;
	struct seen out[64];
	struct reader rd = {0};
	struct ringbuf_slot slots[40];
	void *mem;
	int i, k;

	check_part = "order_and_hooks";
	reset_hooks();
	mem = new_buf(&rb, &c);
	rd.ts_bits = 27;
	rd.out = out;
	rd.out_max = 64;
	for (i = 0; i < 40; i++) {
		size_t len = REC_MIN + (size_t)((i * 37) % 90);

		fake_now = 1000 + 10 * (uint64_t)i;
		CHECK_EQ(emit(&rb, 1, (uint64_t)i, len, len + 8, &slots[i]), 0);
		CHECK_EQ(slots[i].ts, fake_now);
		CHECK_EQ(slots[i].extended, 0);
		drain(&rb, &rd);
	}
	fake_now = 5000;
	ringbuf_flush(&rb);
	drain(&rb, &rd);
	CHECK_EQ(rd.out_len, 40);
	for (i = 0; i < 40; i++) {
		CHECK_EQ(out[i].seq, (uint64_t)i);
		CHECK_EQ(out[i].tid, 1);
		CHECK_EQ(out[i].pos, slots[i].pos);
		CHECK_EQ(out[i].len, REC_MIN + (uint32_t)((i * 37) % 90));
		CHECK_EQ(out[i].ts, 1000 + 10 * (uint64_t)i);
	}
	CHECK_EQ(rpos(&rb), wpos(&rb));
	/*
	 * Hooks: open 0, then (open k+1, close k) from the record that moves to
	 * the next sub-buffer (so close k gets open k+1's timestamp), then the
	 * flush's close.
	 */
	CHECK(rd.packets >= 3);
	CHECK_EQ(nr_events, 2 * rd.packets);
	CHECK_EQ(events[0].close, 0);
	CHECK_EQ(events[nr_events - 1].close, 1);
	CHECK_EQ(events[nr_events - 1].ts, 5000); /* closed by the flush */
	for (k = 0; k < (int)rd.packets; k++) {
		struct hook_event *o = &events[k == 0 ? 0 : 2 * k - 1];
		struct hook_event *cl =
		    &events[k == (int)rd.packets - 1 ? nr_events - 1 : 2 * k + 2];
		uint64_t sb = (uint64_t)k * 1024, end = 0;

		CHECK_EQ(o->close, 0);
		CHECK_EQ(o->seq, (uint64_t)k);
		CHECK_EQ(o->off, (uint64_t)(k % 4) * 1024);
		CHECK_EQ(cl->close, 1);
		CHECK_EQ(cl->off, o->off);
		CHECK_EQ(cl->discarded, 0);
		if (k + 1 < (int)rd.packets)
			CHECK_EQ(cl->ts, events[2 * k + 1].ts); /* = ts_begin of the next */
		/* The content ends where the packet's last record ends. */
		for (i = 0; i < 40; i++)
			if (slots[i].pos >= sb && slots[i].pos < sb + 1024)
				end = slots[i].pos + slots[i].len - sb;
		CHECK_EQ(cl->content, end);
	}
	free(mem);
}

/* A record never ends exactly at a sub-buffer end; -E2BIG for oversized ones. */
static void test_boundaries(void)
{
	struct ringbuf_config c = make_cfg(256, 4, RINGBUF_DISCARD, 27);
	struct ringbuf rb;
	struct ringbuf_slot s;
	struct reader rd = {0};
	struct seen out[32];
	void *mem;
	int i;

	check_part = "boundaries";
	reset_hooks();
	mem = new_buf(&rb, &c);
	rd.ts_bits = 27;
	rd.out = out;
	rd.out_max = 32;
	/* Sub-buffer 0: 64 + 3 x 48 = 208, then 47 bytes end at 255: fits. */
	for (i = 0; i < 3; i++) {
		CHECK_EQ(emit(&rb, 0, (uint64_t)i, 48, 48, &s), 0);
		CHECK_EQ(s.pos, H + 48 * (uint64_t)i);
	}
	CHECK_EQ(emit(&rb, 0, 3, 47, 47, &s), 0);
	CHECK_EQ(s.pos, 208);
	CHECK_EQ(wpos(&rb), 255);
	CHECK_EQ(nr_closes, 0);
	/* The smallest record cannot fit in 1 byte: next sub-buffer. */
	fake_now = 1100;
	CHECK_EQ(emit(&rb, 0, 4, REC_MIN, REC_MIN, &s), 0);
	CHECK_EQ(s.pos, 256 + H);
	CHECK_EQ(nr_closes, 1);
	CHECK_EQ(nr_events, 3);
	CHECK_EQ(events[1].close, 0); /* the next one is opened before this one is closed */
	CHECK_EQ(events[1].seq, 1);
	CHECK_EQ(events[2].close, 1);
	CHECK_EQ(events[2].content, 255);
	CHECK_EQ(events[2].ts, 1100);
	/* Sub-buffer 1: 88, 136, 184 -> 232 (+24 would end at 256: exactly the end). */
	for (i = 0; i < 3; i++)
		CHECK_EQ(emit(&rb, 0, 5 + (uint64_t)i, 48, 48, &s), 0);
	CHECK_EQ(wpos(&rb), 256 + 232);
	CHECK_EQ(emit(&rb, 0, 8, 24, 24, &s), 0);
	CHECK_EQ(s.pos, 512 + H);
	CHECK_EQ(events[nr_events - 1].close, 1);
	CHECK_EQ(events[nr_events - 1].content, 232);
	/* Too large: S - H bytes can never fit (it would end at the end); S + 1 neither. */
	{
		uint64_t w = wpos(&rb), closes = nr_closes;

		CHECK_EQ(ringbuf_reserve(&rb, &s, 256 - H, 256 - H), -E2BIG);
		CHECK_EQ(ringbuf_reserve(&rb, &s, 257, 257), -E2BIG);
		CHECK_EQ(ringbuf_reserve(&rb, &s, 24, 257), -E2BIG);
		CHECK_EQ(wpos(&rb), w);		     /* nothing reserved */
		CHECK_EQ(nr_closes, closes);	     /* the current packet stays open */
		CHECK_EQ(ringbuf_discarded(&rb), 0); /* and nothing counted */
	}
	/* The largest record, S - H - 1, fits in a fresh sub-buffer. */
	CHECK_EQ(emit(&rb, 0, 9, 256 - H - 1, 256 - H - 1, &s), 0);
	CHECK_EQ(s.pos, 768 + H);
	CHECK_EQ(wpos(&rb), 768 + 255);
	ringbuf_flush(&rb);
	CHECK_EQ(wpos(&rb), 1024);
	drain(&rb, &rd);
	CHECK_EQ(rd.out_len, 10);
	for (i = 0; i < 10; i++)
		CHECK_EQ(out[i].seq, (uint64_t)i);
	CHECK_EQ(rd.packets, 4);
	/* The caller counts what it gives up. */
	ringbuf_count_lost(&rb, 1);
	CHECK_EQ(ringbuf_discarded(&rb), 1);
	CHECK_EQ(rb.shm->too_large, 1);
	ringbuf_count_lost(&rb, 0);
	CHECK_EQ(ringbuf_discarded(&rb), 2);
	CHECK_EQ(rb.shm->too_large, 1);
	free(mem);
}

/* Short length while the delta is < 2^ts_bits, long one from 2^ts_bits on. */
static void test_short_long(void)
{
	struct ringbuf_config c = make_cfg(512, 2, RINGBUF_DISCARD, 8);
	struct ringbuf rb;
	struct ringbuf_slot s;
	struct reader rd = {0};
	struct seen out[32];
	void *mem;
	uint64_t seq = 0;

	check_part = "short_long";
	reset_hooks();
	mem = new_buf(&rb, &c);
	rd.ts_bits = 8;
	rd.out = out;
	rd.out_max = 32;
	fake_now = 1000;
	CHECK_EQ(emit(&rb, 0, seq++, 24, 40, &s), 0); /* opens: short */
	CHECK_EQ(s.extended, 0);
	CHECK_EQ(s.len, 24);
	fake_now += 255; /* 2^8 - 1: short */
	CHECK_EQ(emit(&rb, 0, seq++, 24, 40, &s), 0);
	CHECK_EQ(s.extended, 0);
	CHECK_EQ(s.len, 24);
	fake_now += 256; /* 2^8: long */
	CHECK_EQ(emit(&rb, 0, seq++, 24, 40, &s), 0);
	CHECK_EQ(s.extended, 1);
	CHECK_EQ(s.len, 40);
	CHECK_EQ(s.ts, fake_now);
	CHECK_EQ(emit(&rb, 0, seq++, 24, 40, &s), 0); /* same time: short */
	CHECK_EQ(s.extended, 0);
	fake_now += 1000000; /* far: long */
	CHECK_EQ(emit(&rb, 0, seq++, 24, 40, &s), 0);
	CHECK_EQ(s.extended, 1);
	fake_now += 1;
	CHECK_EQ(emit(&rb, 0, seq++, 24, 40, &s), 0);
	CHECK_EQ(s.extended, 0);
	/* A clock going back is clamped to the previous record's timestamp. */
	fake_now -= 500;
	CHECK_EQ(emit(&rb, 0, seq++, 24, 40, &s), 0);
	CHECK_EQ(s.ts, fake_now + 500);
	CHECK_EQ(s.extended, 0);
	fake_now += 500;
	CHECK_EQ(wpos(&rb), H + 24 * 5 + 40 * 2);
	/* Fill until a long record no longer fits (a short one still would). */
	while (wpos(&rb) + 40 < 512) {
		fake_now += 1;
		CHECK_EQ(emit(&rb, 0, seq++, 24, 40, &s), 0);
		CHECK_EQ(s.pos >> 9, 0);
	}
	/* A record needing the long form goes to the next packet, in the short form. */
	CHECK(wpos(&rb) + 24 < 512);
	CHECK(wpos(&rb) + 40 >= 512);
	fake_now += 100000;
	CHECK_EQ(emit(&rb, 0, seq++, 24, 40, &s), 0);
	CHECK_EQ(s.pos, 512 + H);
	CHECK_EQ(s.extended, 0);
	CHECK_EQ(s.len, 24);
	CHECK_EQ(events[nr_events - 1].close, 1);
	CHECK_EQ(events[nr_events - 1].ts, fake_now); /* ts_end = next ts_begin */
	CHECK_EQ(events[nr_events - 2].ts, fake_now);
	/* A jump of exactly 2^ts_bits - 1 after the packet's first record: short. */
	fake_now += 255;
	CHECK_EQ(emit(&rb, 0, seq++, 24, 40, &s), 0);
	CHECK_EQ(s.extended, 0);
	ringbuf_flush(&rb);
	drain(&rb, &rd);
	CHECK_EQ(rd.out_len, seq);
	CHECK_EQ(rd.ext_records, 2);
	CHECK_EQ(out[2].ext, 1);
	CHECK_EQ(out[4].ext, 1);
	free(mem);
}

/* Discard mode: full buffer drops (uncounted) until the consumer releases. */
static void test_discard(void)
{
	struct ringbuf_config c = make_cfg(256, 2, RINGBUF_DISCARD, 27);
	struct ringbuf rb;
	struct ringbuf_slot s, held;
	struct reader rd = {0};
	struct seen out[128];
	uint64_t pos, w;
	void *mem, *sb;
	int i;

	check_part = "discard";
	reset_hooks();
	mem = new_buf(&rb, &c);
	rd.ts_bits = 27;
	rd.out = out;
	rd.out_max = 128;
	CHECK_EQ(ringbuf_get_subbuf(&rb, &pos, &sb), -1); /* empty */
	/* 3 records of 48 per sub-buffer (64 + 4 x 48 = 256 would end at the end). */
	for (i = 0; i < 6; i++) {
		fake_now = 2000 + (uint64_t)i;
		CHECK_EQ(emit(&rb, 0, (uint64_t)i, 48, 48, &s), 0);
	}
	CHECK_EQ(wpos(&rb), 256 + 208);
	CHECK_EQ(nr_closes, 1);
	/* Full: sub-buffer 0 was not released. */
	fake_now = 3000;
	w = wpos(&rb);
	CHECK_EQ(ringbuf_reserve(&rb, &s, 48, 48), -ENOBUFS);
	CHECK_EQ(wpos(&rb), w);
	CHECK_EQ(nr_closes, 1);		     /* sub-buffer 1 stays open */
	CHECK_EQ(ringbuf_discarded(&rb), 0); /* counting is the caller's */
	ringbuf_count_lost(&rb, 0);
	ringbuf_count_lost(&rb, 0);
	CHECK_EQ(ringbuf_discarded(&rb), 2);
	CHECK_EQ(rb.shm->too_large, 0);
	/* The consumer sees sub-buffer 0 only (1 is not closed); get does not advance. */
	CHECK_EQ(ringbuf_get_subbuf(&rb, &pos, &sb), 0);
	CHECK_EQ(pos, 0);
	CHECK(sb == rb.data);
	CHECK_EQ(ringbuf_get_subbuf(&rb, &pos, &sb), 0);
	CHECK_EQ(pos, 0);
	CHECK_EQ(((struct hdr *)sb)->discarded, 0);
	read_packet(&rb, &rd, pos, sb);
	release(&rb, pos, sb);
	CHECK_EQ(rpos(&rb), 256);
	CHECK_EQ(ringbuf_get_subbuf(&rb, &pos, &sb), -1);
	/* Resumes: closes sub-buffer 1 (reporting the 2 lost) and opens 2. */
	fake_now = 3001;
	CHECK_EQ(emit(&rb, 0, 6, 48, 48, &s), 0);
	CHECK_EQ(s.pos, 512 + H);
	CHECK_EQ(events[nr_events - 1].close, 1);
	CHECK_EQ(events[nr_events - 1].discarded, 2);
	CHECK_EQ(events[nr_events - 1].content, 208);
	CHECK_EQ(events[nr_events - 2].seq, 2);
	CHECK_EQ(events[nr_events - 2].off, 0); /* index 0, second lap */
	CHECK_EQ(drain(&rb, &rd), 1);
	CHECK_EQ(rd.prev_discarded, 2);
	/* A record reserved but not committed holds its sub-buffer back. */
	CHECK_EQ(put_rec(&rb, &held, 0, 7, 48, 48), 0);
	CHECK_EQ(emit(&rb, 0, 8, 48, 48, &s), 0);
	ringbuf_flush(&rb);
	CHECK_EQ(wpos(&rb), 768);
	CHECK(!ringbuf_subbuf_complete(&rb, 512));
	CHECK_EQ(ringbuf_get_subbuf(&rb, &pos, &sb), -1);
	ringbuf_commit(&rb, held.pos, held.len);
	CHECK(ringbuf_subbuf_complete(&rb, 512));
	CHECK_EQ(drain(&rb, &rd), 1);
	/* Many more laps with a consumer that keeps up: nothing lost. */
	for (i = 9; i < 100; i++) {
		fake_now = 4000 + (uint64_t)i;
		CHECK_EQ(emit(&rb, 0, (uint64_t)i, 48, 48, NULL), 0);
		drain(&rb, &rd);
	}
	ringbuf_flush(&rb);
	drain(&rb, &rd);
	CHECK_EQ(rd.out_len, 100);
	for (i = 0; i < 100; i++)
		CHECK_EQ(out[i].seq, (uint64_t)i);
	CHECK_EQ(rpos(&rb), wpos(&rb));
	CHECK_EQ(ringbuf_discarded(&rb), 2);
	free(mem);
}

/* Overwrite mode: the newest N-1 complete sub-buffers are kept. */
static void test_overwrite(void)
{
	struct ringbuf_config c = make_cfg(256, 4, RINGBUF_OVERWRITE, 27);
	struct ringbuf rb;
	struct ringbuf_slot s, held;
	struct reader rd = {0};
	struct seen out[64];
	uint64_t pos, w, r;
	void *mem, *sb;
	int i;

	check_part = "overwrite";
	reset_hooks();
	mem = new_buf(&rb, &c);
	rd.ts_bits = 27;
	rd.out = out;
	rd.out_max = 64;
	/* 3 records of 48 per sub-buffer: record k is in sub-buffer k / 3. */
	for (i = 0; i < 100; i++) {
		fake_now = 1000 + (uint64_t)i;
		CHECK_EQ(emit(&rb, 0, (uint64_t)i, 48, 48, &s), 0);
		CHECK_EQ(s.pos, (uint64_t)(i / 3) * 256 + H + (uint64_t)(i % 3) * 48);
		/* read_pos follows: never more than N-1 sub-buffers behind the open one */
		if (i / 3 >= 4)
			CHECK_EQ(rpos(&rb), (uint64_t)(i / 3 - 3) * 256);
		else
			CHECK_EQ(rpos(&rb), 0);
	}
	CHECK_EQ(ringbuf_discarded(&rb), 0);
	/* Record 99 opened sub-buffer 33: 30, 31, 32 are complete and readable. */
	CHECK_EQ(wpos(&rb), 33 * 256 + H + 48);
	CHECK_EQ(rpos(&rb), 30 * 256);
	CHECK_EQ(ringbuf_get_subbuf(&rb, &pos, &sb), 0);
	CHECK_EQ(pos, 30 * 256);
	/* Not released yet, and the producer moves on: it pushes read_pos. */
	fake_now = 1100;
	CHECK_EQ(emit(&rb, 0, 100, 48, 48, NULL), 0);
	CHECK_EQ(emit(&rb, 0, 101, 48, 48, NULL), 0);
	CHECK_EQ(emit(&rb, 0, 102, 48, 48, NULL), 0); /* opens 34 */
	CHECK_EQ(rpos(&rb), 31 * 256);
	ringbuf_put_subbuf(&rb, pos); /* a stale release changes nothing */
	CHECK_EQ(rpos(&rb), 31 * 256);
	/* The consumer reads what is kept: 31, 32, 33 (complete), 34 only after a flush. */
	CHECK_EQ(drain(&rb, &rd), 3);
	CHECK_EQ(ringbuf_get_subbuf(&rb, &pos, &sb), -1);
	fake_now = 1200;
	ringbuf_flush(&rb);
	CHECK_EQ(drain(&rb, &rd), 1);
	CHECK_EQ(rd.out_len, 102 - 93 + 1);
	for (i = 0; i < (int)rd.out_len; i++)
		CHECK_EQ(out[i].seq, 93 + (uint64_t)i); /* contiguous, ends with the newest */
	CHECK_EQ(rpos(&rb), wpos(&rb));

	/* Without a consumer: after a flush, N-1 full sub-buffers + the flushed one. */
	for (i = 103; i < 200; i++)
		CHECK_EQ(emit(&rb, 0, (uint64_t)i, 48, 48, NULL), 0);
	/* Record k >= 103 is in sub-buffer 35 + (k - 103) / 3: 199 opened 67. */
	ringbuf_flush(&rb);
	w = wpos(&rb);
	r = rpos(&rb);
	CHECK_EQ(w, 68 * 256);
	CHECK_EQ(r, 64 * 256);
	rd.out_len = 0;
	CHECK_EQ(drain(&rb, &rd), 4);
	CHECK_EQ(rd.out_len, 3 * 3 + 1);
	for (i = 0; i < (int)rd.out_len; i++)
		CHECK_EQ(out[i].seq, 190 + (uint64_t)i);

	/* A late writer holds its sub-buffer: the producer cannot lap it. */
	CHECK_EQ(put_rec(&rb, &held, 0, 200, 48, 48), 0); /* opens 68 (index 0) */
	CHECK_EQ(held.pos, 68 * 256 + H);
	for (i = 201; i < 212; i++) /* 69, 70, 71 filled; 212 would open 72 = index 0 */
		CHECK_EQ(emit(&rb, 0, (uint64_t)i, 48, 48, NULL), 0);
	CHECK_EQ(wpos(&rb), 71 * 256 + 208);
	r = rpos(&rb);
	CHECK_EQ(ringbuf_reserve(&rb, &s, 48, 48), -ENOBUFS);
	CHECK_EQ(wpos(&rb), 71 * 256 + 208);
	CHECK_EQ(rpos(&rb), r);
	CHECK_EQ(ringbuf_discarded(&rb), 0);
	ringbuf_commit(&rb, held.pos, held.len);
	CHECK_EQ(emit(&rb, 0, 212, 48, 48, &s), 0);
	CHECK_EQ(s.pos, 72 * 256 + H);
	CHECK_EQ(rpos(&rb), 69 * 256);
	free(mem);
}

/* Flush closes a partial sub-buffer and does nothing on an empty one. */
static void test_flush(void)
{
	struct ringbuf_config c = make_cfg(256, 2, RINGBUF_DISCARD, 27);
	struct ringbuf rb;
	struct ringbuf_slot s;
	struct reader rd = {0};
	struct seen out[8];
	void *mem, *sb;
	uint64_t pos;

	check_part = "flush";
	reset_hooks();
	mem = new_buf(&rb, &c);
	rd.ts_bits = 27;
	rd.out = out;
	rd.out_max = 8;
	ringbuf_flush(&rb); /* empty buffer */
	CHECK_EQ(wpos(&rb), 0);
	CHECK_EQ(nr_opens + nr_closes, 0);
	CHECK_EQ(ringbuf_get_subbuf(&rb, &pos, &sb), -1);
	fake_now = 100;
	CHECK_EQ(emit(&rb, 0, 0, 30, 30, &s), 0);
	CHECK_EQ(ringbuf_get_subbuf(&rb, &pos, &sb), -1); /* open packet */
	fake_now = 500;
	ringbuf_flush(&rb);
	CHECK_EQ(wpos(&rb), 256);
	CHECK_EQ(nr_closes, 1);
	CHECK_EQ(events[1].close, 1);
	CHECK_EQ(events[1].content, H + 30);
	CHECK_EQ(events[1].ts, 500);
	ringbuf_flush(&rb); /* already closed: nothing */
	ringbuf_flush(&rb);
	CHECK_EQ(wpos(&rb), 256);
	CHECK_EQ(nr_closes, 1);
	CHECK_EQ(nr_opens, 1);
	CHECK_EQ(drain(&rb, &rd), 1);
	CHECK_EQ(rd.out_len, 1);
	CHECK_EQ(rd.prev_ts_end, 500);
	fake_now = 600;
	CHECK_EQ(emit(&rb, 0, 1, 30, 30, &s), 0);
	CHECK_EQ(s.pos, 256 + H);
	CHECK_EQ(events[2].seq, 1);
	CHECK_EQ(events[2].ts, 600);
	ringbuf_flush(&rb);
	CHECK_EQ(drain(&rb, &rd), 1);
	CHECK_EQ(rd.out_len, 2);
	CHECK_EQ(rpos(&rb), 512);
	free(mem);
}

/*
 * The discarded count in the packets of a buffer never decreases, even when
 * the producer that closes a packet is preempted (between its CAS and its
 * close hook) while another one fills the next packet, closes it and loses
 * records. The preemption is simulated: producer B runs inside producer A's
 * open hook. babeltrace2 turns a decreasing count into a warning of
 * ~1.8e19 discarded events.
 */
static struct reader *preempt_rd;
static void producer_b(struct ringbuf *rb)
{
	struct ringbuf_slot s;
	uint64_t pos;
	void *sb;

	/* A has reserved the first record of sub-buffer 3; B adds 2 more. */
	CHECK_EQ(emit(rb, 1, 0, 48, 48, NULL), 0);
	CHECK_EQ(emit(rb, 1, 1, 48, 48, NULL), 0);
	CHECK_EQ(ringbuf_reserve(rb, &s, 48, 48), -ENOBUFS); /* 4 needs 0 released */
	ringbuf_count_lost(rb, 0);
	CHECK_EQ(ringbuf_get_subbuf(rb, &pos, &sb), 0);
	CHECK_EQ(pos, 0);
	read_packet(rb, preempt_rd, pos, sb);
	release(rb, pos, sb);
	CHECK_EQ(emit(rb, 1, 3, 48, 48, NULL), 0); /* opens 4, closes 3 */
	CHECK_EQ(events[nr_events - 1].close, 1);
	CHECK_EQ(events[nr_events - 1].off, 3 * 256);
	CHECK_EQ(events[nr_events - 1].discarded, 1);
	CHECK_EQ(emit(rb, 1, 4, 48, 48, NULL), 0);
	CHECK_EQ(emit(rb, 1, 5, 48, 48, NULL), 0);
	CHECK_EQ(ringbuf_reserve(rb, &s, 48, 48), -ENOBUFS); /* 5 needs 1 released */
	ringbuf_count_lost(rb, 0);
}

static void test_discarded_monotonic(void)
{
	struct ringbuf_config c = make_cfg(256, 4, RINGBUF_DISCARD, 27);
	struct ringbuf rb;
	struct reader rd = {0};
	void *mem;
	int i;

	check_part = "discarded_monotonic";
	reset_hooks();
	mem = new_buf(&rb, &c);
	rd.ts_bits = 27;
	preempt_rd = &rd;
	for (i = 0; i < 9; i++) /* sub-buffers 0, 1, 2: 3 records each */
		CHECK_EQ(emit(&rb, 0, (uint64_t)i, 48, 48, NULL), 0);
	open_extra = producer_b;
	CHECK_EQ(emit(&rb, 0, 9, 48, 48, NULL), 0); /* A: opens 3 (B runs), closes 2 */
	CHECK(open_extra == NULL);
	CHECK_EQ(ringbuf_discarded(&rb), 2);
	/* Packets 1, 2, 3 are complete: their counts must not go down. */
	CHECK_EQ(drain(&rb, &rd), 3);
	free(mem);
}

/* ---- multi-threaded test ------------------------------------------------- */

#define NTHREADS 4
static uint64_t per_thread = 200000;

struct mt {
	struct ringbuf rb;
	int lossy; /* producers give up on -ENOBUFS (count it) instead of retrying */
	int done;  /* producers finished */
	uint64_t lost[NTHREADS];
	uint64_t next[NTHREADS]; /* consumer: next sequence expected */
	int seen[NTHREADS];
	int overwrite;
	uint64_t found;
	struct reader rd;
};
static struct mt *cur_mt;

static size_t mt_len(uint64_t seq)
{
	return REC_MIN + 8 * (size_t)(seq % 4);
}

struct producer_arg {
	struct mt *mt;
	unsigned tid;
};

static void *producer(void *p)
{
	struct producer_arg *a = p;
	struct mt *mt = a->mt;
	uint64_t seq;

	for (seq = 0; seq < per_thread; seq++) {
		size_t ls = mt_len(seq);
		int ret;

		while ((ret = emit(&mt->rb, a->tid, seq, ls, ls + 16, NULL)) == -ENOBUFS &&
		       !mt->lossy)
			sched_yield();
		if (ret == -ENOBUFS) {
			ringbuf_count_lost(&mt->rb, 0);
			mt->lost[a->tid]++;
			continue;
		}
		CHECK_EQ(ret, 0);
	}
	return NULL;
}

static void mt_on_rec(const struct seen *s)
{
	struct mt *mt = cur_mt;

	CHECK(s->tid < NTHREADS);
	CHECK_EQ(s->len, s->ext ? mt_len(s->seq) + 16 : mt_len(s->seq));
	if (mt->lossy)
		CHECK(s->seq >= mt->next[s->tid]); /* in order, gaps allowed */
	else if (mt->overwrite && !mt->seen[s->tid])
		; /* the oldest records were overwritten */
	else
		CHECK_EQ(s->seq, mt->next[s->tid]); /* exactly once, in order */
	mt->next[s->tid] = s->seq + 1;
	mt->seen[s->tid] = 1;
	mt->found++;
}

static void *consumer(void *p)
{
	struct mt *mt = p;
	unsigned idle = 0;
	struct timespec slow = {0, 200000};

	for (;;) {
		unsigned n;

		if (mt->lossy) {
			/* A slow consumer: one packet, then a pause. */
			uint64_t pos;
			void *sb;

			n = 0;
			if (ringbuf_get_subbuf(&mt->rb, &pos, &sb) == 0) {
				read_packet(&mt->rb, &mt->rd, pos, sb);
				release(&mt->rb, pos, sb);
				n = 1;
				nanosleep(&slow, NULL);
			}
		} else {
			n = drain(&mt->rb, &mt->rd);
		}
		if (n) {
			idle = 0;
			continue;
		}
		if (__atomic_load_n(&mt->done, __ATOMIC_ACQUIRE)) {
			ringbuf_flush(&mt->rb);
			drain(&mt->rb, &mt->rd);
			/* Every sub-buffer was complete: nothing is left behind. */
			CHECK_EQ(rpos(&mt->rb), wpos(&mt->rb));
			return NULL;
		}
		/* While producers run, flush now and then (what a periodic consumer does). */
		if (++idle % 16 == 0)
			ringbuf_flush(&mt->rb);
		sched_yield();
	}
}

static void check_all_complete(struct ringbuf *rb)
{
	uint64_t S = rb->cfg.subbuf_size, N = rb->cfg.num_subbuf, w = wpos(rb);
	uint64_t k;

	CHECK_EQ(w & (S - 1), 0);
	for (k = 1; k <= N && k * S <= w; k++)
		CHECK(ringbuf_subbuf_complete(rb, w - k * S));
}

static void run_mt(int lossy, enum ringbuf_mode mode)
{
	struct ringbuf_config c = make_cfg(1024, 4, mode, 8);
	struct producer_arg args[NTHREADS];
	pthread_t prod[NTHREADS], cons;
	struct mt *mt = calloc(1, sizeof(*mt));
	uint64_t total_lost = 0;
	void *mem;
	unsigned t;

	CHECK(mt != NULL);
	reset_hooks();
	log_hooks = 0;
	clock_mode = 1;
	fake_now = 0;
	mem = new_buf(&mt->rb, &c);
	mt->lossy = lossy;
	mt->overwrite = mode == RINGBUF_OVERWRITE;
	mt->rd.ts_bits = 8;
	mt->rd.strict = 1;
	mt->rd.on_rec = mt_on_rec;
	cur_mt = mt;
	if (mode == RINGBUF_DISCARD)
		CHECK_EQ(pthread_create(&cons, NULL, consumer, mt), 0);
	for (t = 0; t < NTHREADS; t++) {
		args[t].mt = mt;
		args[t].tid = t;
		CHECK_EQ(pthread_create(&prod[t], NULL, producer, &args[t]), 0);
	}
	for (t = 0; t < NTHREADS; t++)
		CHECK_EQ(pthread_join(prod[t], NULL), 0);
	__atomic_store_n(&mt->done, 1, __ATOMIC_RELEASE);
	if (mode == RINGBUF_DISCARD) {
		CHECK_EQ(pthread_join(cons, NULL), 0);
	} else {
		/* Flight recorder: read what is kept once the producers are done. */
		uint64_t pos, w;

		ringbuf_flush(&mt->rb);
		w = wpos(&mt->rb);
		CHECK_EQ(rpos(&mt->rb), w - 4 * 1024); /* N sub-buffers kept */
		for (pos = rpos(&mt->rb); pos < w; pos += 1024) {
			void *sb;
			uint64_t p;

			CHECK_EQ(ringbuf_get_subbuf(&mt->rb, &p, &sb), 0);
			CHECK_EQ(p, pos);
			read_packet(&mt->rb, &mt->rd, p, sb);
			ringbuf_put_subbuf(&mt->rb, p);
		}
		CHECK_EQ(rpos(&mt->rb), w);
	}
	check_all_complete(&mt->rb);
	CHECK_EQ(nr_opens, nr_closes);
	CHECK_EQ(nr_closes, wpos(&mt->rb) / 1024);
	for (t = 0; t < NTHREADS; t++)
		total_lost += mt->lost[t];
	CHECK_EQ(ringbuf_discarded(&mt->rb), total_lost);
	if (mode == RINGBUF_OVERWRITE) {
		/* What is kept is the newest: per thread, a suffix of its sequence. */
		CHECK(mt->found > 0);
		for (t = 0; t < NTHREADS; t++)
			if (mt->next[t])
				CHECK_EQ(mt->next[t], per_thread);
		CHECK_EQ(mt->rd.packets, 4);
	} else if (lossy) {
		CHECK_EQ(mt->found + total_lost, NTHREADS * per_thread);
		CHECK(total_lost > 0); /* the consumer sleeps after every packet */
		CHECK_EQ(mt->rd.prev_discarded,
			 total_lost); /* last packet: closed after all losses */
		CHECK_EQ(mt->rd.packets, nr_closes);
	} else {
		CHECK_EQ(total_lost, 0);
		CHECK_EQ(mt->found, NTHREADS * per_thread);
		for (t = 0; t < NTHREADS; t++)
			CHECK_EQ(mt->next[t], per_thread);
		CHECK_EQ(mt->rd.packets, nr_closes);
		CHECK_EQ(mt->rd.prev_discarded, 0);
	}
	/* With a jump every 1000 clock reads, both record lengths occur. */
	if (mode == RINGBUF_DISCARD && !lossy) {
		CHECK(mt->rd.ext_records > 0);
		CHECK(mt->rd.ext_records < mt->found);
	}
	printf("  %s%s: %" PRIu64 " records read, %" PRIu64 " lost, %" PRIu64 " packets, %" PRIu64
	       " long\n",
	       mode == RINGBUF_DISCARD ? "discard" : "overwrite", lossy ? " (lossy)" : "",
	       mt->found, total_lost, mt->rd.packets, mt->rd.ext_records);
	free(mem);
	free(mt);
}

static void test_threads(void)
{
	check_part = "threads/discard";
	run_mt(0, RINGBUF_DISCARD);
	check_part = "threads/discard-lossy";
	run_mt(1, RINGBUF_DISCARD);
	check_part = "threads/overwrite";
	run_mt(0, RINGBUF_OVERWRITE);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		per_thread = strtoull(argv[1], NULL, 10);
	CHECK(per_thread > 0);
	test_config();
	test_order_and_hooks();
	test_boundaries();
	test_short_long();
	test_discard();
	test_overwrite();
	test_flush();
	test_discarded_monotonic();
	test_threads();
	if (!failures)
		printf("test_ringbuf: all checks passed\n");
	return CHECK_RESULT();
}
