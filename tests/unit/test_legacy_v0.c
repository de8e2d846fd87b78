/*
 * test_legacy_v0.c - the LTTV format reader (src/legacy/lv0*.c, ltrace.c)
 * on traces built here from docs/legacy-formats.md section 1: versions 0.4
 * (magic at 56 and 72) and 0.7, both byte orders, packed and aligned,
 * heartbeat (32-bit) and full TSCs, a 32-bit wrap between events, a
 * flight-recorder file with blocks out of order and one never closed, and
 * each error case. Expected times are computed by hand (the comments).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "legacy/lconvert.h"
#include "legacy/legacy.h"
#include "legacy/ltrace-impl.h"

/* ---- the builder: one tracefile in memory ---- */

#define BSIZE 512

struct tb {
	uint8_t buf[BSIZE * 8];
	size_t len;
	bool be, hb;
	uint8_t minor;	     /* 4 or 7 */
	unsigned magic_off;  /* 0.4: 56 or 72; 0.7: 40 */
	unsigned align;	     /* has_alignment: 0, 4, 8 */
	unsigned align_flag; /* written instead of align when set (seed 000's flag: 1) */
	uint8_t arch_size;
	uint8_t flight;
	uint32_t freq_scale;
	size_t blk; /* the current block's start */
};

/* the trace parameters every test trace has (ns = BASE + (tsc - 1000) / 3, floored) */
#define START_TSC  1000
#define START_KHZ  3000000
#define START_SEC  1100000000
#define START_USEC 250000

static void put(struct tb *b, size_t off, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned shift = 8 * (b->be ? n - 1 - i : i);
		b->buf[off + i] = (uint8_t)(v >> shift);
	}
}

static void tb_init(struct tb *b, uint8_t minor, bool be, bool hb, unsigned align)
{
	memset(b, 0, sizeof(*b));
	b->minor = minor;
	b->magic_off = minor == 7 ? 40 : 56;
	b->be = be;
	b->hb = hb;
	b->align = align;
	b->arch_size = 8;
	b->freq_scale = 1;
}

static size_t hdr_size(const struct tb *b)
{
	return b->magic_off + (b->minor == 7 ? 66 : 55);
}

/* Starts a block: both headers (the end fields come with tb_end). */
static void tb_block(struct tb *b, uint64_t begin_tsc)
{
	size_t o = b->blk = b->len, m = o + b->magic_off;

	memset(b->buf + o, 0, BSIZE);
	if (b->magic_off == 40) {
		put(b, o + 0, begin_tsc, 8);
		put(b, o + 8, START_KHZ, 8);
		put(b, o + 36, BSIZE, 4);
	} else if (b->magic_off == 56) {
		put(b, o + 0, 1234, 4); /* begin.seconds, microseconds: not read */
		put(b, o + 8, begin_tsc, 8);
		put(b, o + 16, START_KHZ, 8);
		put(b, o + 52, BSIZE, 4);
	} else { /* 72: 16-byte timevals */
		put(b, o + 16, begin_tsc, 8);
		put(b, o + 24, START_KHZ, 8);
		put(b, o + 68, BSIZE, 4);
	}
	put(b, m, 0x00D6B7ED, 4);
	put(b, m + 4, 8, 4); /* arch_type x86_64 */
	put(b, m + 16, b->arch_size, 1);
	put(b, m + 17, 0, 1);
	put(b, m + 18, b->minor, 1);
	put(b, m + 19, b->flight, 1);
	put(b, m + 20, b->hb, 1);
	put(b, m + 21, b->align_flag ? b->align_flag : b->align, 1);
	if (b->minor == 7) {
		put(b, m + 22, b->freq_scale, 4);
		put(b, m + 26, START_KHZ, 8);
		put(b, m + 34, START_TSC, 8);
		put(b, m + 50, START_SEC, 8);
		put(b, m + 58, START_USEC, 8);
	} else {
		put(b, m + 22, 1, 1); /* has_tsc */
		put(b, m + 23, START_KHZ, 8);
		put(b, m + 31, START_TSC, 8);
		put(b, m + 47, START_SEC, 4);
		put(b, m + 51, START_USEC, 4);
	}
	b->len = o + hdr_size(b);
}

static void tb_pad(struct tb *b)
{
	if (b->align)
		while ((b->len - b->blk) % b->align)
			b->buf[b->len++] = 0xEE; /* padding: never read */
}

/* An event; size is the header's event_size (normally len). */
static void tb_event_sized(struct tb *b, uint64_t tsc, uint8_t fac, uint8_t ev, const void *p,
			   size_t len, unsigned size)
{
	tb_pad(b);
	if (b->hb) {
		put(b, b->len, tsc & 0xFFFFFFFF, 4);
		b->len += 4;
	} else {
		put(b, b->len, tsc, 8);
		b->len += 8;
	}
	put(b, b->len, fac, 1);
	put(b, b->len + 1, ev, 1);
	put(b, b->len + 2, size, 2);
	b->len += 4;
	tb_pad(b);
	if (len)
		memcpy(b->buf + b->len, p, len);
	b->len += len;
}

static void tb_event(struct tb *b, uint64_t tsc, uint8_t fac, uint8_t ev, const void *p, size_t len)
{
	tb_event_sized(b, tsc, fac, ev, p, len, (unsigned)len);
}

/* Closes the block: end TSC and lost_size (0xFFFFFFFF: never closed). */
static void tb_end(struct tb *b, uint64_t end_tsc, bool closed)
{
	size_t o = b->blk;
	uint64_t lost = closed ? BSIZE - (b->len - o) : 0xFFFFFFFF;
	unsigned end_off = b->magic_off == 40 ? 16 : b->magic_off == 56 ? 32 : 48;
	unsigned lost_off = b->magic_off == 40 ? 32 : b->magic_off == 56 ? 48 : 64;

	put(b, o + end_off, end_tsc, 8);
	put(b, o + lost_off, lost, 4);
	b->len = o + BSIZE;
}

