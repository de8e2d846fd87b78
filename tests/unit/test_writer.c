/*
 * test_writer.c - the CTF writer alone, from a description made by hand
 * (writer/desc.h): every kind of field gives the TSDL text expected of it
 * (nested structures indented, enumeration values written signed or not
 * as each says, implicit ones without a value, byte orders, encodings),
 * the context fields their stream block, and a tiny trace made of that
 * metadata and one packet written here reads back with babeltrace2 with
 * the values put in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "common/strbuf.h"
#include "writer/contexts.h"
#include "writer/metadata.h"
#include "writer/packet.h"
#include "writer/trace-env.h"

/* A byte-aligned integer type of the trace's byte order. */
#define INT(bits, sig, display_base)                                                               \
	{                                                                                          \
		.kind = CTFW_TYPE_INTEGER, .integer = {                                            \
			.size = (bits),                                                            \
			.align = 8,                                                                \
			.is_signed = (sig),                                                        \
			.base = (display_base)                                                     \
		}                                                                                  \
	}

static const struct ctfw_type u8 = INT(8, false, 10);
static const struct ctfw_type u16 = INT(16, false, 10);
static const struct ctfw_type utf8_char = {
    .kind = CTFW_TYPE_INTEGER,
    .integer =
	{.size = 8, .align = 8, .is_signed = true, .base = 10, .encoding = CTFW_ENCODING_UTF8},
};

static const struct ctfw_enum_mapping signed_mappings[] = {
    {.label = "NEG", .start = -5, .end = -5, .start_signed = true, .end_signed = true},
    {.label = "RANGE", .start = 10, .end = 20, .start_signed = true, .end_signed = true},
    {.label = "AUTO", .start = 21, .end = 21, .implicit = true},
};

/* As LTTng-UST writes a -5 and a 200 of its source in an unsigned enumeration. */
static const struct ctfw_enum_mapping unsigned_mappings[] = {
    {.label = "MINUS", .start = -5, .end = -5, .start_signed = true, .end_signed = true},
    {.label = "HIGH", .start = 200, .end = -1, .start_signed = false, .end_signed = false},
};

static const struct ctfw_field inner_fields[] = {
    {.name = "c", .type = INT(16, true, 10)},
};

static const struct ctfw_field st_fields[] = {
    {.name = "a", .type = INT(8, false, 10)},
    {.name = "b", .type = {.kind = CTFW_TYPE_STRING}},
    {.name = "inner",
     .type = {.kind = CTFW_TYPE_STRUCT, .structure = {.fields = inner_fields, .nr_fields = 1}}},
};

static const struct ctfw_field point_fields[] = {
    {.name = "x", .type = INT(8, false, 10)},
};

static const struct ctfw_type point = {
    .kind = CTFW_TYPE_STRUCT,
    .structure = {.fields = point_fields, .nr_fields = 1},
};

static const struct ctfw_field every_kind[] = {
    {.name = "u8_hex", .type = INT(8, false, 16)},
    {.name = "s64_be",
     .type = {.kind = CTFW_TYPE_INTEGER,
	      .integer = {.size = 64,
			  .align = 8,
			  .is_signed = true,
			  .base = 10,
			  .byte_order = CTFW_BYTE_ORDER_BE}}},
    {.name = "u32_le",
     .type = {.kind = CTFW_TYPE_INTEGER,
	      .integer = {.size = 32, .align = 8, .base = 10, .byte_order = CTFW_BYTE_ORDER_LE}}},
    {.name = "f32", .type = {.kind = CTFW_TYPE_FLOAT, .floating = {8, 24, 8}}},
    {.name = "f64", .type = {.kind = CTFW_TYPE_FLOAT, .floating = {11, 53, 8}}},
    {.name = "str", .type = {.kind = CTFW_TYPE_STRING}},
    {.name = "en",
     .type = {.kind = CTFW_TYPE_ENUM,
	      .enumeration = {.container = {.size = 32, .align = 8, .is_signed = true, .base = 10},
			      .mappings = signed_mappings,
			      .nr_mappings = 3}}},
    {.name = "uen",
     .type = {.kind = CTFW_TYPE_ENUM,
	      .enumeration = {.container = {.size = 8, .align = 8, .base = 10},
			      .mappings = unsigned_mappings,
			      .nr_mappings = 2}}},
    {.name = "arr", .type = {.kind = CTFW_TYPE_ARRAY, .array = {.elem = &u16, .length = 4}}},
    {.name = "text", .type = {.kind = CTFW_TYPE_ARRAY, .array = {.elem = &utf8_char, .length = 3}}},
    {.name = "seq",
     .type = {.kind = CTFW_TYPE_SEQUENCE,
	      .sequence = {.elem = &u8, .length = {.size = 32, .align = 8, .base = 10}}}},
    {.name = "st",
     .type = {.kind = CTFW_TYPE_STRUCT, .structure = {.fields = st_fields, .nr_fields = 3}}},
    {.name = "pts", .type = {.kind = CTFW_TYPE_ARRAY, .array = {.elem = &point, .length = 2}}},
};

