/*
 * fuzz_legacy_v2.c - libFuzzer target for the compact format reader
 * (src/legacy/lv2.c and the common layer): the input is a trace of two
 * tracefiles, metadata_0 (its first n bytes after a 2-byte little-endian
 * n) and cpu_0 (the rest), written to a directory of its own. Opening it
 * either fails with one line or gives classes, and every cursor ends (0,
 * or -1 with one line) after events whose payload lies inside their file
 * and decodes as its class says; warnings are lines.
 *
 * FUZZ-SOURCES: src/legacy/l[!c]*.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECK_ABORT
#include "check.h"
#include "legacy/legacy.h"

static char dir[128];

static void put_file(const char *name, const uint8_t *d, size_t n)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (n && fwrite(d, 1, n, f) != n)
		abort();
	fclose(f);
}

static bool one_line(const char *s)
{
	return s && *s && !strchr(s, '\n');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltt_trace *t;
	char err[512];
	size_t n;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/dev/shm/trax-fuzz-lv2-%d", (int)getpid());
		if (mkdir(dir, 0700) && access(dir, W_OK))
			snprintf(dir, sizeof(dir), "/tmp/trax-fuzz-lv2-%d", (int)getpid()),
			    mkdir(dir, 0700);
	}
	if (size < 2)
		return 0;
	n = (size_t)(data[0] | data[1] << 8);
	if (n > size - 2)
		n = size - 2;
	put_file("metadata_0", data + 2, n);
	put_file("cpu_0", data + 2 + n, size - 2 - n);

	t = ltt_trace_open(dir, err, sizeof(err));
	if (!t) {
		CHECK(one_line(err), "%s", err);
		return 0;
	}
	for (size_t i = 0; i < ltt_trace_class_count(t); i++)
		CHECK(ltt_trace_class(t, i)->index == i && ltt_trace_class(t, i)->payload);
	for (size_t i = 0; ltt_trace_warning(t, i); i++)
		CHECK(*ltt_trace_warning(t, i));
	for (size_t i = 0; i < ltt_trace_file_count(t); i++) {
		const struct ltt_file_info *fi = ltt_trace_file(t, i);
		struct ltt_cursor *c = ltt_cursor_open(t, i);
		struct ltt_event ev;
		uint64_t count = 0;
		int st;

		if (!c)
			continue;
		while ((st = ltt_cursor_next(c, &ev)) > 0) {
			char derr[256];
			long m;

			CHECK(ev.offset < (uint64_t)fi->blocks * fi->block_size);
			m = ltt_payload_decode(ev.cls->payload, &ev.cls->abi, ev.payload, ev.len, 0,
					       NULL, NULL, derr, sizeof(derr));
			CHECK(m == (long)ev.len, "%ld != %zu: %s", m, ev.len, derr);
			CHECK(++count <= (uint64_t)fi->blocks * fi->block_size / 4);
		}
		CHECK(st == 0 || one_line(ltt_cursor_error(c)), "%s", ltt_cursor_error(c));
		(void)ltt_cursor_warning(c);
		ltt_cursor_close(c);
	}
	ltt_trace_close(t);
	return 0;
}