/* A facility_load payload (1.4), padded to 4 after the name when aligned. */
static size_t load_payload(const struct tb *tr, uint8_t *out, const char *name, uint32_t id,
			   uint32_t long_size)
{
	struct tb b = *tr; /* for put's byte order */
	size_t n = strlen(name) + 1, pos;
	uint32_t v[7] = {0xC0FFEE, id, 4, long_size, long_size, long_size, tr->align};
	unsigned nv = 7, first = 0;

	if (tr->minor == 4) { /* no int_size */
		v[2] = long_size;
		v[5] = tr->align;
		nv = 6;
	}
	memcpy(out, name, n);
	pos = n;
	if (tr->align)
		pos = (pos + 3) & ~(size_t)3;
	for (unsigned i = first; i < nv; i++) {
		memset(b.buf, 0, 4);
		put(&b, 0, v[i], 4);
		memcpy(out + pos + 4 * i, b.buf, 4);
	}
	return pos + 4 * nv;
}

/* ---- files ---- */

static const char test_xml[] =
    "<facility name=\"test\">\n"
    "  <description>a test facility</description>\n"
    "  <event name=\"small\">\n"
    "    <description>an int and a string</description>\n"
    "    <field name=\"a\"><uint size=\"4\"/></field>\n"
    "    <field name=\"s\"><string/></field>\n"
    "  </event>\n"
    "  <event name=\"big\"><field name=\"v\"><uint size=\"8\"/></field></event>\n"
    "  <event name=\"ptr\"><field name=\"p\"><pointer/></field>"
    "<field name=\"l\"><long/></field></event>\n"
    "  <event name=\"mix\"><field name=\"c\"><uint size=\"1\"/></field>"
    "<field name=\"x\"><uint size=\"4\"/></field></event>\n"
    "  <event name=\"strint\"><field name=\"s\"><string/></field>"
    "<field name=\"v\"><uint size=\"4\"/></field></event>\n"
    "</facility>\n";

