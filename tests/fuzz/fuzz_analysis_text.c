/*
 * fuzz_analysis_text.c - libFuzzer target for what `trax analyze` reads
 * from its command line and writes from traces (src/analysis): any text as
 * a --begin/--end time (range.c: a time, or -1 with a message; never a
 * crash), any bytes as a string written in JSON (table.c: printable ASCII
 * between quotes, whatever the input's UTF-8), and the first 8 bytes as a
 * double printed as Python does (reads back as itself).
 *
 * FUZZ-SOURCES: src/analysis/range.c src/analysis/table.c src/common/strbuf.c
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORT
#include "analysis/range.h"
#include "analysis/table.h"
#include "check.h"

/* range.c's stream intersection reads a reader: not fuzzed here */
size_t trax_reader_stream_count(struct trax_reader *r)
{
	(void)r;
	return (size_t)-1;
}
size_t trax_reader_trace_count(const struct trax_reader *r)
{
	(void)r;
	return 0;
}
int trax_reader_stream_info(struct trax_reader *r, size_t i, struct trax_stream_info *info)
{
	(void)r, (void)i, (void)info;
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256], num[64];
	struct strbuf sb;
	int64_t ns = 0;
	int flags = size ? data[0] : 0;

	memcpy(text, data, size);
	text[size] = 0;
	err[0] = 0;
	if (an_parse_time(text, flags & 1,
			  1795676416175197620LL + (int64_t)(flags >> 2) * 86400000000000LL,
			  flags & 2, &ns, err, sizeof(err)))
		CHECK(err[0] != 0);

	strbuf_init(&sb);
	an_json_string(&sb, text);
	CHECK(!sb.failed && sb.len >= 2 && sb.buf[0] == '"' && sb.buf[sb.len - 1] == '"');
	for (size_t i = 0; i < sb.len; i++)
		CHECK((unsigned char)sb.buf[i] >= 0x20 && (unsigned char)sb.buf[i] < 0x7f);
	strbuf_free(&sb);

	if (size >= 8) {
		double v;

		memcpy(&v, data, 8);
		an_py_float(num, sizeof(num), v);
		if (!isnan(v) && !isinf(v))
			CHECK(strtod(num, NULL) == v);
	}
	free(text);
	return 0;
}
