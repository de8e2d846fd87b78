/* clang-format off */
/*
 * fuzz_decode_prog.c - libFuzzer target: the compiled scope decoder
 * (decode-prog.h) against the generic one (decode-field.h) on fuzzer-made
 * metadata and bytes. Any disagreement (status, position, clock, value
 * trees, errors) aborts, with the details on stderr.
 *
 * FUZZ-SOURCES: src/reader/ctf-arena.c src/reader/ctf-ir.c src/reader/tsdl-*.c src/reader/metadata-read.c src/reader/packet-index.c src/reader/decode-*.c src/common/hex.c
 * (one line: tools/fuzz.sh reads it; clang-format is off for this comment.)
 *
 * The input is TSDL metadata text, a NUL byte, then one byte of flags (bits
 * 0-2: a start bit; bits 3-7: bits cut off the end), 8 bytes of initial
 * clock value (little endian) and the bytes to decode. For the first
 * event classes of the first stream classes, the chain of scopes (packet
 * header and context, event header, stream event context, event context and
 * fields) is decoded from the bytes, then more events after it, by the
 * generic decoder and, in the same state, by programs in the layouts of
 * tests/reader/test_decode_prog.c (whose differential engine this file
 * includes): one program per scope, the stream reader's (event body in one
 * program), the whole chain in one program, and ctf_decode_scope(). Each
 * with the whole bytes as the content, with the flags' start and cut, and
 * with a tiny content.
 *
 * Built and run by tools/fuzz.sh (make fuzz): `tools/fuzz.sh 120 decode_prog`.
 * The seeds (tests/fuzz/corpus/decode_prog/) are fuzz_decode.c's metadata
 * with its seed streams, and some of test_decode_prog.c's snippets.
 */
/* clang-format on */
#define DP_FUZZ 1
#include "../reader/test_decode_prog.c"

#define MAX_STREAMS 4
#define MAX_EVENTS  4

/* Decodes in[] (its bytes copied to exactly ceil(limit / 8) bytes) with every plan. */
static void run_limits(struct dp_plan *plans, const struct dp_input *in, const uint8_t *data,
		       size_t size)
{
	uint8_t *bytes = malloc((in->limit + 7) / 8 + 1);
	struct dp_input copy = *in;

	if (!bytes)
		return;
	CHECK(in->limit <= (uint64_t)size * 8);
	memcpy(bytes, data, (in->limit + 7) / 8);
	copy.buf = bytes;
	for (unsigned int l = 0; l < DP_LAYOUTS; l++)
		dp_run(&plans[l], &copy);
	free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size), *bytes;
	struct tsdl_error err;
	struct ctf_trace *trace;
	uint8_t flags = 0;
	uint64_t clock = 0, full, cut;
	size_t nbytes;

	if (!nul)
		return 0;
	trace = tsdl_parse((const char *)data, (size_t)(nul - data), "fuzz", &err);
	if (!trace)
		return 0;
	bytes = nul + 1;
	nbytes = size - (size_t)(bytes - data);
	if (nbytes) {
		flags = bytes[0];
		bytes++;
		nbytes--;
	}
	for (unsigned int i = 0; i < 8 && nbytes; i++) {
		clock |= (uint64_t)bytes[0] << (8 * i);
		bytes++;
		nbytes--;
	}
	full = (uint64_t)nbytes * 8;
	cut = flags >> 3;
	for (unsigned int s = 0; s < trace->stream_count && s < MAX_STREAMS; s++) {
		const struct ctf_stream_class *sc = trace->streams[s];
		unsigned int nev = sc->event_count ? sc->event_count : 1;

		for (unsigned int e = 0; e < nev && e < MAX_EVENTS; e++) {
			const struct ctf_type *types[CTF_SCOPE_COUNT];
			struct dp_plan plans[DP_LAYOUTS];
			struct dp_input in = {
			    .what = "fuzz input", .clock = clock, .max_events = 8};

			dp_chain(trace, sc, sc->event_count ? sc->events[e] : NULL, types);
			for (unsigned int l = 0; l < DP_LAYOUTS; l++)
				dp_plan_init(&plans[l], (enum dp_layout)l, types,
					     trace->byte_order);
			in.limit = full;
			run_limits(plans, &in, bytes, nbytes);
			in.limit = full > cut ? full - cut : 0;
			in.start = flags & 7;
			if (in.start > in.limit)
				in.start = in.limit;
			run_limits(plans, &in, bytes, nbytes);
			in.start = 0;
			in.limit = full < cut ? full : cut;
			run_limits(plans, &in, bytes, nbytes);
			for (unsigned int l = 0; l < DP_LAYOUTS; l++)
				dp_plan_free(&plans[l]);
		}
	}
	ctf_trace_free(trace);
	return 0;
}