static void write_file(const char *dir, const char *name, const void *p, size_t len)
{
	char *path = NULL;
	FILE *f;

	CHECK(asprintf(&path, "%s/%s", dir, name) > 0);
	f = fopen(path, "wb");
	CHECK(f != NULL, "%s", path);
	if (f) {
		CHECK(fwrite(p, 1, len, f) == len);
		fclose(f);
	}
	free(path);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static char *make_trace_dir(void)
{
	char tmpl[] = "/tmp/test_legacy_v0.XXXXXX";
	char *dir = strdup(mkdtemp(tmpl));
	char *sub = NULL;

	CHECK(asprintf(&sub, "%s/control", dir) > 0 && mkdir(sub, 0755) == 0);
	free(sub);
	CHECK(asprintf(&sub, "%s/eventdefs", dir) > 0 && mkdir(sub, 0755) == 0);
	free(sub);
	write_file(dir, "eventdefs/test.xml", test_xml, strlen(test_xml));
	return dir;
}

static void remove_dir(char *dir)
{
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

/* control/facilities_0: one block loading "test" as id 1 (and maybe more). */
static void write_facilities(const char *dir, const struct tb *proto, const char *extra_name,
			     uint32_t long_size)
{
	struct tb b = *proto;
	uint8_t p[64];
	size_t n;

	b.len = 0;
	tb_block(&b, 900);
	n = load_payload(&b, p, "test", 1, long_size);
	tb_event(&b, 950, 0, 0, p, n);
	if (extra_name) {
		n = load_payload(&b, p, extra_name, 2, long_size);
		tb_event(&b, 955, 0, 0, p, n);
	}
	if (b.minor == 7) {
		tb_event(&b, 960, 0, 2, NULL, 0); /* 0.7 heartbeat: empty */
	} else {
		uint8_t hbp[16] = {0};
		tb_event(&b, 960, 0, 2, hbp, sizeof(hbp)); /* 0.4: sec, nsec, cycles */
	}
	tb_end(&b, 2000, true);
	write_file(dir, "control/facilities_0", b.buf, b.len);
}

/* ---- reading back ---- */

struct got {
	char name[64];
	uint64_t tsc;
	int64_t ns;
	uint8_t payload[64];
	size_t len;
	uint64_t offset;
};

/*
 * Reads tracefile path's events: their count; *rc the last next()'s,
 * err/warn copied. With trust, as a consumer that walks every payload
 * (ltt_cursor_trust_sizes): the sizes the cursor left unchecked are
 * checked by that walk, and by ltt_cursor_check_size when it disagrees.
 */
static size_t read_file_as(struct ltt_trace *t, const char *relpath, struct got *g, size_t max,
			   int *rc, char *err, size_t errlen, char *warn, size_t warnlen,
			   bool trust)
{
	size_t n = 0, file = (size_t)-1;
	struct ltt_cursor *c;
	struct ltt_event ev;

	for (size_t i = 0; i < ltt_trace_file_count(t); i++) {
		const char *p = ltt_trace_file(t, i)->path;
		size_t pl = strlen(p), rl = strlen(relpath);
		if (pl >= rl && !strcmp(p + pl - rl, relpath))
			file = i;
	}
	CHECK(file != (size_t)-1, "no tracefile %s", relpath);
	if (file == (size_t)-1)
		return 0;
	c = ltt_cursor_open(t, file);
	CHECK(c != NULL);
	if (trust)
		ltt_cursor_trust_sizes(c);
	if (warn)
		warn[0] = '\0';
	while ((*rc = ltt_cursor_next(c, &ev)) > 0) {
		const char *w = ltt_cursor_warning(c);
		if (warn && *w)
			snprintf(warn + strlen(warn), warnlen - strlen(warn), "%s\n", w);
		CHECK(trust || !ev.size_unchecked);
		if (ev.size_unchecked &&
		    ltt_payload_size(ev.cls->payload, &ev.cls->abi, ev.payload, ev.len, ev.base,
				     NULL, 0) != (long)ev.len) {
			long k = ltt_cursor_check_size(c, &ev);

			if (k < 0)
				continue;
			CHECK_EQ(k, (long)ev.len);
			CHECK_EQ(ltt_payload_size(ev.cls->payload, &ev.cls->abi, ev.payload, ev.len,
						  ev.base, NULL, 0),
				 (long)ev.len);
		}
		if (n < max) {
			snprintf(g[n].name, sizeof(g[n].name), "%s", ev.cls->name);
			g[n].tsc = ev.tsc;
			g[n].ns = ev.ns;
			g[n].len = ev.len;
			g[n].offset = ev.offset;
			memcpy(g[n].payload, ev.payload, ev.len < 64 ? ev.len : 64);
		}
		n++;
	}
	if (warn) {
		const char *w = ltt_cursor_warning(c);
		if (*w)
			snprintf(warn + strlen(warn), warnlen - strlen(warn), "%s\n", w);
	}
	if (err)
		snprintf(err, errlen, "%s", ltt_cursor_error(c));
	ltt_cursor_close(c);
	return n;
}

static size_t read_file(struct ltt_trace *t, const char *relpath, struct got *g, size_t max,
			int *rc, char *err, size_t errlen, char *warn, size_t warnlen)
{
	return read_file_as(t, relpath, g, max, rc, err, errlen, warn, warnlen, false);
}

/*
 * Reads relpath of a fresh open of dir trusting the sizes: the same events,
 * lengths, error and warnings as read_file gave (n, g, rc, err, warn).
 */
static void same_when_trusted(const char *dir, const char *relpath, size_t n, const struct got *g,
			      int rc, const char *err, const char *warn)
{
	char oerr[512], err2[512], warn2[1024];
	struct got g2[8];
	int rc2;
	struct ltt_trace *t = ltt_trace_open(dir, oerr, sizeof(oerr));

	CHECK(t != NULL, "%s", oerr);
	if (!t)
		return;
	size_t n2 =
	    read_file_as(t, relpath, g2, 8, &rc2, err2, sizeof(err2), warn2, sizeof(warn2), true);
	CHECK_EQ(n2, n);
	CHECK_EQ(rc2, rc);
	CHECK(!strcmp(err2, err), "\"%s\" != \"%s\"", err2, err);
	CHECK(!strcmp(warn2, warn), "\"%s\" != \"%s\"", warn2, warn);
	for (size_t i = 0; i < n && i < 8; i++) {
		CHECK(!strcmp(g2[i].name, g[i].name) && g2[i].tsc == g[i].tsc &&
			  g2[i].len == g[i].len && g2[i].offset == g[i].offset,
		      "event %zu", i);
		CHECK(!memcmp(g2[i].payload, g[i].payload, g[i].len < 64 ? g[i].len : 64));
	}
	ltt_trace_close(t);
}

#define BASE_NS ((int64_t)START_SEC * 1000000000 + (int64_t)START_USEC * 1000)

static const uint8_t small_a[] = {0x44, 0x33, 0x22, 0x11, 'h', 'i', 0};
static const uint8_t small_a_be[] = {0x11, 0x22, 0x33, 0x44, 'h', 'i', 0};

/* 0.7, little-endian, packed, heartbeat TSCs wrapping between events, two blocks. */
static void test_07_le_packed_hb(void)
{
	char *dir = make_trace_dir();
	struct tb b;
	struct got g[16];
	char err[512], warn[1024], oerr[512];
	int rc;
	uint8_t big[8], ptr[16];
	static const uint8_t small_b[] = {5, 0, 0, 0, 0};

	check_part = "0.7 LE packed hb";
	tb_init(&b, 7, false, true, 0);
	write_facilities(dir, &b, NULL, 8);
	for (int i = 0; i < 8; i++)
		big[i] = (uint8_t)(8 - i); /* LE 0x0102030405060708 */
	for (int i = 0; i < 16; i++)
		ptr[i] = (uint8_t)(0xA0 + i);
	tb_block(&b, 0x1FFFFFF00);
	tb_event(&b, 0x1FFFFFF80, 1, 0, small_a, sizeof(small_a));
	tb_event(&b, 0x200000010, 1, 1, big, 8); /* low 32 bits 0x10 < 0xFFFFFF80: wraps */
	tb_event(&b, 0x200000020, 1, 2, ptr, 16);
	tb_event(&b, 0x200000030, 0, 2, NULL, 0);
	tb_end(&b, 0x200000100, true);
	tb_block(&b, 0x200000200);
	tb_event(&b, 0x200000300, 1, 0, small_b, sizeof(small_b));
	tb_end(&b, 0x200000400, true);
	write_file(dir, "cpu_0", b.buf, b.len);

	CHECK(ltt_probe_dir(dir) == LTT_FORMAT_LTTV);
	struct ltt_trace *t = ltt_trace_open(dir, oerr, sizeof(oerr));
	CHECK(t != NULL, "%s", oerr);
	if (!t)
		goto out;
	const struct ltt_trace_info *in = ltt_trace_info(t);
	CHECK_EQ(in->major, 0);
	CHECK_EQ(in->minor, 7);
	CHECK_EQ(in->has_heartbeat, 1);
	CHECK_EQ(in->alignment, 0);
	CHECK_EQ(in->start_tsc, START_TSC);
	CHECK_EQ(in->start_freq, START_KHZ);
	CHECK_EQ(ltt_trace_file_count(t), 2);
	CHECK(!strcmp(ltt_trace_file(t, 0)->channel, "control/facilities"));
	CHECK(!strcmp(ltt_trace_file(t, 1)->channel, "cpu"));
	CHECK_EQ(ltt_trace_file(t, 1)->cpu, 0);
	CHECK_EQ(ltt_trace_file(t, 1)->blocks, 2);
	CHECK_EQ(ltt_trace_file(t, 1)->block_size, BSIZE);
	/* core (5 + heartbeat_full) + test's 5 */
	CHECK_EQ(ltt_trace_class_count(t), 11);
	bool seen_mix = false;
	for (size_t i = 0; i < ltt_trace_class_count(t); i++) {
		const struct ltt_class *c = ltt_trace_class(t, i);
		CHECK_EQ(c->index, i);
		if (!strcmp(c->name, "test.mix")) {
			seen_mix = true;
			CHECK_EQ(c->facility_id, 1);
			CHECK_EQ(c->event_id, 3);
			CHECK(!strcmp(c->facility, "test"));
			CHECK_EQ(c->abi.long_size, 8);
			CHECK_EQ(c->abi.alignment, 0);
		}
	}
	CHECK(seen_mix);
	CHECK(ltt_trace_warning(t, 0) == NULL, "%s", ltt_trace_warning(t, 0));

	size_t n =
	    read_file(t, "control/facilities_0", g, 16, &rc, err, sizeof(err), warn, sizeof(warn));
	CHECK_EQ(rc, 0);
	CHECK_EQ(n, 2);
	CHECK(!strcmp(g[0].name, "core.facility_load"), "%s", g[0].name);
	CHECK_EQ(g[0].len, 5 + 28);
	CHECK_EQ(g[0].tsc, 950);
	CHECK_EQ(g[0].ns, BASE_NS - 16); /* (1000 - 950) / 3 = 16.7: 16 before the start */
	CHECK(!strcmp(g[1].name, "core.time_heartbeat"), "%s", g[1].name);
	CHECK_EQ(g[1].ns, BASE_NS - 13); /* 40 / 3 */
	CHECK_EQ(g[1].len, 0);

	n = read_file(t, "cpu_0", g, 16, &rc, err, sizeof(err), warn, sizeof(warn));
	CHECK_EQ(rc, 0);
	CHECK(!warn[0], "%s", warn);
	CHECK_EQ(n, 5);
	CHECK(!strcmp(g[0].name, "test.small"));
	CHECK_EQ(g[0].tsc, 0x1FFFFFF80);
	CHECK_EQ(g[0].ns, 1100000003113311154); /* (8589934464 - 1000) / 3 = 2863311154.67 */
	CHECK_EQ(g[0].len, 7);
	CHECK(!memcmp(g[0].payload, small_a, 7));
	CHECK_EQ(g[0].offset, 106); /* right after the 0.7 headers */
	CHECK(!strcmp(g[1].name, "test.big"));
	CHECK_EQ(g[1].tsc, 0x200000010);
	CHECK_EQ(g[1].ns, 1100000003113311202);
	CHECK_EQ(g[1].len, 8);
	CHECK(!memcmp(g[1].payload, big, 8));
	CHECK_EQ(g[1].offset, 106 + 8 + 7);
	CHECK(!strcmp(g[2].name, "test.ptr"));
	CHECK_EQ(g[2].tsc, 0x200000020);
	CHECK_EQ(g[2].ns, 1100000003113311208);
	CHECK_EQ(g[2].len, 16); /* pointer and long of 8 bytes (the load's sizes) */
	CHECK(!memcmp(g[2].payload, ptr, 16));
	CHECK(!strcmp(g[3].name, "core.time_heartbeat"));
	CHECK_EQ(g[3].tsc, 0x200000030);
	CHECK_EQ(g[3].ns, 1100000003113311213);
	CHECK(!strcmp(g[4].name, "test.small"));
	CHECK_EQ(g[4].tsc, 0x200000300); /* from the second block's begin 0x200000200 */
	CHECK_EQ(g[4].ns, 1100000003113311453);
	CHECK_EQ(g[4].len, 5);
	CHECK_EQ(g[4].offset, BSIZE + 106);
	ltt_trace_close(t);
out:
	remove_dir(dir);
}

/*
 * 0.7, big-endian, aligned on 8, 64-bit TSCs, freq_scale 0 (read as 1);
 * with flag, has_alignment is 1 (seed 000: "alignment is activated"),
 * which means the arch size (8): the same layout.
 */
static void test_07_be_aligned(bool flag)
{
	char *dir = make_trace_dir();
	struct tb b;
	struct got g[8];
	char err[512], warn[1024], oerr[512];
	int rc;
	/* mix: u8 c = 7, 3 bytes of padding, u32 x = 0x01020304 */
	static const uint8_t mix[] = {7, 0, 0, 0, 1, 2, 3, 4};
	static const uint8_t big[] = {1, 2, 3, 4, 5, 6, 7, 8};

	check_part = flag ? "0.7 BE has_alignment 1" : "0.7 BE aligned 8";
	tb_init(&b, 7, true, false, 8);
	b.align_flag = flag ? 1 : 0;
	b.freq_scale = 0;
	write_facilities(dir, &b, NULL, 8);
	tb_block(&b, 5000);
	tb_event(&b, 5001, 1, 0, small_a_be, sizeof(small_a_be));
	tb_event(&b, 5004, 1, 3, mix, sizeof(mix));
	tb_event(&b, 6001, 1, 1, big, 8);
	tb_end(&b, 7000, true);
	write_file(dir, "cpu_1", b.buf, b.len);

	struct ltt_trace *t = ltt_trace_open(dir, oerr, sizeof(oerr));
	CHECK(t != NULL, "%s", oerr);
	if (!t)
		goto out;
	CHECK_EQ(ltt_trace_info(t)->big_endian, 1);
	CHECK_EQ(ltt_trace_info(t)->alignment, 8);
	CHECK_EQ(ltt_trace_info(t)->freq_scale, 1);
	CHECK(ltt_trace_warning(t, 0) == NULL, "%s", ltt_trace_warning(t, 0));
	size_t n = read_file(t, "control/facilities_0", g, 8, &rc, err, sizeof(err), NULL, 0);
	CHECK_EQ(rc, 0);
	CHECK_EQ(n, 2);
	CHECK_EQ(g[0].len, 8 + 28); /* "test\0", padded to 8, then 7 u32 */
	n = read_file(t, "cpu_1", g, 8, &rc, err, sizeof(err), warn, sizeof(warn));
	CHECK_EQ(rc, 0);
	CHECK(!warn[0], "%s", warn);
	CHECK_EQ(n, 3);
	/* 106 aligned to 8 = 112; header 12 bytes, payload aligned to 8 at 128 */
	CHECK_EQ(g[0].offset, 112);
	CHECK_EQ(g[0].tsc, 5001);
	CHECK_EQ(g[0].ns, BASE_NS + 1333); /* 4001 / 3 = 1333.67 */
	CHECK_EQ(g[0].len, 7);
	CHECK(!memcmp(g[0].payload, small_a_be, 7));
	/* payload ended at 135: next header at 136, payload at 152 */
	CHECK_EQ(g[1].offset, 136);
	CHECK(!strcmp(g[1].name, "test.mix"));
	CHECK_EQ(g[1].len, 8);
	CHECK(!memcmp(g[1].payload, mix, 8));
	CHECK_EQ(g[1].ns, BASE_NS + 1334); /* 4004 / 3 = 1334.67 */
	CHECK_EQ(g[2].offset, 160);
	CHECK_EQ(g[2].tsc, 6001);
	CHECK_EQ(g[2].ns, BASE_NS + 1667); /* 5001 / 3 */
	CHECK(!memcmp(g[2].payload, big, 8));
	ltt_trace_close(t);
out:
	remove_dir(dir);
}

/* 0.4: magic at 56 (LE, packed, hb, 32-bit ABI) and at 72 (BE, aligned on 4, no hb). */
static void test_04(bool wide)
{
	char *dir = make_trace_dir();
	struct tb b;
	struct got g[8];
	char err[512], warn[1024], oerr[512];
	int rc;
	static const uint8_t ptr32[] = {1, 2, 3, 4, 5, 6, 7, 8};
	unsigned hs = wide ? 72 + 55 : 56 + 55;

	check_part = wide ? "0.4 magic at 72 BE aligned 4" : "0.4 magic at 56 LE packed";
	tb_init(&b, 4, wide, !wide, wide ? 4 : 0);
	b.arch_size = 4;
	if (wide)
		b.magic_off = 72;
	write_facilities(dir, &b, NULL, 4);
	tb_block(&b, 2000);
	tb_event(&b, 2003, 1, 2, ptr32, sizeof(ptr32)); /* pointer and long: 4 bytes each */
	tb_event(&b, 2006, 1, 0, wide ? small_a_be : small_a, 7);
	tb_end(&b, 3000, true);
	write_file(dir, "cpu_0", b.buf, b.len);
	write_file(dir, "cpu_3", b.buf, b.len); /* a gap in the CPU numbers */

	struct ltt_trace *t = ltt_trace_open(dir, oerr, sizeof(oerr));
	CHECK(t != NULL, "%s", oerr);
	if (!t)
		goto out;
	CHECK_EQ(ltt_trace_info(t)->minor, 4);
	CHECK_EQ(ltt_trace_info(t)->arch_size, 4);
	CHECK_EQ(ltt_trace_file_count(t), 3);
	CHECK_EQ(ltt_trace_file(t, 2)->cpu, 3);
	size_t n = read_file(t, "control/facilities_0", g, 8, &rc, err, sizeof(err), NULL, 0);
	CHECK_EQ(rc, 0);
	CHECK_EQ(n, 2);
	CHECK_EQ(g[0].len, wide ? 8 + 24 : 5 + 24); /* 0.4 loads: 6 u32 */
	CHECK_EQ(g[1].len, 16);
	n = read_file(t, "cpu_3", g, 8, &rc, err, sizeof(err), warn, sizeof(warn));
	CHECK_EQ(rc, 0);
	CHECK(!warn[0], "%s", warn);
	CHECK_EQ(n, 2);
	CHECK(!strcmp(g[0].name, "test.ptr"));
	CHECK_EQ(g[0].len, 8);
	CHECK(!memcmp(g[0].payload, ptr32, 8));
	/* 127 aligned to 4 = 128 (wide); 111 unaligned */
	CHECK_EQ(g[0].offset, wide ? 128 : hs);
	CHECK_EQ(g[0].tsc, 2003);
	CHECK_EQ(g[0].ns, BASE_NS + 334); /* 1003 / 3 */
	CHECK_EQ(g[1].tsc, 2006);
	CHECK_EQ(g[1].ns, BASE_NS + 335); /* 1006 / 3 */
	CHECK_EQ(g[1].len, 7);
	CHECK_EQ(g[1].offset, wide ? 128 + 12 + 8 : hs + 8 + 8);
	ltt_trace_close(t);
out:
	remove_dir(dir);
}

/* Flight recorder: blocks written newest first, the last one never closed. */
static void test_flight(void)
{
	char *dir = make_trace_dir();
	struct tb b;
	struct got g[8];
	char err[512], warn[1024], oerr[512];
	int rc;
	static const uint8_t v1[] = {1, 0, 0, 0, 0}, v2[] = {2, 0, 0, 0, 0}, v3[] = {3, 0, 0, 0, 0};

	check_part = "flight recorder";
	tb_init(&b, 7, false, true, 0);
	b.flight = 1;
	write_facilities(dir, &b, NULL, 8);
	tb_block(&b, 5000); /* block 0: the newer */
	tb_event(&b, 5100, 1, 0, v2, sizeof(v2));
	tb_end(&b, 5900, true);
	tb_block(&b, 3000); /* block 1: the older */
	tb_event(&b, 3100, 1, 0, v1, sizeof(v1));
	tb_end(&b, 3900, true);
	tb_block(&b, 7000); /* block 2: being written at the dump */
	tb_event(&b, 7100, 1, 0, v3, sizeof(v3));
	size_t garbage = b.len; /* zeros follow: not an event */
	tb_end(&b, 0, false);
	write_file(dir, "cpu_0", b.buf, b.len);

	struct ltt_trace *t = ltt_trace_open(dir, oerr, sizeof(oerr));
	CHECK(t != NULL, "%s", oerr);
	if (!t)
		goto out;
	CHECK_EQ(ltt_trace_info(t)->flight_recorder, 1);
	size_t n = read_file(t, "cpu_0", g, 8, &rc, err, sizeof(err), warn, sizeof(warn));
	CHECK_EQ(rc, 0);
	CHECK_EQ(n, 3);
	CHECK_EQ(g[0].tsc, 3100);
	CHECK_EQ(g[0].payload[0], 1);
	CHECK_EQ(g[0].offset, BSIZE + 106);
	CHECK_EQ(g[1].tsc, 5100);
	CHECK_EQ(g[1].payload[0], 2);
	CHECK_EQ(g[2].tsc, 7100);
	CHECK_EQ(g[2].payload[0], 3);
	char want[256];
	snprintf(want, sizeof(want),
		 "cpu_0: offset %d: block 2 was never closed (flight recorder): from offset %zu "
		 "on, its last %zu bytes are lost (core.facility_load: event size 0 differs from "
		 "the computed 29)\n", /* "" and 7 u32 */
		 2 * BSIZE, garbage, 3 * BSIZE - garbage);
	CHECK(strstr(warn, want) != NULL, "warn \"%s\" lacks \"%s\"", warn, want);
	ltt_trace_close(t);
out:
	remove_dir(dir);
}

enum fault {
	F_TRUNCATED,
	F_MAGIC,
	F_OVERRUN,
	F_UNKNOWN_FAC,
	F_UNKNOWN_FAC_NOSIZE,
	F_UNKNOWN_EVENT,
	F_SIZE_MISMATCH,
	F_NO_XML,
	F_NL_FACILITY, /* F_NO_XML with a newline in the facility's name */
};

/* Each fault: the events before it, then one line naming the file and the offset. */
static void test_fault(enum fault f, const char *name)
{
	char *dir = make_trace_dir();
	struct tb b;
	struct got g[8];
	char err[512], warn[1024], oerr[512], want[512];
	int rc;
	static const uint8_t v1[] = {1, 0, 0, 0, 0}, v2[] = {2, 0, 0, 0, 0};
	static const uint8_t four[] = {9, 9, 9, 9};
	static const uint8_t six[] = {2, 0, 0, 0, 0, 0x77};

	check_part = name;
	tb_init(&b, 7, false, true, 0);
	write_facilities(dir, &b,
			 f == F_NO_XML	      ? "nodesc"
			 : f == F_NL_FACILITY ? "no\ndesc"
					      : NULL,
			 8);
	tb_block(&b, 5000);
	tb_event(&b, 5100, 1, 0, v1, sizeof(v1));
	size_t at = b.len;
	switch (f) {
	case F_OVERRUN:
		tb_event_sized(&b, 5150, 1, 0, v2, sizeof(v2), 300);
		break;
	case F_UNKNOWN_FAC:
		tb_event(&b, 5150, 9, 0, four, 4);
		tb_event(&b, 5160, 9, 0, four, 4); /* said once */
		break;
	case F_UNKNOWN_FAC_NOSIZE:
		tb_event_sized(&b, 5150, 9, 0, four, 4, 0xFFFF);
		break;
	case F_UNKNOWN_EVENT:
		tb_event(&b, 5150, 1, 6, four, 4);
		break;
	case F_SIZE_MISMATCH:
		tb_event(&b, 5150, 1, 0, six, sizeof(six)); /* computed: 5 */
		break;
	case F_NO_XML:
	case F_NL_FACILITY:
		tb_event(&b, 5150, 2, 0, four, 4);
		break;
	default:
		break;
	}
	tb_event(&b, 5200, 1, 0, v2, sizeof(v2));
	tb_end(&b, 5900, true);
	tb_block(&b, 6000);
	tb_event(&b, 6100, 1, 0, v2, sizeof(v2));
	tb_end(&b, 6900, true);
	if (f == F_MAGIC)
		b.buf[BSIZE + 40] ^= 0x55;
	write_file(dir, "cpu_0", b.buf, f == F_TRUNCATED ? BSIZE + 100 : b.len);

	struct ltt_trace *t = ltt_trace_open(dir, oerr, sizeof(oerr));
	CHECK(t != NULL, "%s", oerr);
	if (!t)
		goto out;
	size_t n = read_file(t, "cpu_0", g, 8, &rc, err, sizeof(err), warn, sizeof(warn));
	CHECK(n >= 1 && g[0].tsc == 5100, "the event before the fault");
	same_when_trusted(dir, "cpu_0", n, g, rc, err, warn);
	switch (f) {
	case F_TRUNCATED:
		CHECK_EQ(rc, -1);
		CHECK_EQ(n, 2);
		snprintf(want, sizeof(want),
			 "%s/cpu_0: offset %d: block 1 truncated: 100 of its 512 bytes present",
			 dir, BSIZE);
		CHECK(!strcmp(err, want), "\"%s\" != \"%s\"", err, want);
		break;
	case F_MAGIC:
		CHECK_EQ(rc, -1);
		CHECK_EQ(n, 2);
		snprintf(want, sizeof(want), "%s/cpu_0: offset %d: block 1: wrong magic number",
			 dir, BSIZE + 40);
		CHECK(!strcmp(err, want), "\"%s\" != \"%s\"", err, want);
		break;
	case F_OVERRUN:
		CHECK_EQ(rc, -1);
		CHECK_EQ(n, 1);
		snprintf(want, sizeof(want),
			 "%s/cpu_0: offset %zu: block 0: event size 300 overruns its block (events "
			 "end at offset %zu)",
			 dir, at, at + 8 + 5 + 8 + 5);
		CHECK(!strcmp(err, want), "\"%s\" != \"%s\"", err, want);
		break;
	case F_UNKNOWN_FAC:
		CHECK_EQ(rc, 0);
		CHECK_EQ(n, 3);
		snprintf(want, sizeof(want),
			 "%s/cpu_0: offset %zu: unknown facility id 9 (event id 0): skipped\n", dir,
			 at);
		CHECK(!strcmp(warn, want), "\"%s\" != \"%s\"", warn, want);
		break;
	case F_UNKNOWN_FAC_NOSIZE:
		CHECK_EQ(rc, -1);
		CHECK_EQ(n, 1);
		snprintf(want, sizeof(want),
			 "%s/cpu_0: offset %zu: unknown facility id 9 (event id 0); its size is "
			 "not in its header: cannot go on",
			 dir, at);
		CHECK(!strcmp(err, want), "\"%s\" != \"%s\"", err, want);
		break;
	case F_UNKNOWN_EVENT:
		CHECK_EQ(rc, 0);
		CHECK_EQ(n, 3);
		snprintf(want, sizeof(want),
			 "%s/cpu_0: offset %zu: unknown event id 6 of facility test (id 1): "
			 "skipped\n",
			 dir, at);
		CHECK(!strcmp(warn, want), "\"%s\" != \"%s\"", warn, want);
		break;
	case F_SIZE_MISMATCH:
		CHECK_EQ(rc, 0);
		CHECK_EQ(n, 3); /* skipped by its event_size */
		snprintf(want, sizeof(want),
			 "%s/cpu_0: offset %zu: test.small: event size 6 differs from the computed "
			 "5: skipped\n",
			 dir, at);
		CHECK(!strcmp(warn, want), "\"%s\" != \"%s\"", warn, want);
		break;
	case F_NO_XML:
		CHECK_EQ(rc, 0);
		CHECK_EQ(n, 3);
		snprintf(want, sizeof(want), "%s/eventdefs/nodesc.xml", dir);
		CHECK(ltt_trace_warning(t, 0) && strstr(ltt_trace_warning(t, 0), want), "%s",
		      ltt_trace_warning(t, 0));
		snprintf(want, sizeof(want),
			 "%s/cpu_0: offset %zu: facility nodesc (id 2) has no description: event "
			 "id 0: skipped\n",
			 dir, at);
		CHECK(!strcmp(warn, want), "\"%s\" != \"%s\"", warn, want);
		break;
	case F_NL_FACILITY: /* every message one line: the name's newline is a '?' */
		CHECK_EQ(rc, 0);
		CHECK_EQ(n, 3);
		snprintf(want, sizeof(want), "%s/eventdefs/no?desc.xml", dir);
		CHECK(ltt_trace_warning(t, 0) && strstr(ltt_trace_warning(t, 0), want) &&
			  !strchr(ltt_trace_warning(t, 0), '\n'),
		      "%s", ltt_trace_warning(t, 0));
		snprintf(want, sizeof(want),
			 "%s/cpu_0: offset %zu: facility no?desc (id 2) has no description: event "
			 "id 0: skipped\n",
			 dir, at);
		CHECK(!strcmp(warn, want), "\"%s\" != \"%s\"", warn, want);
		break;
	}
	ltt_trace_close(t);
out:
	remove_dir(dir);
}

static char convert_warnings[2048];

static void on_convert_warning(void *arg, const char *line)
{
	(void)arg;
	snprintf(convert_warnings + strlen(convert_warnings),
		 sizeof(convert_warnings) - strlen(convert_warnings), "%s\n", line);
}

/*
 * 1.3's fallback: a genevent payload whose size in the header is the one
 * with the field after a string realigned on the arch size (8 here), not
 * the computed one: the class takes that rule, read by a cursor that checks
 * each size and by one that leaves the check to its consumer alike.
 */
static void test_realign(void)
{
	char *dir = make_trace_dir();
	struct tb b;
	struct got g[8];
	char err[512], warn[1024], oerr[512];
	int rc;
	/* "ab\0", 5 bytes to offset 8 (the computed rule pads to 4 only), v */
	static const uint8_t re[] = {'a',  'b',	 0,    0xEE, 0xEE, 0xEE,
				     0xEE, 0xEE, 0x44, 0x33, 0x22, 0x11};
	static const uint8_t re2[] = {'x', 0, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 8, 0, 0, 0};
	static const uint8_t bad[] = {'x', 0, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 8, 0};

	check_part = "realigned after a string";
	tb_init(&b, 7, false, true, 8);
	write_facilities(dir, &b, NULL, 8);
	tb_block(&b, 5000);
	tb_event(&b, 5100, 1, 4, re, sizeof(re));
	tb_event(&b, 5200, 1, 4, re2, sizeof(re2));
	tb_event(&b, 5300, 1, 4, bad, sizeof(bad)); /* neither rule: skipped */
	tb_event(&b, 5400, 1, 1, re, 8);
	tb_end(&b, 5900, true);
	write_file(dir, "cpu_0", b.buf, b.len);

	struct ltt_trace *t = ltt_trace_open(dir, oerr, sizeof(oerr));
	CHECK(t != NULL, "%s", oerr);
	if (!t)
		goto out;
	size_t n = read_file(t, "cpu_0", g, 8, &rc, err, sizeof(err), warn, sizeof(warn));
	CHECK_EQ(rc, 0);
	CHECK_EQ(n, 3);
	CHECK(!strcmp(g[0].name, "test.strint") && g[0].len == 12);
	CHECK(!strcmp(g[1].name, "test.strint") && g[1].len == 12);
	CHECK(!strcmp(g[2].name, "test.big") && g[2].tsc == 5400);
	CHECK(strstr(warn, "test.strint: event size 10 differs from the computed 12: skipped"),
	      "%s", warn);
	const struct ltt_class *cls = NULL;
	for (size_t i = 0; i < ltt_trace_class_count(t); i++)
		if (!strcmp(ltt_trace_class(t, i)->name, "test.strint"))
			cls = ltt_trace_class(t, i);
	CHECK(cls && cls->abi.realign_after_string, "the class keeps the fallback");
	ltt_trace_close(t);
	same_when_trusted(dir, "cpu_0", n, g, rc, err, warn);

	/*
	 * The converter (a consumer that trusts the sizes), by one thread and
	 * by two (a tracefile each): the same events, the same line.
	 */
	for (unsigned threads = 1; threads <= 2; threads++) {
		char out[600];
		struct ltt_convert_stats st = {.warn = on_convert_warning, .threads = threads};

		snprintf(out, sizeof(out), "%s/ctf%u", dir, threads);
		convert_warnings[0] = 0;
		CHECK_EQ(ltt_convert(dir, out, &st, err, sizeof(err)), 0);
		CHECK_EQ(st.events, 2 + n); /* the facility load and the heartbeat too */
		CHECK_EQ(st.skipped, 0);
		CHECK_EQ(st.files, 2);
		CHECK(strstr(convert_warnings,
			     "test.strint: event size 10 differs from the computed 12: skipped"),
		      "%s", convert_warnings);
	}
out:
	remove_dir(dir);
}

/* Refused at open: a version outside 0.4/0.7, not a trace, no eventdefs/. */
static void test_refused(void)
{
	char *dir = make_trace_dir();
	struct tb b;
	char oerr[512], want[512];

	check_part = "refused";
	CHECK(ltt_probe_dir(dir) == LTT_FORMAT_NONE, "no tracefile");
	CHECK(ltt_trace_open(dir, oerr, sizeof(oerr)) == NULL);
	tb_init(&b, 4, false, true, 0);
	tb_block(&b, 900);
	tb_end(&b, 1000, true);
	b.buf[56 + 18] = 3; /* 0.3 */
	write_file(dir, "control/facilities_0", b.buf, BSIZE);
	CHECK(ltt_trace_open(dir, oerr, sizeof(oerr)) == NULL);
	snprintf(want, sizeof(want),
		 "%s/control/facilities_0: trace version 0.3 not supported (0.4 and 0.7 are)", dir);
	CHECK(!strcmp(oerr, want), "\"%s\" != \"%s\"", oerr, want);
	/* the marker era: 0.7's place of the magic with major 2 */
	tb_init(&b, 7, false, true, 0);
	tb_block(&b, 900);
	tb_end(&b, 1000, true);
	b.buf[40 + 17] = 2;
	b.buf[40 + 18] = 0;
	write_file(dir, "control/facilities_0", b.buf, BSIZE);
	CHECK(ltt_probe_dir(dir) == LTT_FORMAT_NONE);
	CHECK(ltt_trace_open(dir, oerr, sizeof(oerr)) == NULL);
	snprintf(want, sizeof(want),
		 "%s/control/facilities_0: trace version 2.0 (LTTng marker era) not supported",
		 dir);
	CHECK(!strcmp(oerr, want), "\"%s\" != \"%s\"", oerr, want);
	remove_dir(dir);
}

/* The common layer's arithmetic (ltrace-impl.h): 1.7 / 2.4 and the TSC extension. */
static void test_arithmetic(void)
{
	struct ltt_trace_info in = {.format = LTT_FORMAT_LTTV,
				    .start_freq = 3000000,
				    .freq_scale = 3,
				    .start_tsc = 1000,
				    .start_time_sec = 10,
				    .start_time_usec = 7};

	check_part = "arithmetic";
	/* 10 s + 7 us + (1001 cycles x 1e6 x 3 / 3e6 kHz) = 1001 ns */
	CHECK_EQ(ltrace_tsc_ns(&in, 2001), 10000007000 + 1001);
	/* 2 cycles before the start: -floor(2 x 1e6 x 3 / 3e6) = -2 */
	CHECK_EQ(ltrace_tsc_ns(&in, 998), 10000007000 - 2);
	in.freq_scale = 1;
	CHECK_EQ(ltrace_tsc_ns(&in, 999), 10000007000); /* -floor(1/3) = 0 */
	/* no 64-bit overflow: 2^64-1 - 1000 cycles at 3 GHz = 6148914691236516871 ns */
	CHECK_EQ(ltrace_tsc_ns(&in, UINT64_MAX), 10000007000 + 6148914691236516871);
	in.format = LTT_FORMAT_COMPACT; /* Hz */
	in.start_freq = 1000000000;
	CHECK_EQ(ltrace_tsc_ns(&in, 1000 + 123456789), 10000007000 + 123456789);
	in.start_time_sec = UINT64_MAX; /* saturates */
	CHECK(ltrace_tsc_ns(&in, 0) == INT64_MAX);
	CHECK_EQ(ltrace_tsc_extend(0x1FFFFFFF0, 0x10, 32), 0x200000010);
	CHECK_EQ(ltrace_tsc_extend(0x1FFFFFFF0, 0xFFFFFFF8, 32), 0x1FFFFFFF8);
	CHECK_EQ(ltrace_tsc_extend(0x0FFFFFF0, 0x5, 27), 0x10000005);
	CHECK_EQ(ltrace_u32((const uint8_t *)"\x01\x02\x03\x04", true), 0x01020304);
	CHECK_EQ(ltrace_u64((const uint8_t *)"\x01\x02\x03\x04\x05\x06\x07\x08", false),
		 0x0807060504030201);
}

int main(void)
{
	test_07_le_packed_hb();
	test_07_be_aligned(false);
	test_07_be_aligned(true);
	test_04(false);
	test_04(true);
	test_flight();
	test_fault(F_TRUNCATED, "truncated block");
	test_fault(F_MAGIC, "wrong magic");
	test_fault(F_OVERRUN, "overrun");
	test_fault(F_UNKNOWN_FAC, "unknown facility");
	test_fault(F_UNKNOWN_FAC_NOSIZE, "unknown facility, size 0xFFFF");
	test_fault(F_UNKNOWN_EVENT, "unknown event");
	test_fault(F_SIZE_MISMATCH, "size mismatch");
	test_fault(F_NO_XML, "no eventdefs file");
	test_fault(F_NL_FACILITY, "a newline in a facility name");
	test_realign();
	test_refused();
	test_arithmetic();
	return CHECK_RESULT();
}
