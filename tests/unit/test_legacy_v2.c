/*
 * test_legacy_v2.c - the compact format reader (src/legacy/lv2.c) on
 * traces built here byte by byte from docs/legacy-formats.md, format 2:
 * 2.1 and 2.3, both byte orders, packed and aligned, every event header
 * escape (31, 30, 30 with the 0xFFFF size, 29 with the full TSC), 27-bit
 * TSC wraps, marker ids and formats in both orders, the 2.3 lost-event
 * counters, blocks out of order; and the errors, each one line.
 *
 * Times: start_time 1000 s + 500 us, start_freq 2 GHz, scale 1, so
 * ns = 1000000500000 + floor((tsc - start_tsc) / 2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "legacy/legacy.h"

#define BUF 512
#define T0  1000000500000LL

/* --- a trace builder --------------------------------------------------- */

struct tb {
	uint8_t d[BUF * 8];
	size_t at, blk; /* write position, current block's start */
	bool be;
	unsigned align, minor;
	uint64_t start_tsc;
};

static void put(struct tb *b, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		b->d[b->at + i] = (uint8_t)(b->be ? v >> 8 * (n - 1 - i) : v >> 8 * i);
	b->at += n;
}

static void put_at(struct tb *b, size_t at, uint64_t v, unsigned n)
{
	size_t save = b->at;

	b->at = at;
	put(b, v, n);
	b->at = save;
}

static void str(struct tb *b, const char *s)
{
	memcpy(b->d + b->at, s, strlen(s) + 1);
	b->at += strlen(s) + 1;
}

static void align(struct tb *b, unsigned a)
{
	unsigned m = b->align < a ? b->align : a;

	while (m > 1 && (b->at - b->blk) % m)
		b->d[b->at++] = 0xAA; /* padding is never read */
}

static void tb_init(struct tb *b, bool be, unsigned align_, unsigned minor)
{
	memset(b, 0, sizeof(*b));
	b->be = be;
	b->align = align_;
	b->minor = minor;
}

static void block(struct tb *b, uint64_t begin, uint64_t end, uint32_t lost, uint32_t corrupt)
{
	b->blk = b->at;
	put(b, begin, 8);
	put(b, end, 8);
	put(b, 0x00D6B7ED, 4);
	put(b, 2, 1);
	put(b, b->minor, 1);
	put(b, 8, 1);	       /* arch_size */
	put(b, b->align, 1);   /* alignment */
	put(b, 1000, 8);       /* start_time_sec */
	put(b, 500, 8);	       /* start_time_usec */
	put(b, 2000000000, 8); /* start_freq, Hz */
	put(b, 1, 4);	       /* freq_scale */
	put(b, 0, 4);	       /* lost_size: set by block_end */
	put(b, BUF, 4);	       /* buf_size */
	if (b->minor >= 3) {
		put(b, lost, 4);
		put(b, corrupt, 4);
	}
}

static void block_end(struct tb *b)
{
	uint32_t used = (uint32_t)(b->at - b->blk);

	put_at(b, b->blk + 52, BUF - used, 4);
	memset(b->d + b->at, 0, BUF - used);
	b->at = b->blk + BUF;
}

/* An event header: compact (id < 29), 31, 30 (size; 0xFFFF: u32), 29 (+ full tsc). */
static void ev_hdr(struct tb *b, unsigned esc, uint16_t id, uint32_t tsc27, uint32_t size,
		   uint64_t full)
{
	align(b, 4);
	if (esc < 29) {
		put(b, (uint32_t)esc << 27 | tsc27, 4);
		return;
	}
	put(b, (uint32_t)esc << 27 | tsc27, 4);
	put(b, id, 2);
	if (esc == 31)
		return;
	put(b, size >= 0xFFFF ? 0xFFFF : size, 2);
	if (size >= 0xFFFF)
		put(b, size, 4);
	if (esc == 29) {
		align(b, 8);
		put(b, full, 8);
	}
}

