/*
 * fuzz_legacy_convert.c - libFuzzer target for the converter of pre-CTF
 * traces (src/legacy/lconvert.c) and the reader of what it writes: the
 * input becomes a file of the fixed 0.7 trace of legacy-fixed-trace.h (its
 * first byte picks which: even cpu_0, odd control/facilities_0), which is
 * converted to CTF; whatever the input, the conversion ends (0, or an
 * error line), and the CTF trace it wrote reads back whole with
 * libtrax-reader, with as many events as it says it wrote.
 *
 * FUZZ-SOURCES: src/legacy/l*.c src/writer/[a-z]*.c src/reader/[a-z]*.c
 * src/common/[a-z]*.c
 * FUZZ-SEEDS: tests/fuzz/corpus/legacy_v0/[a-z0-9]*
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
#include "legacy/lconvert.h"
#include "trax/reader.h"

#include "legacy-fixed-trace.h"

static void cleanup(void)
{
	char out[96];

	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	snprintf(out, sizeof(out), "%s.ctf", dir);
	nftw(out, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

static void setup(void)
{
	char sub[96];

	/* in memory when it can: the files are rewritten for every input */
	snprintf(dir, sizeof(dir), "%s/fuzz_legacy_convert.XXXXXX",
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
	struct ltt_convert_stats st = {0};
	char err[1024], out[96];
	const char *paths[1] = {out};
	const struct trax_event *ev;
	struct trax_reader *r;
	uint64_t n = 0;
	int rc, s;

	if (!dir[0])
		setup();
	if (size < 1)
		return 0;
	fixed_facilities();
	write_file("cpu_0", NULL, 0);
	write_file((data[0] & 1) ? "control/facilities_0" : "cpu_0", data + 1, size - 1);
	snprintf(out, sizeof(out), "%s.ctf", dir);
	nftw(out, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	err[0] = 0;
	st.threads = (data[0] & 2) ? 2 : 1; /* a thread per tracefile, each its own open */
	rc = ltt_convert(dir, out, &st, err, sizeof(err));
	CHECK(rc == 0 || (rc < 0 && err[0]), "rc %d without a message", rc);
	if (rc == -2)
		return 0;
	r = trax_reader_open(paths, 1);
	CHECK(r != NULL, "the conversion does not open: %s", trax_reader_error(NULL));
	while ((s = trax_reader_next(r, &ev)) > 0)
		n++;
	CHECK(s == 0, "the conversion does not read: %s", trax_reader_error(r));
	CHECK(n == st.events, "%llu events read, %llu written", (unsigned long long)n,
	      (unsigned long long)st.events);
	trax_reader_close(r);
	return 0;
}
