/* clang-format off */
/*
 * fuzz_decode.c - libFuzzer target for the stream decoder of the reader:
 * the input is a stream file of a fixed trace (the metadata below, which
 * exercises packet headers and contexts, LTTng's compact/extended event
 * header with a 27-bit clock, bit-packed and big-endian integers, floats,
 * strings, text and nested sequences, variants, empty structs, and a
 * stream class whose events have fixed layouts); every packet and event of
 * it is decoded as `trax view` would, and each event's values read through
 * (fingerprint()) as a printer reads them. The
 * stream is also read by a second reader that never fuses an event's
 * header and body into one run (no_fused_events): both must find the same
 * packets, events, values and errors. And a fourth time taking whatever it
 * can through ctf_stream_run() (the tight loop of fused events, stopped by
 * a time bound and by its visitor now and then), the rest through
 * ctf_stream_next(): the same events again, in the same order.
 *
 * FUZZ-SOURCES: src/reader/ctf-arena.c src/reader/ctf-ir.c src/reader/tsdl-*.c src/reader/metadata-read.c src/reader/packet-index.c src/reader/decode-*.c src/common/hex.c
 * (one line: tools/fuzz.sh reads it; clang-format is off for this comment.)
 *
 * Built and run by tools/fuzz.sh (make fuzz): `tools/fuzz.sh 60 decode`.
 * The seeds (tests/fuzz/corpus/decode/) are valid streams of this metadata.
 */
/* clang-format on */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHECK_ABORT
#include "check.h"
#include "reader/decode-clock.h"
#include "reader/decode-stream.h"
#include "reader/tsdl-parser.h"

static const char metadata[] =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "trace { major = 1; minor = 8; byte_order = le;\n"
    "	uuid = \"2a6422d0-6cee-11e0-8c08-cb07d7b3a564\";\n"
    "	packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; };\n"
    "};\n"
    "clock { name = c; freq = 1000000; offset = 5; };\n"
    "typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } := ts27;\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts64;\n"
    "struct event_header_compact {\n"
    "	enum : integer { size = 5; align = 1; signed = false; }\n"
    "		{ compact = 0 ... 30, extended = 31 } id;\n"
    "	variant <id> { struct { ts27 timestamp; } compact;\n"
    "		struct { uint32_t id; ts64 timestamp; } extended; } v;\n"
    "} align(8);\n"
    "stream { id = 0;\n"
    "	packet.context := struct { ts64 timestamp_begin; ts64 timestamp_end;\n"
    "		uint64_t content_size; uint64_t packet_size; uint64_t events_discarded;\n"
    "		uint64_t packet_seq_num; uint32_t cpu_id; };\n"
    "	event.header := struct event_header_compact;\n"
    "	event.context := struct { integer { size = 3; align = 1; signed = true; } s3;\n"
    "		integer { size = 13; align = 8; signed = false; byte_order = be; } u13; };\n"
    "};\n"
    "stream { id = 1; event.header := struct { uint16_t id; }; };\n"
    "stream { id = 2;\n"
    "	packet.context := struct { ts64 timestamp_begin; uint64_t content_size;\n"
    "		uint64_t packet_size; };\n"
    "	event.header := struct event_header_compact;\n"
    "};\n"
    "event { name = fixed; id = 0; stream_id = 2; fields := struct { uint8_t a;\n"
    "	integer { size = 32; align = 8; signed = true; } b; uint64_t c;\n"
    "	integer { size = 16; align = 8; signed = false; map = clock.c.value; } t16;\n"
    "	floating_point { exp_dig = 8; mant_dig = 24; align = 8; } f; }; };\n"
    "event { name = packed; id = 1; stream_id = 2; fields := struct {\n"
    "	integer { size = 3; align = 1; signed = true; } s3;\n"
    "	integer { size = 13; align = 1; signed = false; } u13;\n"
    "	integer { size = 64; align = 8; signed = true; } big; }; };\n"
    "event { name = withctx; id = 2; stream_id = 2; context := struct { uint16_t k; };\n"
    "	fields := struct { uint8_t v; }; };\n"
    "event { name = ints; id = 0; stream_id = 0; fields := struct { uint8_t a;\n"
    "	integer { size = 64; align = 8; signed = true; } b;\n"
    "	floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f;\n"
    "	floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d; }; };\n"
    "event { name = strs; id = 1; stream_id = 0; fields := struct { string s; uint8_t n;\n"
    "	integer { size = 8; align = 8; signed = false; encoding = UTF8; } t[n];\n"
    "	integer { size = 1; align = 1; signed = false; } bit;\n"
    "	integer { size = 8; align = 1; signed = false; encoding = ASCII; } ta[4]; }; };\n"
    "event { name = var; id = 2; stream_id = 0; fields := struct {\n"
    "	enum : uint8_t { A = 0, B = 1, C = 2 ... 5 } tag;\n"
    "	variant <tag> { uint32_t A; string B; struct { uint16_t x; uint8_t y[2]; } C; } v; }; };\n"
    "event { name = nested; id = 40; stream_id = 0; context := struct { uint8_t k; };\n"
    "	fields := struct { uint8_t n; struct { uint8_t len; uint16_t items[len]; } arr[n];\n"
    "	struct { } empty[3]; }; };\n"
    "event { name = one; id = 0; stream_id = 1; fields := struct { uint32_t v; }; };\n";