static void set_id(struct tb *b, const char *channel, const char *name, uint16_t id, unsigned al)
{
	ev_hdr(b, 0, 0, 1, 0, 0);
	if (b->minor >= 3)
		str(b, channel);
	str(b, name);
	align(b, 2);
	put(b, id, 2);
	put(b, 4, 1); /* int */
	put(b, 8, 1); /* long */
	put(b, 8, 1); /* pointer */
	put(b, 8, 1); /* size_t */
	put(b, al, 1);
}

static void set_format(struct tb *b, const char *channel, const char *name, const char *fmt)
{
	ev_hdr(b, 1, 0, 2, 0, 0);
	if (b->minor >= 3)
		str(b, channel);
	str(b, name);
	str(b, fmt);
}

static char dir[256];

static void write_file(const char *rel, const void *d, size_t n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (strchr(rel, '/')) {
		char sub[512];

		snprintf(sub, sizeof(sub), "%s/control", dir);
		mkdir(sub, 0755);
	}
	f = fopen(path, "wb");
	CHECK(f != NULL, "%s", path);
	if (f) {
		fwrite(d, 1, n, f);
		fclose(f);
	}
}

static void new_dir(void)
{
	static int n;

	snprintf(dir, sizeof(dir), "/tmp/trax-test-lv2-%d-%d", (int)getpid(), n++);
	mkdir(dir, 0755);
}

static void rm_dir(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

/* The file of channel/cpu in t, or -1. */
static long file_of(struct ltt_trace *t, const char *channel, int cpu)
{
	for (size_t i = 0; i < ltt_trace_file_count(t); i++) {
		const struct ltt_file_info *f = ltt_trace_file(t, i);

		if (strcmp(f->channel, channel) == 0 && f->cpu == cpu)
			return (long)i;
	}
	return -1;
}

static uint64_t rd(const uint8_t *p, unsigned n, bool be)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << 8 * (be ? n - 1 - i : i);
	return v;
}

/* --- 2.3: escapes, wraps, alignment, lost counters ------------------------ */

/*
 * metadata: "cpu" markers m_int (id 2, "a %d b %s"), m_long (id 40, "v %lu",
 * reached through escape 31), m_big (id 300, "s %s"); cpu_0 two blocks.
 */