static const struct ctfw_event_class every_kind_class = {
    .name = "test:every_kind",
    .loglevel = 13,
    .model_emf_uri = "urn:\"model\"",
    .fields = every_kind,
    .nr_fields = sizeof(every_kind) / sizeof(every_kind[0]),
};

static const char every_kind_tsdl[] =
    "event {\n"
    "\tname = \"test:every_kind\";\n"
    "\tid = 3;\n"
    "\tstream_id = 1;\n"
    "\tloglevel = 13;\n"
    "\tmodel.emf.uri = \"urn:\\\"model\\\"\";\n"
    "\tfields := struct {\n"
    "\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 16; } _u8_hex;\n"
    "\t\tinteger { size = 64; align = 8; signed = 1; encoding = none; base = 10; byte_order = be; "
    "} _s64_be;\n"
    "\t\tinteger { size = 32; align = 8; signed = 0; encoding = none; base = 10; byte_order = le; "
    "} _u32_le;\n"
    "\t\tfloating_point { exp_dig = 8; mant_dig = 24; align = 8; } _f32;\n"
    "\t\tfloating_point { exp_dig = 11; mant_dig = 53; align = 8; } _f64;\n"
    "\t\tstring _str;\n"
    "\t\tenum : integer { size = 32; align = 8; signed = 1; encoding = none; base = 10; } {\n"
    "\t\t\t\"NEG\" = -5,\n"
    "\t\t\t\"RANGE\" = 10 ... 20,\n"
    "\t\t\t\"AUTO\"\n"
    "\t\t} _en;\n"
    "\t\tenum : integer { size = 8; align = 8; signed = 0; encoding = none; base = 10; } {\n"
    "\t\t\t\"MINUS\" = -5,\n"
    "\t\t\t\"HIGH\" = 200 ... 18446744073709551615\n"
    "\t\t} _uen;\n"
    "\t\tinteger { size = 16; align = 8; signed = 0; encoding = none; base = 10; } _arr[4];\n"
    "\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } _text[3];\n"
    "\t\tinteger { size = 32; align = 8; signed = 0; encoding = none; base = 10; } "
    "__seq_length;\n"
    "\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 10; } _seq[ "
    "__seq_length ];\n"
    "\t\tstruct {\n"
    "\t\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 10; } _a;\n"
    "\t\t\tstring _b;\n"
    "\t\t\tstruct {\n"
    "\t\t\t\tinteger { size = 16; align = 8; signed = 1; encoding = none; base = 10; } _c;\n"
    "\t\t\t} _inner;\n"
    "\t\t} _st;\n"
    "\t\tstruct {\n"
    "\t\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 10; } _x;\n"
    "\t\t} _pts[2];\n"
    "\t};\n"
    "};\n\n";

/* Shows where two texts part, for a failed comparison. */
static void check_text(const struct strbuf *sb, const char *want, const char *what)
{
	size_t i = 0;

	CHECK(!sb->failed, "%s: out of memory", what);
	if (sb->failed)
		return;
	while (i < sb->len && want[i] && sb->buf[i] == want[i])
		i++;
	CHECK(i == sb->len && !want[i], "%s differs at byte %zu:\n--- got\n%.*s\n--- want\n%s",
	      what, i, (int)sb->len, sb->buf, want);
}

static void test_event_every_kind(void)
{
	struct strbuf sb;

	strbuf_init(&sb);
	ctf_metadata_event(&sb, &every_kind_class, 3, 1);
	check_text(&sb, every_kind_tsdl, "event of every kind");
	strbuf_free(&sb);
}

static void test_event_without_fields(void)
{
	const struct ctfw_event_class bare = {.name = "test:bare", .loglevel = -1};
	struct strbuf sb;

	strbuf_init(&sb);
	ctf_metadata_event(&sb, &bare, 0, 0);
	check_text(&sb,
		   "event {\n\tname = \"test:bare\";\n\tid = 0;\n\tstream_id = 0;\n"
		   "\tfields := struct { };\n};\n\n",
		   "event without fields, log level or EMF URI");
	strbuf_free(&sb);
}