static struct ctf_trace *trace;

/* A hash of a value tree: kinds, numbers, bytes, counts (what a printer reads). */
static uint64_t fingerprint(const struct ctf_value *v, uint64_t h)
{
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 0x100000001b3ULL)
	if (!v)
		return MIX(0x5eed);
	MIX((uintptr_t)v->type);
	if (!v->type)
		return h;
	switch (v->type->kind) {
	case CTF_TYPE_INTEGER:
	case CTF_TYPE_ENUM:
	case CTF_TYPE_FLOAT:
		return MIX(v->u.u);
	case CTF_TYPE_STRING:
		goto str;
	case CTF_TYPE_ARRAY:
		if (ctf_type_is_text_element(v->type->u.array.element))
			goto str;
		goto list;
	case CTF_TYPE_SEQUENCE:
		if (ctf_type_is_text_element(v->type->u.sequence.element))
			goto str;
		goto list;
	case CTF_TYPE_STRUCT:
		goto list;
	case CTF_TYPE_VARIANT:
		MIX(v->u.variant.option);
		return fingerprint(v->u.variant.value, h);
	default:
		return h;
	}
str:
	MIX(v->u.str.len);
	for (uint64_t i = 0; i < v->u.str.len; i++)
		MIX((unsigned char)v->u.str.ptr[i]);
	return h;
list:
	MIX(v->u.list.count);
	for (uint64_t i = 0; i < v->u.list.count; i++)
		h = fingerprint(&v->u.list.items[i], h);
	return h;
#undef MIX
}

/* The reader r2 (no fused events) read what r read: status, event, values, error. */
static void check_same(const struct ctf_stream_reader *r, int st,
		       const struct ctf_stream_reader *r2, int st2)
{
	const char *what = NULL;

	if (st != st2)
		what = "status";
	else if (st < 0 && strcmp(r->error, r2->error))
		what = "error";
	else if (st == CTF_STREAM_EVENT) {
		const struct ctf_event *e = &r->event, *e2 = &r2->event;
		const struct ctf_value *v[4] = {e->header, e->stream_context, e->context,
						e->payload},
				       *v2[4] = {e2->header, e2->stream_context, e2->context,
						 e2->payload};

		if (e->cls != e2->cls || e->bit_offset != e2->bit_offset ||
		    e->has_clock != e2->has_clock || e->clock_value != e2->clock_value)
			what = "event";
		for (int k = 0; k < 4 && !what; k++)
			if (fingerprint(v[k], 1) != fingerprint(v2[k], 1))
				what = "values";
	}
	CHECK(!what, "with and without fused events, the %s differs (status %d and %d)", what, st,
	      st2);
}

/* What one ctf_stream_next() gave, for comparing two ways of reading. */
struct step {
	int st;
	const struct ctf_event_class *cls;
	uint64_t bit_offset, clock_value, fp;
	bool has_clock;
	uint64_t err; /* a hash of the error message */
};

struct steps {
	struct step *v;
	size_t n, cap;
	unsigned int visits;
};

static void step_add(struct steps *s, const struct ctf_stream_reader *r, int st)
{
	struct step x;

	memset(&x, 0, sizeof(x));
	x.st = st;
	if (st == CTF_STREAM_EVENT) {
		const struct ctf_event *e = &r->event;

		x.cls = e->cls;
		x.bit_offset = e->bit_offset;
		x.clock_value = e->clock_value;
		x.has_clock = e->has_clock;
		x.fp = fingerprint(e->payload,
				   fingerprint(e->context, fingerprint(e->stream_context,
								       fingerprint(e->header, 7))));
	} else if (st < 0) {
		x.err = 1469598103934665603ULL;
		for (const char *p = r->error; *p; p++)
			x.err = (x.err ^ (unsigned char)*p) * 0x100000001b3ULL;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			abort();
	}
	s->v[s->n++] = x;
}

