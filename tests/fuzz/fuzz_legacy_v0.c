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

#include "legacy-fixed-trace.h"

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