/* A variant and its tag: the labels carry the '_' the writer gives option names. */
static void test_event_variant(void)
{
	static const struct ctfw_enum_mapping tag_mappings[] = {
	    {.label = "_num", .start = 0, .end = 0},
	    {.label = "_text", .start = 1, .end = 1},
	};
	static const struct ctfw_field options[] = {
	    {.name = "num", .type = INT(16, true, 10)},
	    {.name = "text", .type = {.kind = CTFW_TYPE_STRING}},
	};
	static const struct ctfw_field fields[] = {
	    {.name = "u_tag",
	     .type = {.kind = CTFW_TYPE_ENUM,
		      .enumeration = {.container = {.size = 8, .align = 8, .base = 10},
				      .mappings = tag_mappings,
				      .nr_mappings = 2}}},
	    {.name = "u",
	     .type = {.kind = CTFW_TYPE_VARIANT,
		      .variant = {.tag = "u_tag", .options = options, .nr_options = 2}}},
	};
	const struct ctfw_event_class ev = {
	    .name = "test:variant", .loglevel = -1, .fields = fields, .nr_fields = 2};
	struct strbuf sb;

	strbuf_init(&sb);
	ctf_metadata_event(&sb, &ev, 1, 0);
	check_text(
	    &sb,
	    "event {\n\tname = \"test:variant\";\n\tid = 1;\n\tstream_id = 0;\n"
	    "\tfields := struct {\n"
	    "\t\tenum : integer { size = 8; align = 8; signed = 0; encoding = none; base = "
	    "10; } {\n"
	    "\t\t\t\"_num\" = 0,\n"
	    "\t\t\t\"_text\" = 1\n"
	    "\t\t} _u_tag;\n"
	    "\t\tvariant <_u_tag> {\n"
	    "\t\t\tinteger { size = 16; align = 8; signed = 1; encoding = none; base = 10; } "
	    "_num;\n"
	    "\t\t\tstring _text;\n"
	    "\t\t} _u;\n"
	    "\t};\n};\n\n",
	    "event with a variant");
	strbuf_free(&sb);
}

static void test_stream_contexts(void)
{
	const uint8_t contexts[] = {CTF_CTX_VTID, CTF_CTX_PROCNAME, CTF_CTX_IP, CTF_CTX_COUNT};
	struct ctfw_field fields[CTF_CTX_COUNT];
	struct ctfw_stream s = {.id = 2, .event_context = fields};
	struct strbuf sb;

	/* the unknown context (CTF_CTX_COUNT) is left out */
	s.nr_event_context = ctf_context_fields(fields, contexts, 4);
	CHECK_EQ(s.nr_event_context, 3);
	strbuf_init(&sb);
	ctf_metadata_stream(&sb, &s);
	check_text(&sb,
		   "stream {\n\tid = 2;\n\tevent.header := struct event_header_compact;\n"
		   "\tpacket.context := struct packet_context;\n"
		   "\tevent.context := struct {\n"
		   "\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } "
		   "_vtid;\n"
		   "\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } "
		   "_procname[17];\n"
		   "\t\tinteger { size = 64; align = 8; signed = 0; encoding = none; base = 10; } "
		   "_ip;\n"
		   "\t};\n};\n\n",
		   "stream with contexts");
	strbuf_free(&sb);

	s.nr_event_context = 0;
	strbuf_init(&sb);
	ctf_metadata_stream(&sb, &s);
	check_text(&sb,
		   "stream {\n\tid = 2;\n\tevent.header := struct event_header_compact;\n"
		   "\tpacket.context := struct packet_context;\n};\n\n",
		   "stream without contexts");
	strbuf_free(&sb);

	/* names and sizes from the same table as the types */
	for (int c = 0; c < CTF_CTX_COUNT; c++)
		CHECK_EQ(ctf_context_from_name(ctf_context_name(c)), c);
	CHECK_EQ(ctf_context_from_name("vpids"), -1);
	CHECK_EQ(ctf_context_size(CTF_CTX_VPID), 4);
	CHECK_EQ(ctf_context_size(CTF_CTX_PROCNAME), CTF_PROCNAME_LEN);
	CHECK_EQ(ctf_context_size(CTF_CTX_PTHREAD_ID), 8);
}

/* ---- a tiny trace of that description, read back by babeltrace2 ---- */

struct bytes {
	uint8_t buf[CTF_PACKET_ALIGN];
	size_t len;
};

