/*
 * fuzz_legacy_v0.c - libFuzzer target for the LTTV format reader
 * (src/legacy/lv0*.c, ltrace.c): the input's first byte picks the file it
 * becomes (even: cpu_0, odd: control/facilities_0) in a trace directory
 * whose other files are fixed (a facilities file loading "test" as id 1,
 * 0.7 little-endian packed with heartbeats, and eventdefs/test.xml).
 * Opening either fails with a message or gives cursors whose events lie
 * inside their file, whose payloads decode within their length, and whose
 * walk ends (0, or -1 with a message).
 *
 * FUZZ-SOURCES: src/legacy/l[!c]*.c
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECK_ABORT
#include "check.h"
#include "legacy/ltrace-impl.h"

static char dir[64];

static const char xml[] =
    "<facility name=\"test\">\n"
    " <event name=\"small\"><field name=\"a\"><uint size=\"4\"/></field>"
    "<field name=\"s\"><string/></field></event>\n"
    " <event name=\"big\"><field name=\"v\"><uint size=\"8\"/></field></event>\n"
    " <event name=\"seq\"><field name=\"q\"><sequence><uint size=\"1\"/>"
    "<uint size=\"2\"/></sequence></field></event>\n"
    "</facility>\n";

static void write_file(const char *name, const void *p, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (len && fwrite(p, 1, len, f) != len)
		abort();
	fclose(f);
}

static void le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* One 512-byte block of 0.7 (docs/legacy-formats.md 1.2) loading "test" as id 1. */
static void fixed_facilities(void)
{
	uint8_t b[512] = {0};
	size_t pos = 106;

	le(b + 0, 900, 8);
	le(b + 36, sizeof(b), 4);
	le(b + 40, 0x00D6B7ED, 4);
	b[56] = 8;
	b[58] = 7;
	b[60] = 1; /* heartbeats */
	le(b + 62, 1, 4);
	le(b + 66, 1000000, 8);
	le(b + 74, 1000, 8);
	le(b + pos, 950, 4);
	b[pos + 4] = 0; /* core */
	b[pos + 5] = 0; /* facility_load */
	le(b + pos + 6, 5 + 28, 2);
	pos += 8;
	memcpy(b + pos, "test", 5);
	pos += 5;
	uint32_t v[7] = {0, 1, 4, 8, 8, 8, 0};
	for (int i = 0; i < 7; i++, pos += 4)
		le(b + pos, v[i], 4);
	le(b + 16, 2000, 8);
	le(b + 32, sizeof(b) - pos, 4);
	write_file("control/facilities_0", b, sizeof(b));
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void cleanup(void)
{
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

static void setup(void)
{
	char sub[96];

	/* in memory when it can: the files are rewritten for every input */
	snprintf(dir, sizeof(dir), "%s/fuzz_legacy_v0.XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(dir))
		abort();
	snprintf(sub, sizeof(sub), "%s/control", dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/eventdefs", dir);
	mkdir(sub, 0755);
	write_file("eventdefs/test.xml", xml, strlen(xml));
	atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	struct ltt_trace *t;

	if (!dir[0])
		setup();
	if (size < 1)
		return 0;
	fixed_facilities();
	write_file("cpu_0", NULL, 0);
	write_file((data[0] & 1) ? "control/facilities_0" : "cpu_0", data + 1, size - 1);
	t = ltt_trace_open(dir, err, sizeof(err));
	if (!t) {
		CHECK(err[0]);
		return 0;
	}
	for (size_t i = 0; i < ltt_trace_file_count(t); i++) {
		struct ltt_cursor *c = ltt_cursor_open(t, i);
		const struct ltrace_file *f = &t->files[i];
		struct ltt_event ev;
		size_t n = 0;
		int st;

		CHECK(c != NULL);
		while ((st = ltt_cursor_next(c, &ev)) > 0) {
			char perr[256];
			CHECK(ev.payload >= f->data && ev.len <= f->size &&
			      ev.payload + ev.len <= f->data + f->size);
			CHECK(ev.offset < f->size);
			long used = ltt_payload_decode(
			    ev.cls->payload, &ev.cls->abi, ev.payload, ev.len,
			    (size_t)(ev.payload - f->data) % 4096, NULL, NULL, perr, sizeof(perr));
			(void)used;
			CHECK(++n <= f->size / 8 + 1, "more events than headers fit");
			ltt_cursor_warning(c);
		}
		CHECK(st == 0 || ltt_cursor_error(c)[0]);
		ltt_cursor_close(c);
	}
	ltt_trace_close(t);
	return 0;
}