static void test_23(bool be, unsigned al)
{
	struct tb m, c;
	char err[512];
	struct ltt_trace *t;
	struct ltt_cursor *cu;
	struct ltt_event ev;
	long fi;
	int st;

	check_part = be ? (al ? "2.3 BE aligned" : "2.3 BE packed")
			: (al ? "2.3 LE aligned" : "2.3 LE packed");
	new_dir();
	tb_init(&m, be, al, 3);
	block(&m, 1000, 2000, 0, 0);
	/* format before id for m_int, after for the others */
	set_format(&m, "cpu", "m_int", "a %d b %s");
	set_id(&m, "cpu", "m_int", 2, al);
	set_id(&m, "cpu", "m_long", 40, al);
	set_format(&m, "cpu", "m_long", "v %lu");
	set_id(&m, "cpu", "m_big", 300, al);
	set_format(&m, "cpu", "m_big", "s %s");
	block_end(&m);
	write_file("metadata_0", m.d, m.at);

	tb_init(&c, be, al, 3);
	/* block 1 of the file is the older one: read first */
	block(&c, 0x30000000, 0x40000000, 7, 1);
	/* compact id 2 at 27 bits 0x10: wraps past the block's begin bits (0) -> no wrap:
	 * 0x30000010 */
	ev_hdr(&c, 2, 0, 0x10, 0, 0);
	align(&c, 4);
	put(&c, (uint32_t)-5, 4);
	str(&c, "x");
	block_end(&c);
	block(&c, 1000, 0x20000000, 2, 0);
	/* id 2: tsc 1000 -> 27 bits 0x500 > 1000 & mask: 0x500 */
	ev_hdr(&c, 2, 0, 0x500, 0, 0);
	align(&c, 4);
	put(&c, 42, 4);
	str(&c, "hello");
	/* escape 31 (id 40): a smaller 27-bit value: wraps to 2^27 + 0x100 */
	ev_hdr(&c, 31, 40, 0x100, 0, 0);
	align(&c, 8);
	put(&c, 0x1122334455667788ULL, 8);
	/* escape 30 with its size (8) */
	ev_hdr(&c, 30, 40, 0x200, 8, 0);
	align(&c, 8);
	put(&c, 9, 8);
	/* escape 29: full tsc */
	ev_hdr(&c, 29, 2, 0x7, 4 + 3, 0x1FFFFFFF);
	align(&c, 4);
	put(&c, 1, 4);
	str(&c, "ab");
	/* compact after the full tsc: 27 bits 0x8 < 0x7FFFFFF (low bits of 0x1FFFFFFF): wrap */
	ev_hdr(&c, 2, 0, 0x8, 0, 0);
	align(&c, 4);
	put(&c, 3, 4);
	str(&c, "");
	block_end(&c);
	write_file("cpu_0", c.d, c.at);

	t = ltt_trace_open(dir, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	if (!t) {
		rm_dir();
		return;
	}
	CHECK_EQ(ltt_trace_info(t)->format, LTT_FORMAT_COMPACT);
	CHECK_EQ(ltt_trace_info(t)->minor, 3);
	CHECK_EQ(ltt_trace_info(t)->big_endian, be);
	CHECK_EQ(ltt_trace_info(t)->alignment, al);
	CHECK_EQ(ltt_trace_info(t)->start_tsc, 1000);
	CHECK(ltt_trace_warning(t, 0) == NULL, "%s", ltt_trace_warning(t, 0));
	fi = file_of(t, "cpu", 0);
	CHECK(fi >= 0);
	cu = ltt_cursor_open(t, (size_t)fi);
	CHECK(cu != NULL);

	/* block at file position 1 (begin 1000) first */
	st = ltt_cursor_next(cu, &ev);
	CHECK_EQ(st, 1);
	CHECK(st == 1 && strcmp(ev.cls->name, "m_int") == 0);
	CHECK(st == 1 && strcmp(ev.cls->channel, "cpu") == 0);
	CHECK_EQ(ev.cls->event_id, 2);
	CHECK_EQ(ev.tsc, 0x500);
	CHECK_EQ(ev.ns, T0 + (0x500 - 1000) / 2);
	CHECK_EQ(ev.len, 4 + 6);
	CHECK_EQ(rd(ev.payload, 4, be), 42);
	CHECK(memcmp(ev.payload + 4, "hello", 6) == 0);
	CHECK_EQ(ev.lost_before, 2);
	CHECK_EQ(ev.offset, BUF + 68);

	st = ltt_cursor_next(cu, &ev);
	CHECK_EQ(st, 1);
	CHECK(st == 1 && strcmp(ev.cls->name, "m_long") == 0);
	CHECK_EQ(ev.tsc, (1ULL << 27) + 0x100);
	CHECK_EQ(ev.ns, T0 + ((1LL << 27) + 0x100 - 1000) / 2);
	CHECK_EQ(ev.len, 8);
	CHECK(rd(ev.payload, 8, be) == 0x1122334455667788ULL);
	CHECK_EQ(ev.lost_before, 0);

	st = ltt_cursor_next(cu, &ev);
	CHECK_EQ(st, 1);
	CHECK_EQ(ev.cls->event_id, 40);
	CHECK_EQ(ev.tsc, (1ULL << 27) + 0x200);
	CHECK_EQ(rd(ev.payload, 8, be), 9);

	st = ltt_cursor_next(cu, &ev);
	CHECK_EQ(st, 1);
	CHECK_EQ(ev.cls->event_id, 2);
	CHECK_EQ(ev.tsc, 0x1FFFFFFF);
	CHECK_EQ(ev.ns, T0 + (0x1FFFFFFF - 1000) / 2);
	CHECK(memcmp(ev.payload + 4, "ab", 3) == 0);

	st = ltt_cursor_next(cu, &ev);
	CHECK_EQ(st, 1);
	CHECK_EQ(ev.tsc, 0x20000008);
	CHECK_EQ(ev.len, 5);

	/* the older file block 0 (begin 0x30000000): 5 more events lost */
	st = ltt_cursor_next(cu, &ev);
	CHECK_EQ(st, 1);
	CHECK_EQ(ev.tsc, 0x30000010);
	CHECK_EQ((int32_t)rd(ev.payload, 4, be), -5);
	CHECK_EQ(ev.lost_before, 5);
	CHECK_EQ(ev.offset, 68);
	CHECK(strstr(ltt_cursor_warning(cu), "1 sub-buffer(s) lost") != NULL);
	CHECK_EQ(ltt_cursor_next(cu, &ev), 0);
	ltt_cursor_close(cu);
	ltt_trace_close(t);

	rm_dir();
	check_part = NULL;
}

/* --- 2.1: one id space, control/, formats first, flight- ----------------- */

static void test_21(bool be, unsigned al)
{
	struct tb m, c, irq;
	char err[512];
	struct ltt_trace *t;
	struct ltt_cursor *cu;
	struct ltt_event ev;
	long fi;

	check_part = be ? "2.1 BE" : "2.1 LE";
	new_dir();
	tb_init(&m, be, al, 1);
	block(&m, 100, 200, 0, 0);
	set_format(&m, NULL, "irq_entry", "irq %u kernel #1u%u");
	set_format(&m, NULL, "big_one", "p %p");
	set_id(&m, NULL, "irq_entry", 5, al);
	set_id(&m, NULL, "big_one", 6, al);
	block_end(&m);
	write_file("control/metadata_0", m.d, m.at);

	tb_init(&irq, be, al, 1);
	block(&irq, 100, 300, 0, 0);
	ev_hdr(&irq, 5, 0, 150, 0, 0);
	align(&irq, 4);
	put(&irq, 17, 4);
	put(&irq, 1, 1);
	block_end(&irq);
	write_file("control/flight-interrupts_1", irq.d, irq.at);

	tb_init(&c, be, al, 1);
	block(&c, 100, 300, 0, 0);
	/* escape 30 with the 0xFFFF size and a u32 size of 8 */
	ev_hdr(&c, 30, 6, 160, 0xFFFF + 0, 0);
	c.at -= 4;
	put(&c, 8, 4);
	align(&c, 8);
	put(&c, 0xdeadbeefcafeULL, 8);
	block_end(&c);
	write_file("cpu_0", c.d, c.at);

	t = ltt_trace_open(dir, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	if (!t) {
		rm_dir();
		return;
	}
	CHECK_EQ(ltt_trace_info(t)->minor, 1);
	CHECK_EQ(ltt_trace_info(t)->flight_recorder, 1);
	CHECK_EQ(ltt_trace_info(t)->start_tsc, 100);
	fi = file_of(t, "control/interrupts", 1);
	CHECK(fi >= 0, "no control/interrupts_1");
	if (fi >= 0) {
		cu = ltt_cursor_open(t, (size_t)fi);
		CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
		CHECK(strcmp(ev.cls->name, "irq_entry") == 0);
		CHECK(strcmp(ev.cls->channel, "control/interrupts") == 0);
		CHECK_EQ(ev.tsc, 150);
		CHECK_EQ(ev.ns, T0 + 25);
		CHECK_EQ(ev.len, 5);
		CHECK_EQ(rd(ev.payload, 4, be), 17);
		CHECK_EQ(ev.payload[4], 1);
		CHECK_EQ(ltt_cursor_next(cu, &ev), 0);
		ltt_cursor_close(cu);
	}
	fi = file_of(t, "cpu", 0);
	CHECK(fi >= 0);
	if (fi >= 0) {
		cu = ltt_cursor_open(t, (size_t)fi);
		CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
		CHECK(strcmp(ev.cls->name, "big_one") == 0);
		CHECK(strcmp(ev.cls->channel, "cpu") == 0);
		CHECK_EQ(ev.len, 8);
		CHECK(rd(ev.payload, 8, be) == 0xdeadbeefcafeULL);
		CHECK_EQ(ev.tsc, 160);
		CHECK_EQ(ltt_cursor_next(cu, &ev), 0);
		ltt_cursor_close(cu);
	}
	/* the metadata events are events too */
	fi = file_of(t, "control/metadata", 0);
	CHECK(fi >= 0);
	if (fi >= 0) {
		cu = ltt_cursor_open(t, (size_t)fi);
		CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
		CHECK(strcmp(ev.cls->name, "core_marker_format") == 0);
		CHECK(memcmp(ev.payload, "irq_entry", 10) == 0);
		ltt_cursor_close(cu);
	}
	ltt_trace_close(t);
	rm_dir();
	check_part = NULL;
}

/* --- errors -------------------------------------------------------------- */

/* A 2.3 LE aligned trace with marker m (id 2, "a %d") and cpu_0 as built by fn. */
static struct ltt_trace *err_trace(void (*fn)(struct tb *), const char *fmt2, char *err,
				   size_t errlen)
{
	struct tb m, c;

	new_dir();
	tb_init(&m, false, 4, 3);
	block(&m, 0, 10, 0, 0);
	set_id(&m, "cpu", "m", 2, 4);
	set_format(&m, "cpu", "m", "a %d");
	if (fmt2)
		set_format(&m, "cpu", "m", fmt2);
	block_end(&m);
	write_file("metadata_0", m.d, m.at);
	tb_init(&c, false, 4, 3);
	fn(&c);
	write_file("cpu_0", c.d, c.at);
	return ltt_trace_open(dir, err, errlen);
}

static void one_good(struct tb *c)
{
	ev_hdr(c, 2, 0, 5, 0, 0);
	put(c, 1, 4);
}

static void e_unknown(struct tb *c)
{
	block(c, 0, 10, 0, 0);
	one_good(c);
	ev_hdr(c, 9, 0, 6, 0, 0); /* id 9: no marker, no size */
	put(c, 1, 4);
	block_end(c);
}

static void e_unknown_sized(struct tb *c)
{
	block(c, 0, 10, 0, 0);
	ev_hdr(c, 30, 77, 6, 4, 0); /* id 77 with its size: skipped */
	put(c, 1, 4);
	one_good(c);
	block_end(c);
}

static void e_size_differs(struct tb *c)
{
	block(c, 0, 10, 0, 0);
	ev_hdr(c, 30, 2, 6, 6, 0); /* says 6, the format makes 4 */
	put(c, 1, 4);
	put(c, 0, 2);
	one_good(c);
	block_end(c);
}

static void e_overrun(struct tb *c)
{
	block(c, 0, 10, 0, 0);
	one_good(c);
	ev_hdr(c, 2, 0, 7, 0, 0);
	put(c, 1, 2); /* 2 of the 4 bytes before the block's end */
	block_end(c);
}

static void e_partial(struct tb *c)
{
	block(c, 0, 10, 0, 0);
	one_good(c);
	block_end(c);
	c->at += 100; /* 100 bytes of a second block */
}

static void e_unclosed(struct tb *c)
{
	block(c, 0, 10, 0, 0);
	one_good(c);
	block_end(c);
	put_at(c, 52, 0xFFFFFFFF, 4); /* never closed: the zeros after are id 0 */
}

static void test_errors(void)
{
	char err[512];
	struct ltt_trace *t;
	struct ltt_cursor *cu;
	struct ltt_event ev;
	const char *e;

	check_part = "errors";
	/* unknown id without a size: the event before, then one line */
	t = err_trace(e_unknown, NULL, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	if (t) {
		cu = ltt_cursor_open(t, (size_t)file_of(t, "cpu", 0));
		CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
		CHECK_EQ(ltt_cursor_next(cu, &ev), -1);
		e = ltt_cursor_error(cu);
		CHECK(strstr(e, "/cpu_0: offset 76: event id 9 has no marker description") != NULL,
		      "%s", e);
		CHECK(!strchr(e, '\n'));
		ltt_cursor_close(cu);
		ltt_trace_close(t);
	}
	rm_dir();

	t = err_trace(e_unknown_sized, NULL, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	if (t) {
		cu = ltt_cursor_open(t, (size_t)file_of(t, "cpu", 0));
		CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
		CHECK_EQ(ev.offset, 80);
		e = ltt_cursor_warning(cu);
		CHECK(
		    strstr(e,
			   "offset 68: event id 77 has no marker description: skipped (4 bytes)") !=
			NULL,
		    "%s", e);
		CHECK_EQ(ltt_cursor_next(cu, &ev), 0);
		ltt_cursor_close(cu);
		ltt_trace_close(t);
	}
	rm_dir();

	t = err_trace(e_size_differs, NULL, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	if (t) {
		cu = ltt_cursor_open(t, (size_t)file_of(t, "cpu", 0));
		CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
		CHECK_EQ(ev.offset, 84);
		e = ltt_cursor_warning(cu);
		CHECK(strstr(e, "offset 68: m: the header's size 6 differs from the format's 4") !=
			  NULL,
		      "%s", e);
		ltt_cursor_close(cu);
		ltt_trace_close(t);
	}
	rm_dir();

	t = err_trace(e_overrun, NULL, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	if (t) {
		char path[300];

		cu = ltt_cursor_open(t, (size_t)file_of(t, "cpu", 0));
		CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
		CHECK_EQ(ltt_cursor_next(cu, &ev), -1);
		e = ltt_cursor_error(cu);
		snprintf(path, sizeof(path), "%s/cpu_0: offset 76: m:", dir);
		CHECK(strncmp(e, path, strlen(path)) == 0, "%s", e);
		ltt_cursor_close(cu);
		ltt_trace_close(t);
	}
	rm_dir();

	t = err_trace(e_partial, NULL, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	if (t) {
		cu = ltt_cursor_open(t, (size_t)file_of(t, "cpu", 0));
		CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
		CHECK_EQ(ltt_cursor_next(cu, &ev), -1);
		e = ltt_cursor_error(cu);
		CHECK(strstr(e, "cpu_0: offset 512: partial block 1 (100 of 512 bytes)") != NULL,
		      "%s", e);
		ltt_cursor_close(cu);
		ltt_trace_close(t);
	}
	rm_dir();

	t = err_trace(e_unclosed, NULL, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	if (t) {
		cu = ltt_cursor_open(t, (size_t)file_of(t, "cpu", 0));
		CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
		CHECK_EQ(ltt_cursor_next(cu, &ev), 0);
		e = ltt_cursor_warning(cu);
		CHECK(strstr(e,
			     "cpu_0: offset 0: block 0 was never closed: its events from offset 76 "
			     "on are lost (a zero event header)") != NULL,
		      "%s", e);
		ltt_cursor_close(cu);
		ltt_trace_close(t);
	}
	rm_dir();

	/* an unclosed metadata block: its markers, then one warning for its zeros */
	{
		struct tb m, c;

		new_dir();
		tb_init(&m, false, 4, 3);
		block(&m, 0, 10, 0, 0);
		set_id(&m, "cpu", "m", 2, 4);
		set_format(&m, "cpu", "m", "a %d");
		block_end(&m);
		put_at(&m, 52, 0xFFFFFFFF, 4);
		write_file("metadata_0", m.d, m.at);
		tb_init(&c, false, 4, 3);
		e_partial(&c);
		write_file("cpu_0", c.d, c.at);
		t = ltt_trace_open(dir, err, sizeof(err));
		CHECK(t != NULL, "%s", err);
		if (t) {
			e = ltt_trace_warning(t, 0);
			CHECK(
			    e && strstr(e,
					"metadata_0: offset 0: block 0 was never closed: its "
					"events from offset 104 on are lost (a zero event header)"),
			    "%s", e ? e : "(none)");
			CHECK(ltt_trace_warning(t, 1) == NULL, "%s", ltt_trace_warning(t, 1));
			cu = ltt_cursor_open(t, (size_t)file_of(t, "cpu", 0));
			CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
			CHECK(strcmp(ev.cls->name, "m") == 0);
			ltt_cursor_close(cu);
			ltt_trace_close(t);
		}
		rm_dir();
	}

	/* two formats for one marker */
	t = err_trace(e_partial, "a %u", err, sizeof(err));
	CHECK(t == NULL);
	CHECK(strstr(err, "metadata_0: offset ") &&
		  strstr(err, ": marker format mismatch for cpu.m: \"a %d\" then \"a %u\""),
	      "%s", err);
	ltt_trace_close(t);
	rm_dir();

	/* version 2.2 and the marker era 2.0 */
	{
		struct tb m;

		new_dir();
		tb_init(&m, false, 0, 2);
		block(&m, 0, 10, 0, 0);
		block_end(&m);
		write_file("metadata_0", m.d, m.at);
		t = ltt_trace_open(dir, err, sizeof(err));
		CHECK(t == NULL);
		CHECK(strstr(err, "metadata_0: offset 21: trace version 2.2 not supported") != NULL,
		      "%s", err);
		rm_dir();

		new_dir();
		memset(m.d, 0, BUF);
		m.at = 40;
		m.be = false;
		put(&m, 0x00D6B7ED, 4);
		m.at = 56;
		put(&m, 4, 1);
		put(&m, 2, 1);
		put(&m, 0, 1);
		write_file("metadata_0", m.d, BUF);
		t = ltt_trace_open(dir, err, sizeof(err));
		CHECK(t == NULL);
		CHECK(
		    strstr(err, "metadata_0: trace version 2.0 (LTTng marker era) not supported") !=
			NULL,
		    "%s", err);
		rm_dir();
	}
	check_part = NULL;
}

/* --- names with control characters: every message stays one line ------- */

/*
 * metadata: marker name1 id 2 ("a %d", then fmt2 unless NULL), then name2
 * with id2 (NULL: none)
 */
static struct ltt_trace *nl_trace(const char *name1, const char *fmt2, const char *name2,
				  uint16_t id2, void (*fn)(struct tb *), char *err, size_t errlen)
{
	struct tb m, c;

	new_dir();
	tb_init(&m, false, 4, 3);
	block(&m, 0, 10, 0, 0);
	set_id(&m, "cpu", name1, 2, 4);
	set_format(&m, "cpu", name1, "a %d");
	if (fmt2)
		set_format(&m, "cpu", name1, fmt2);
	if (name2)
		set_id(&m, "cpu", name2, id2, 4);
	block_end(&m);
	write_file("metadata_0", m.d, m.at);
	tb_init(&c, false, 4, 3);
	fn(&c);
	write_file("cpu_0", c.d, c.at);
	return ltt_trace_open(dir, err, errlen);
}

static void test_newlines(void)
{
	char err[512];
	struct ltt_trace *t;
	struct ltt_cursor *cu;
	struct ltt_event ev;
	const char *e;

	check_part = "newlines";
	/* two names for id 2, the second with a newline: a trace warning */
	t = nl_trace("m", NULL, "a\nb", 2, e_partial, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	e = t ? ltt_trace_warning(t, 0) : NULL;
	CHECK(e && strstr(e, "marker id 2 of channel cpu is m and a?b") && !strchr(e, '\n'), "%s",
	      e ? e : "(none)");
	ltt_trace_close(t);
	rm_dir();

	/* two formats for a marker with a newline in its name: the open error */
	t = nl_trace("m\n", "a %u", NULL, 0, e_partial, err, sizeof(err));
	CHECK(t == NULL);
	CHECK(strstr(err, ": marker format mismatch for cpu.m?: \"a %d\" then \"a %u\"") != NULL,
	      "%s", err);
	CHECK(!strchr(err, '\n'), "%s", err);
	ltt_trace_close(t);
	rm_dir();

	/* a marker named "x\ny\r": the cursor's warning and error name it */
	t = nl_trace("x\ny\r", NULL, NULL, 0, e_size_differs, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	if (t) {
		cu = ltt_cursor_open(t, (size_t)file_of(t, "cpu", 0));
		CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
		e = ltt_cursor_warning(cu);
		CHECK(
		    strstr(e, "offset 68: x?y?: the header's size 6 differs from the format's 4") !=
			NULL,
		    "%s", e);
		CHECK(!strchr(e, '\n') && !strchr(e, '\r'), "%s", e);
		ltt_cursor_close(cu);
		ltt_trace_close(t);
	}
	rm_dir();

	t = nl_trace("x\ny", NULL, NULL, 0, e_overrun, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	if (t) {
		cu = ltt_cursor_open(t, (size_t)file_of(t, "cpu", 0));
		CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
		CHECK_EQ(ltt_cursor_next(cu, &ev), -1);
		e = ltt_cursor_error(cu);
		CHECK(strstr(e, "cpu_0: offset 76: x?y:") != NULL, "%s", e);
		CHECK(!strchr(e, '\n'), "%s", e);
		ltt_cursor_close(cu);
		ltt_trace_close(t);
	}
	rm_dir();
	check_part = NULL;
}

/* --- 2.3 channels: same marker name in two channels, control/ groups ------ */

static void test_channels(void)
{
	struct tb m, c, irq;
	char err[512];
	struct ltt_trace *t;
	struct ltt_cursor *cu;
	struct ltt_event ev;
	long fi;
	const char *w;

	check_part = "2.3 channels";
	new_dir();
	tb_init(&m, false, 4, 3);
	block(&m, 0, 100, 0, 0);
	set_id(&m, "cpu", "ev", 7, 4);
	set_format(&m, "cpu", "ev", "v %u");
	set_id(&m, "interrupts", "ev", 7, 4); /* the same name and id, another channel */
	set_format(&m, "interrupts", "ev", "w %hu");
	/* a set_marker_id cut short (offset 156): a warning, the markers before stay */
	ev_hdr(&m, 0, 0, 3, 0, 0);
	str(&m, "cpu");
	str(&m, "cut");
	block_end(&m);
	write_file("metadata_0", m.d, m.at);

	tb_init(&c, false, 4, 3);
	block(&c, 0, 100, 10, 0);
	ev_hdr(&c, 7, 0, 20, 0, 0);
	put(&c, 0xAABBCCDD, 4);
	block_end(&c);
	/* a counter that went down (a restart): no loss */
	block(&c, 200, 300, 4, 0);
	ev_hdr(&c, 7, 0, 250, 0, 0);
	put(&c, 1, 4);
	block_end(&c);
	block(&c, 400, 500, 9, 0);
	ev_hdr(&c, 7, 0, 450, 0, 0);
	put(&c, 2, 4);
	block_end(&c);
	write_file("cpu_0", c.d, c.at);

	tb_init(&irq, false, 4, 3);
	block(&irq, 0, 100, 0, 0);
	ev_hdr(&irq, 7, 0, 30, 0, 0);
	put(&irq, 0x1234, 2);
	block_end(&irq);
	write_file("control/interrupts_0", irq.d, irq.at);

	t = ltt_trace_open(dir, err, sizeof(err));
	CHECK(t != NULL, "%s", err);
	if (!t) {
		rm_dir();
		return;
	}
	w = ltt_trace_warning(t, 0);
	CHECK(
	    w && strstr(w, "/metadata_0: offset 156: core_marker_id: field event_id at offset 8") &&
		strstr(w, "(the markers described after it are unknown)") != NULL,
	    "%s", w ? w : "(none)");
	CHECK(ltt_trace_warning(t, 1) == NULL);
	fi = file_of(t, "cpu", 0);
	cu = ltt_cursor_open(t, (size_t)fi);
	CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
	CHECK(strcmp(ev.cls->channel, "cpu") == 0 && ev.len == 4);
	CHECK_EQ(ev.lost_before, 10);
	CHECK_EQ(rd(ev.payload, 4, false), 0xAABBCCDD);
	CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
	CHECK_EQ(ev.lost_before, 0); /* 10 -> 4: restarted */
	CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
	CHECK_EQ(ev.lost_before, 5); /* 4 -> 9 */
	CHECK_EQ(ltt_cursor_next(cu, &ev), 0);
	ltt_cursor_close(cu);
	fi = file_of(t, "control/interrupts", 0);
	CHECK(fi >= 0);
	cu = ltt_cursor_open(t, (size_t)fi);
	CHECK_EQ(ltt_cursor_next(cu, &ev), 1);
	CHECK(strcmp(ev.cls->name, "ev") == 0 && strcmp(ev.cls->channel, "interrupts") == 0);
	CHECK_EQ(ev.len, 2);
	CHECK_EQ(rd(ev.payload, 2, false), 0x1234);
	CHECK_EQ(ev.ns, T0 + (30 - 0) / 2);
	ltt_cursor_close(cu);
	ltt_trace_close(t);
	rm_dir();
	check_part = NULL;
}

int main(void)
{
	for (int be = 0; be < 2; be++) {
		test_23(be, 8);
		test_23(be, 0);
		test_23(be, 4);
		test_21(be, 0);
		test_21(be, 8);
	}
	test_channels();
	test_errors();
	test_newlines();
	return CHECK_RESULT();
}