static void put(struct bytes *b, const void *p, size_t n)
{
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

static void put_be64(struct bytes *b, uint64_t v)
{
	for (int i = 7; i >= 0; i--)
		b->buf[b->len++] = (uint8_t)(v >> (8 * i));
}

/* One record of test:every_kind, id 3, at time ts, vtid 77 in its context. */
static void put_record(struct bytes *b, uint64_t ts)
{
	uint32_t header = 3u | (uint32_t)(ts << 5);
	int32_t vtid = 77, en = 15;
	uint8_t u8_hex = 0x2a, uen = 251; /* -5 as a byte */
	uint32_t u32_le = 7, seq_len = 2;
	float f32 = 1.5f;
	double f64 = -0.25;
	uint16_t arr[4] = {1, 2, 3, 4};
	uint8_t seq[2] = {9, 8}, a = 1, pts[2] = {5, 6};
	int16_t c = -3;

	put(b, &header, 4); /* compact: 5-bit id, 27-bit time stamp (little-endian) */
	put(b, &vtid, 4);
	put(b, &u8_hex, 1);
	put_be64(b, (uint64_t)-2);
	put(b, &u32_le, 4);
	put(b, &f32, 4);
	put(b, &f64, 8);
	put(b, "hi", 3);
	put(b, &en, 4);
	put(b, &uen, 1);
	put(b, arr, sizeof(arr));
	put(b, "ab", 3);
	put(b, &seq_len, 4);
	put(b, seq, 2);
	put(b, &a, 1);
	put(b, "x", 2);
	put(b, &c, 2);
	put(b, pts, 2);
}

static int write_file(const char *dir, const char *name, const void *buf, size_t len)
{
	char path[512];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fwrite(buf, 1, len, f) == len;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static char *read_file(const char *path)
{
	static char text[16384];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	return text;
}

static void test_babeltrace_reads_it(void)
{
	static const uint8_t uuid[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
	const uint8_t contexts[] = {CTF_CTX_VTID};
	struct ctfw_env_entry env[CTF_ENV_UST_MAX];
	struct ctf_env_ust_desc ed = {.buffering_id = 1000,
				      .bits = 64,
				      .trace_name = "unit",
				      .creation_datetime = "20260101T000000+0000",
				      .hostname = "host"};
	struct ctfw_trace trace = {
	    .clock = {"monotonic", "a test clock", 1000000000, 0, 0,
		      "01020304-0506-0708-090a-0b0c0d0e0f10"},
	    .env = env,
	};
	struct ctfw_field context[CTF_CTX_COUNT];
	struct ctfw_stream stream = {.id = 1, .event_context = context};
	struct ctf_packet_header h;
	static struct bytes packet;
	char dir[] = "/tmp/trax-test-writer.XXXXXX", cmd[1200], out[600];
	struct strbuf sb;
	const char *text;

	memcpy(trace.uuid, uuid, 16);
	trace.nr_env = ctf_env_ust(env, &ed);
	stream.nr_event_context = ctf_context_fields(context, contexts, 1);
	strbuf_init(&sb);
	ctf_metadata_trace(&sb, &trace);
	ctf_metadata_stream(&sb, &stream);
	ctf_metadata_event(&sb, &every_kind_class, 3, 1);
	CHECK(!sb.failed);
	CHECK(strstr(sb.buf, "\ttracer_name = \"lttng-ust\";\n\ttracer_major = 2;\n"),
	      "env block:\n%s", sb.buf);

	ctf_packet_open(&h, uuid, 1, 0, 1000, 0);
	packet.len = sizeof(h);
	put_record(&packet, 1500);
	ctf_packet_close(&h, 2000, packet.len, 0);
	memcpy(packet.buf, &h, sizeof(h));
	CHECK_EQ(h.packet_size, 8 * CTF_PACKET_ALIGN);

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		strbuf_free(&sb);
		return;
	}
	CHECK(write_file(dir, "metadata", sb.buf, sb.len) == 0);
	CHECK(write_file(dir, "chan_0", packet.buf, sizeof(packet.buf)) == 0);
	strbuf_free(&sb);
	snprintf(out, sizeof(out), "%s.txt", dir);
	snprintf(cmd, sizeof(cmd), "babeltrace2 '%s' >'%s' 2>&1", dir, out);
	CHECK(system(cmd) == 0, "%s:\n%s", cmd, read_file(out));
	text = read_file(out);
	CHECK(text &&
		  strstr(text, "test:every_kind: { cpu_id = 0 }, { vtid = 77 }, { u8_hex = 0x2A, "
			       "s64_be = -2, u32_le = 7, f32 = 1.5, f64 = -0.25, "
			       "str = \"hi\", en = ( \"RANGE\" : container = 15 ), "
			       "uen = ( \"HIGH\" : container = 251 ), "
			       "arr = [ [0] = 1, [1] = 2, [2] = 3, [3] = 4 ], text = \"ab\", "
			       "_seq_length = 2, seq = [ [0] = 9, [1] = 8 ], "
			       "st = { a = 1, b = \"x\", inner = { c = -3 } }, "
			       "pts = [ [0] = { x = 5 }, [1] = { x = 6 } ] }\n"),
	      "babeltrace2 printed:\n%s", text ? text : "(nothing)");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", dir, out);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	test_event_every_kind();
	test_event_without_fields();
	test_event_variant();
	test_stream_contexts();
	test_babeltrace_reads_it();
	return CHECK_RESULT();
}
