/* clang-format off */
/*
 * fuzz_tsdl.c - libFuzzer target for the metadata layer of the reader: the
 * input is a metadata stream (plain TSDL text, or packetized when it starts
 * with the packet magic) read and parsed as `trax view` would.
 *
 * FUZZ-SOURCES: src/reader/ctf-arena.c src/reader/ctf-ir.c src/reader/tsdl-*.c src/reader/metadata-read.c src/common/hex.c
 * FUZZ-SEEDS: tests/reader/data/tsdl/[a-z]*.tsdl tests/reader/golden/[a-z]*[a-z]/metadata ../shared/conformance/ctf/[fs]*[a-z]/[a-z0-9]*[a-z0-9]/metadata
 * (each of these on one line: tools/fuzz.sh reads them; clang-format is off for this comment.)
 *
 * Built and run by tools/fuzz.sh (make fuzz). By hand, from the source tree:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc -D_GNU_SOURCE \
 *     tests/fuzz/fuzz_tsdl.c src/reader/ctf-arena.c src/reader/ctf-ir.c src/reader/tsdl-*.c \
 *     src/reader/metadata-read.c src/common/hex.c -o /tmp/fuzz_tsdl
 *   mkdir -p /tmp/tsdl-corpus && cp -r tests/reader/data/tsdl /tmp/tsdl-corpus/
 *   /tmp/fuzz_tsdl -max_total_time=60 -max_len=65536 /tmp/tsdl-corpus \
 *     ../shared/conformance/ctf/succeed
 *
 * (libFuzzer reads every file under the corpus directories as seeds.) Inputs
 * that found bugs are kept as tests/reader/data/tsdl/regress-*, which
 * test_tsdl replays.
 */
/* clang-format on */
#include <stddef.h>
#include <stdint.h>

#include "reader/metadata-read.h"
#include "reader/tsdl-parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ctf_metadata_text text;
	struct tsdl_error err;
	struct ctf_trace *trace;

	if (ctf_metadata_decode(data, size, "fuzz", &text, &err))
		return 0;
	trace = tsdl_parse(text.text, text.len, "fuzz", &err);
	ctf_trace_free(trace);
	ctf_metadata_text_free(&text);
	return 0;
}
