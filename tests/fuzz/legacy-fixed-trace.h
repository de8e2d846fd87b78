/*
 * legacy-fixed-trace.h - what the fuzzers of the pre-CTF readers share
 * (fuzz_legacy_v0.c, fuzz_legacy_convert.c): the fixed part of their 0.7
 * trace directory (the facility description and the facilities file
 * loading "test" as id 1) and the writing and removal of its files. Each
 * includes it once, before its own setup().
 */
#ifndef TRAX_TESTS_FUZZ_LEGACY_FIXED_TRACE_H
#define TRAX_TESTS_FUZZ_LEGACY_FIXED_TRACE_H

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

#endif /* TRAX_TESTS_FUZZ_LEGACY_FIXED_TRACE_H */