struct run_ctx {
	struct steps *steps;
	const struct ctf_stream_reader *r;
};

static int run_visit(void *ctx, struct ctf_ss_stream *item)
{
	struct run_ctx *c = ctx;

	(void)item;
	step_add(c->steps, c->r, CTF_STREAM_EVENT);
	return ++c->steps->visits % 7 == 0; /* stop now and then */
}

/* Reads r to its end through ctf_stream_run() where it can: the steps. */
static void read_with_runs(struct ctf_stream_reader *r, struct steps *s, int64_t bound)
{
	struct run_ctx c = {s, r};
	int64_t ns = 0;

	for (;;) {
		struct ctf_stream_run run = {.base = 0,
					     .bound = bound,
					     .last_ns = INT64_MIN,
					     .ns_out = &ns,
					     .visit = run_visit,
					     .ctx = &c};
		int st, rs = ctf_stream_run(r, &run);

		if (rs == CTF_RUN_EVENT) {
			step_add(s, r, CTF_STREAM_EVENT); /* read, not visited */
			continue;
		}
		if (rs == CTF_RUN_VISITOR)
			continue;
		st = ctf_stream_next(r);
		step_add(s, r, st);
		if (st <= 0)
			return;
	}
}

static void compare_steps(const struct steps *a, const struct steps *b)
{
	for (size_t i = 0; i < a->n || i < b->n; i++)
		CHECK(i < a->n && i < b->n && !memcmp(&a->v[i], &b->v[i], sizeof(a->v[i])),
		      "read through ctf_stream_run(), step %zu differs (%zu and %zu steps)", i,
		      a->n, b->n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ctf_stream_reader *r, *r2;
	char path[64], err[512];
	uint64_t sum = 0;
	int fd, st;

	if (!trace) {
		struct tsdl_error terr;
		char msg[1200] = "";

		trace = tsdl_parse(metadata, sizeof(metadata) - 1, "fuzz-metadata", &terr);
		if (!trace)
			tsdl_error_format(&terr, msg, sizeof(msg));
		CHECK(trace, "the embedded metadata does not parse: %s", msg);
	}
	fd = memfd_create("fuzz-stream", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	r = ctf_stream_open(trace, path, err, sizeof(err));
	r2 = r ? ctf_stream_open(trace, path, err, sizeof(err)) : NULL;
	if (r2)
		r2->no_fused_events = true;
	if (r && r2) {
		for (;;) {
			int64_t ns;

			st = ctf_stream_next(r);
			check_same(r, st, r2, ctf_stream_next(r2));
			if (st <= 0)
				break;

			/* Touch what a printer reads. */
			if (st == CTF_STREAM_EVENT && r->event.has_clock &&
			    ctf_clock_cycles_to_ns(r->packet.clock, r->event.clock_value, &ns) == 0)
				sum += (uint64_t)ns;
			if (st == CTF_STREAM_EVENT) {
				const struct ctf_value *orig[4] = {
				    r->packet.context, r->event.stream_context, r->event.context,
				    r->event.payload};

				for (int k = 0; k < 4; k++)
					sum += fingerprint(orig[k], 0xcbf29ce484222325ULL);
			}
		}
	}
	ctf_stream_close(r);
	ctf_stream_close(r2);
	/* the same stream through ctf_stream_run(), against ctf_stream_next() alone */
	r = ctf_stream_open(trace, path, err, sizeof(err));
	r2 = r ? ctf_stream_open(trace, path, err, sizeof(err)) : NULL;
	if (r && r2) {
		struct steps a = {0}, b = {0};
		/* a time bound from the input: some runs end at an event they read */
		int64_t bound = size >= 2 && (data[size - 1] & 1)
				    ? (int64_t)((uint64_t)data[size - 2] << (data[size - 1] % 40))
				    : INT64_MAX;

		for (;;) {
			st = ctf_stream_next(r);
			step_add(&a, r, st);
			if (st <= 0)
				break;
		}
		read_with_runs(r2, &b, bound);
		compare_steps(&a, &b);
		free(a.v);
		free(b.v);
	}
	ctf_stream_close(r);
	ctf_stream_close(r2);
	close(fd);
	return (int)(sum & 0); /* keeps sum alive */
}
