/*
 * test_tsdl.c - the metadata layer of the reader: TSDL lexer and parser,
 * field path resolution, packetized metadata.
 *
 * - every metadata of the conformance corpus's valid traces parses (plain
 *   and packetized), and the model holds the values read by hand from
 *   several of them;
 * - every invalid trace whose fault is in its metadata is refused with a
 *   one-line "FILE:LINE:COL: ..." error (or "FILE: ..." for packet headers);
 * - snippets of tests/reader/data/ exercise the language corner by corner;
 * - truncated and mutated copies of every valid metadata parse or fail
 *   cleanly (run under ASan/UBSan by the sanitizer build).
 *
 * Environment: TRAX_CONFORMANCE (the corpus), TRAX_SRC (the source tree).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf, nftw */
#endif
#include <dirent.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "reader/ctf-ir.h"
#include "reader/metadata-read.h"
#include "reader/tsdl-parser.h"

static const char *conformance_dir(void)
{
	const char *dir = getenv("TRAX_CONFORMANCE");

	return dir && *dir ? dir : "../shared/conformance";
}

static const char *source_dir(void)
{
	const char *dir = getenv("TRAX_SRC");

	return dir && *dir ? dir : ".";
}

static char *path_join(const char *a, const char *b)
{
	char *p;

	if (asprintf(&p, "%s/%s", a, b) < 0)
		abort();
	return p;
}

static void print_error(const struct tsdl_error *err)
{
	char line[1200];

	tsdl_error_format(err, line, sizeof(line));
	fprintf(stderr, "  %s\n", line);
}

/* Loads TRAX_CONFORMANCE/ctf/KIND/REL (a metadata file); NULL (reported) on error. */
static struct ctf_trace *load_corpus(const char *kind, const char *rel, struct tsdl_error *err)
{
	char *dir = path_join(conformance_dir(), "ctf");
	char *kdir = path_join(dir, kind);
	char *path = path_join(kdir, rel);
	struct ctf_trace *trace = ctf_metadata_load(path, err);

	free(dir);
	free(kdir);
	free(path);
	return trace;
}

/* ---- every metadata file of a directory tree ---- */

static char **found_files;
static size_t found_count;

static int collect_metadata(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	if (type == FTW_F && strcmp(path + ftw->base, "metadata") == 0) {
		found_files = realloc(found_files, (found_count + 1) * sizeof(*found_files));
		found_files[found_count++] = strdup(path);
	}
	return 0;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_metadata(const char *root)
{
	for (size_t i = 0; i < found_count; i++)
		free(found_files[i]);
	free(found_files);
	found_files = NULL;
	found_count = 0;
	nftw(root, collect_metadata, 16, FTW_PHYS);
	qsort(found_files, found_count, sizeof(*found_files), compare_strings);
}

static void test_succeed_corpus(void)
{
	char *ctf = path_join(conformance_dir(), "ctf");
	char *root = path_join(ctf, "succeed");
	size_t parsed = 0;

	find_metadata(root);
	CHECK(found_count >= 30, "only %zu metadata files under %s", found_count, root);
	for (size_t i = 0; i < found_count; i++) {
		struct tsdl_error err;
		struct ctf_trace *trace = ctf_metadata_load(found_files[i], &err);

		CHECK(trace != NULL, "%s does not parse", found_files[i]);
		if (!trace) {
			print_error(&err);
			continue;
		}
		parsed++;
		CHECK(trace->major == 1 && trace->minor == 8, "%s: version", found_files[i]);
		CHECK(trace->byte_order != CTF_BYTE_ORDER_UNSET, "%s: byte order", found_files[i]);
		ctf_trace_free(trace);
	}
	printf("succeed corpus: %zu/%zu metadata files parsed\n", parsed, found_count);
	free(ctf);
	free(root);
}

/* ---- checks by hand on some traces of the corpus ---- */

static const struct ctf_type *field_type(const struct ctf_type *st, const char *name)
{
	const struct ctf_field *f = ctf_struct_field(st, name);

	return f ? f->type : NULL;
}

static bool is_uint(const struct ctf_type *t, unsigned int size, unsigned int align,
		    unsigned int base)
{
	return t && t->kind == CTF_TYPE_INTEGER && t->u.integer.size == size && t->align == align &&
	       !t->u.integer.is_signed && t->u.integer.base == base;
}

static bool path_is(const struct ctf_field_path *p, enum ctf_scope scope, unsigned int length,
		    const int32_t *steps)
{
	if (p->scope != scope || p->length != length)
		return false;
	for (unsigned int i = 0; i < length; i++)
		if (p->steps[i] != steps[i])
			return false;
	return true;
}

static void test_smalltrace(void)
{
	static const uint8_t uuid[16] = {0x2a, 0x64, 0x22, 0xd0, 0x6c, 0xee, 0x11, 0xe0,
					 0x8c, 0x08, 0xcb, 0x07, 0xd7, 0xb3, 0xa5, 0x64};
	struct tsdl_error err;
	struct ctf_trace *t = load_corpus("succeed", "smalltrace/metadata", &err);
	const struct ctf_type *magic, *uuid_field, *str;
	const struct ctf_event_class *ev;

	CHECK(t, "smalltrace");
	if (!t)
		return;
	CHECK(t->byte_order == CTF_BYTE_ORDER_LE, "byte order");
	CHECK(t->has_uuid && memcmp(t->uuid, uuid, 16) == 0, "uuid");
	magic = field_type(t->packet_header, "magic");
	CHECK(is_uint(magic, 32, 32, 16), "magic is a hex uint32");
	CHECK(magic && magic->u.integer.byte_order == CTF_BYTE_ORDER_LE, "native = le");
	uuid_field = field_type(t->packet_header, "uuid");
	CHECK(uuid_field && uuid_field->kind == CTF_TYPE_ARRAY &&
		  uuid_field->u.array.length == 16 &&
		  is_uint(uuid_field->u.array.element, 8, 8, 10),
	      "uuid is uint8_t[16]");
	CHECK(t->stream_count == 1 && !t->streams[0]->has_id && t->streams[0]->event_count == 1,
	      "one implicit stream with one event");
	ev = ctf_stream_event(t->streams[0], 0);
	CHECK(ev && strcmp(ev->name, "string") == 0 && !ev->has_loglevel, "event 'string'");
	str = ev ? field_type(ev->fields, "str") : NULL;
	CHECK(str && str->kind == CTF_TYPE_STRING && str->u.string.encoding == CTF_ENCODING_UTF8,
	      "str is a UTF-8 string");
	ctf_trace_free(t);
}

static void test_sequence(void)
{
	static const int32_t first[] = {0};
	struct tsdl_error err;
	struct ctf_trace *t = load_corpus("succeed", "sequence/metadata", &err);
	const struct ctf_env_entry *env;
	const struct ctf_clock *clock;
	const struct ctf_stream_class *s;
	const struct ctf_type *id, *v, *ts, *len, *seq, *el;
	const struct ctf_event_class *ev;

	CHECK(t, "sequence");
	if (!t)
		return;
	env = ctf_trace_env(t, "hostname");
	CHECK(env && env->is_string && strcmp(env->string, "host") == 0, "env hostname");
	env = ctf_trace_env(t, "tracer_minor");
	CHECK(env && !env->is_string && env->integer == 3, "env tracer_minor");
	clock = ctf_trace_clock(t, "monotonic");
	CHECK(clock && clock->freq == 1000000000 && clock->offset == 1375437179542680815LL &&
		  clock->offset_s == 0 && clock->has_uuid && clock->uuid[0] == 0x5f &&
		  clock->description && strcmp(clock->description, "Monotonic Clock") == 0,
	      "clock monotonic");
	s = ctf_trace_stream(t, 0);
	CHECK(s && s->has_id && s->event_count == 1, "stream 0");
	if (!s)
		goto out;
	CHECK(s->event_header && s->event_header->align == 8, "event header align(8)");
	id = field_type(s->event_header, "id");
	CHECK(id && id->kind == CTF_TYPE_ENUM && id->u.enumeration.container.size == 5 &&
		  id->align == 1 && id->u.enumeration.mapping_count == 2,
	      "5-bit id enum");
	if (id && id->kind == CTF_TYPE_ENUM && id->u.enumeration.mapping_count == 2) {
		const struct ctf_enum_mapping *m = id->u.enumeration.mappings;

		CHECK(strcmp(m[0].label, "compact") == 0 && m[0].start == 0 && m[0].end == 30,
		      "compact = 0 ... 30");
		CHECK(strcmp(m[1].label, "extended") == 0 && m[1].start == 31 && m[1].end == 31,
		      "extended = 31");
	}
	v = field_type(s->event_header, "v");
	CHECK(v && v->kind == CTF_TYPE_VARIANT && v->align == 1, "v is a variant");
	if (v && v->kind == CTF_TYPE_VARIANT) {
		CHECK(path_is(&v->u.variant.tag, CTF_SCOPE_EVENT_HEADER, 1, first), "tag path");
		CHECK(v->u.variant.tag_type == id, "tag type is the id enum");
		CHECK(v->u.variant.option_of_mapping[0] == 0 &&
			  v->u.variant.option_of_mapping[1] == 1,
		      "labels map to options");
		ts = field_type(v->u.variant.options[0].type, "timestamp");
		CHECK(ts && ts->kind == CTF_TYPE_INTEGER && ts->u.integer.size == 27 &&
			  ts->u.integer.clock == clock,
		      "compact timestamp: 27 bits of clock monotonic");
	}
	CHECK(is_uint(field_type(s->packet_context, "events_discarded"), 64, 8, 10),
	      "unsigned long events_discarded");
	ev = ctf_stream_event(s, 0);
	CHECK(ev && strcmp(ev->name, "sequence event") == 0 && ev->has_loglevel &&
		  ev->loglevel == 1,
	      "event 'sequence event'");
	if (!ev)
		goto out;
	CHECK(ev->fields->u.structure.field_count == 4, "4 fields");
	len = field_type(ev->fields, "__seq_int_field_length");
	seq = field_type(ev->fields, "_seq_int_field");
	CHECK(is_uint(len, 64, 8, 10), "length field");
	CHECK(seq && seq->kind == CTF_TYPE_SEQUENCE, "sequence field");
	if (seq && seq->kind == CTF_TYPE_SEQUENCE) {
		CHECK(path_is(&seq->u.sequence.length, CTF_SCOPE_EVENT_FIELDS, 1, first),
		      "length path");
		CHECK(seq->u.sequence.length_type == len, "length type");
		el = seq->u.sequence.element;
		CHECK(el->kind == CTF_TYPE_INTEGER && el->u.integer.size == 32 &&
			  el->u.integer.is_signed,
		      "elements are int32");
	}
	CHECK(strcmp(ev->fields->u.structure.fields[1].display_name, "seq_int_field") == 0 &&
		  strcmp(ev->fields->u.structure.fields[0].display_name, "_seq_int_field_length") ==
		      0,
	      "display names lose one underscore");
out:
	ctf_trace_free(t);
}

static void test_wk_heartbeat(void)
{
	struct tsdl_error err;
	struct ctf_trace *t = load_corpus("succeed", "wk-heartbeat-u/metadata", &err);
	const struct ctf_env_entry *env;
	const struct ctf_event_class *ev;
	const struct ctf_type *vtid;

	CHECK(t, "wk-heartbeat-u (packetized)");
	if (!t)
		return;
	env = ctf_trace_env(t, "vpid");
	CHECK(env && !env->is_string && env->integer == 3208, "env vpid");
	env = ctf_trace_env(t, "procname");
	CHECK(env && env->is_string && strcmp(env->string, "wk-heartbeat") == 0, "env procname");
	CHECK(t->stream_count == 1 && t->streams[0]->event_count == 1, "1 stream, 1 event");
	ev = ctf_trace_event_by_name(t, "heartbeat:msg");
	CHECK(ev && ev->id == 0 && ev->loglevel == 13, "heartbeat:msg, loglevel 13");
	CHECK(ev && ev->fields->u.structure.field_count == 1 &&
		  ev->fields->u.structure.fields[0].type->kind == CTF_TYPE_STRING &&
		  strcmp(ev->fields->u.structure.fields[0].display_name, "msg") == 0,
	      "field _msg shown as msg");
	vtid = field_type(t->streams[0]->event_context, "_vtid");
	CHECK(vtid && vtid->kind == CTF_TYPE_INTEGER && vtid->u.integer.is_signed &&
		  vtid->u.integer.size == 32,
	      "event context _vtid is int32");
	ctf_trace_free(t);
}

static void test_trace_with_index(void)
{
	struct tsdl_error err;
	struct ctf_metadata_text text;
	struct ctf_trace *t;
	const struct ctf_clock *clock;
	const struct ctf_type *id;
	char *ctf = path_join(conformance_dir(), "ctf");
	char *path = path_join(ctf, "succeed/trace-with-index/metadata");

	CHECK(ctf_metadata_read_file(path, &text, &err) == 0, "read");
	CHECK(text.packetized && text.packet_count == 2 && text.byte_order == CTF_BYTE_ORDER_LE,
	      "2 little-endian packets, got %u", text.packet_count);
	CHECK(text.len == (20264 + 296) / 8 - 2 * CTF_METADATA_PACKET_HEADER_SIZE,
	      "payload bytes %zu", text.len);
	ctf_metadata_text_free(&text);
	t = ctf_metadata_load(path, &err);
	CHECK(t, "trace-with-index");
	if (!t)
		goto out;
	clock = ctf_trace_clock(t, "monotonic");
	CHECK(clock && clock->offset == 1564079206484157339LL, "clock named by a string");
	CHECK(t->stream_count == 1 && t->streams[0]->event_count == 1, "1 stream, 1 event");
	id = field_type(t->streams[0]->event_header, "id");
	CHECK(id && id->kind == CTF_TYPE_ENUM && id->u.enumeration.container.size == 16 &&
		  id->u.enumeration.mappings[0].end == 65534,
	      "large event header");
	CHECK(ctf_trace_event_by_name(t, "sample_component:message") != NULL, "event");
	ctf_trace_free(t);
out:
	free(ctf);
	free(path);
}

static void test_meta_ctx_sequence(void)
{
	static const int32_t first[] = {0};
	struct tsdl_error err;
	struct ctf_trace *t = load_corpus("succeed", "meta-ctx-sequence/metadata", &err);
	const struct ctf_type *seq;

	CHECK(t, "meta-ctx-sequence");
	if (!t)
		return;
	CHECK(t->stream_count == 1 && t->streams[0]->event_count == 0, "a stream, no event");
	seq = field_type(t->streams[0]->event_context, "_evt_ctx_seq");
	CHECK(seq && seq->kind == CTF_TYPE_SEQUENCE &&
		  path_is(&seq->u.sequence.length, CTF_SCOPE_EVENT_COMMON_CONTEXT, 1, first),
	      "event context sequence");
	seq = field_type(t->streams[0]->packet_context, "_pkt_ctx_seq");
	CHECK(seq && seq->kind == CTF_TYPE_SEQUENCE &&
		  path_is(&seq->u.sequence.length, CTF_SCOPE_PACKET_CONTEXT, 1, first),
	      "packet context sequence");
	ctf_trace_free(t);
}

/* Options chosen per label, as Babeltrace 2 matches them: label == option's TSDL name. */
static void check_variant_options(const char *trace_name, const int32_t *expected,
				  const char *const *display)
{
	char rel[128];
	struct tsdl_error err;
	struct ctf_trace *t;
	const struct ctf_event_class *ev;
	const struct ctf_type *var;

	snprintf(rel, sizeof(rel), "%s/metadata", trace_name);
	t = load_corpus("succeed", rel, &err);
	CHECK(t, "%s", trace_name);
	if (!t)
		return;
	ev = ctf_trace_event_by_name(t, "yo");
	var = ev ? field_type(ev->fields, "var") : NULL;
	CHECK(var && var->kind == CTF_TYPE_VARIANT, "%s: var", trace_name);
	if (var && var->kind == CTF_TYPE_VARIANT) {
		for (unsigned int i = 0; i < 3; i++) {
			CHECK(var->u.variant.option_of_mapping[i] == expected[i],
			      "%s: mapping %u -> option %d", trace_name, i,
			      var->u.variant.option_of_mapping[i]);
			CHECK(strcmp(var->u.variant.options[i].display_name, display[i]) == 0,
			      "%s: option %u shown as %s", trace_name, i,
			      var->u.variant.options[i].display_name);
		}
	}
	ctf_trace_free(t);
}

static void test_variant_underscores(void)
{
	static const int32_t identity[] = {0, 1, 2};
	static const char *const one[] = {"COSSETTE", "PELCHAT", "VOISINE"};
	static const char *const two[] = {"COSSETTE", "_PELCHAT", "VOISINE"};
	static const char *const same[] = {"COSSETTE", "PELCHAT", "_PELCHAT"};

	check_variant_options("meta-variant-no-underscore", identity, one);
	check_variant_options("meta-variant-one-underscore", identity, one);
	check_variant_options("meta-variant-two-underscores", identity, two);
	check_variant_options("meta-variant-same-with-underscore", identity, same);
}

/* ---- invalid traces ---- */

static void test_fail_corpus(void)
{
	static const struct {
		const char *rel;
		unsigned int line; /* 0: a packet header fault, no line */
		const char *words; /* in the message */
	} cases[] = {
	    {"fail1/metadata", 15, "major"},
	    {"fail2/metadata", 6, "major"},
	    {"smalltrace/metadata", 6, "major"},
	    {"integer-range/metadata", 7, "out of range"},
	    {"invalid-sequence-length-field-class/metadata", 23, "not an unsigned integer"},
	    {"invalid-variant-selector-field-class/metadata", 23, "not an enumeration"},
	    {"metadata-syntax-error/metadata", 3, "expected"},
	    {"lttng-modules-2.0-pre1/metadata", 0, "version"},
	    {"packet-based-metadata/metadata", 0, "version"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tsdl_error err;
		struct ctf_trace *t = load_corpus("fail", cases[i].rel, &err);
		char line[1200];

		CHECK(t == NULL, "%s is refused", cases[i].rel);
		if (t) {
			ctf_trace_free(t);
			continue;
		}
		tsdl_error_format(&err, line, sizeof(line));
		printf("fail corpus: %s\n", line);
		CHECK(strstr(err.file, cases[i].rel) != NULL, "error names the file: %s", line);
		CHECK(err.line == cases[i].line, "error at line %u: %s", cases[i].line, line);
		CHECK(strstr(err.message, cases[i].words) != NULL, "'%s' in: %s", cases[i].words,
		      line);
		CHECK(!strchr(line, '\n'), "one line");
	}
}

/* ---- corners of the language: tests/reader/data/tsdl/features.tsdl ---- */

static char *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		cap = cap ? cap * 2 : 65536;
		buf = realloc(buf, cap);
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (*len == cap);
	fclose(f);
	return buf;
}

static void check_features(const struct ctf_trace *t, const char *label)
{
	static const int32_t hdr_which[] = {0, 1}, seq_len[] = {1}, ctx_len[] = {0},
			     n_in_items[] = {4, CTF_PATH_CURRENT_ELEMENT, 0}, tag[] = {15};
	const struct ctf_stream_class *s3 = ctf_trace_stream(t, 3), *s1 = ctf_trace_stream(t, 1);
	const struct ctf_event_class *ev = s3 ? ctf_stream_event(s3, 7) : NULL;
	const struct ctf_type *f, *g;
	const struct ctf_env_entry *env;
	const struct ctf_clock *clock = ctf_trace_clock(t, "cyc");

	CHECK(t->byte_order == CTF_BYTE_ORDER_BE && !t->has_uuid, "%s: trace", label);
	CHECK(t->stream_count == 2 && t->streams[0] == s1 && s1 && s1->event_count == 0 && s3 &&
		  s3->event_count == 2,
	      "%s: streams sorted by id", label);
	env = ctf_trace_env(t, "text");
	CHECK(env && env->is_string && strcmp(env->string, "a\tbAA\xc3\xa9\"") == 0, "%s: escapes",
	      label);
	env = ctf_trace_env(t, "negative");
	CHECK(env && !env->is_string && env->integer == -42, "%s: negative env", label);
	env = ctf_trace_env(t, "char_value");
	CHECK(env && !env->is_string && env->integer == 'A', "%s: char constant", label);
	CHECK(!ctf_trace_env(t, "ignored_name"), "%s: identifier env value ignored", label);
	CHECK(clock && clock->freq == 1000 && clock->precision == 10 && clock->offset_s == -5 &&
		  clock->offset == 7 && clock->absolute && !clock->description,
	      "%s: clock", label);
	f = s3 ? field_type(s3->event_context, "tick") : NULL;
	CHECK(f && f->u.integer.clock == clock && f->align == 8, "%s: mapped integer", label);
	CHECK(ev && ev->has_loglevel && ev->loglevel == -1 && ev->emf_uri &&
		  strcmp(ev->emf_uri, "http://example.com/emf") == 0 && ev->stream_id == 3,
	      "%s: event attributes", label);
	CHECK(s3 && ctf_stream_event(s3, 8) && !ctf_stream_event(s3, 8)->fields, "%s: second event",
	      label);
	if (!ev)
		return;

	f = field_type(ev->fields, "hdr");
	CHECK(f && f->kind == CTF_TYPE_STRUCT && f->align == 32, "%s: align(32)", label);
	f = f ? field_type(f, "which") : NULL;
	CHECK(f && f->kind == CTF_TYPE_ENUM && f->u.enumeration.mapping_count == 6, "%s: enum",
	      label);
	if (f && f->kind == CTF_TYPE_ENUM && f->u.enumeration.mapping_count == 6) {
		const struct ctf_enum_mapping *m = f->u.enumeration.mappings;

		CHECK(m[0].start == 0 && m[1].start == 1 && m[2].start == 10 &&
			  strcmp(m[2].label, "BLUE sky") == 0 && m[3].start == 11 &&
			  m[4].start == 20 && m[4].end == 29 && m[5].start == 30 && m[5].end == 30,
		      "%s: implicit enum values", label);
	}
	g = field_type(ev->fields, "v");
	CHECK(g && g->kind == CTF_TYPE_VARIANT &&
		  path_is(&g->u.variant.tag, CTF_SCOPE_EVENT_FIELDS, 2, hdr_which) &&
		  g->u.variant.tag_type == f,
	      "%s: variant tag in a nested struct", label);
	if (g && g->kind == CTF_TYPE_VARIANT) {
		const int32_t *o = g->u.variant.option_of_mapping;

		CHECK(o[0] == 0 && o[1] == 1 && o[2] == -1 && o[3] == 2 && o[4] == -1 && o[5] == -1,
		      "%s: options of mappings", label);
	}
	g = field_type(ev->fields, "by_header");
	CHECK(g && g->kind == CTF_TYPE_SEQUENCE &&
		  path_is(&g->u.sequence.length, CTF_SCOPE_EVENT_HEADER, 1, seq_len),
	      "%s: absolute path", label);
	g = field_type(ev->fields, "by_context");
	CHECK(g && g->kind == CTF_TYPE_SEQUENCE &&
		  path_is(&g->u.sequence.length, CTF_SCOPE_EVENT_CONTEXT, 1, ctx_len),
	      "%s: relative path to an earlier scope", label);
	g = field_type(ev->fields, "items");
	CHECK(g && g->kind == CTF_TYPE_ARRAY && g->u.array.length == 2, "%s: items", label);
	if (g && g->kind == CTF_TYPE_ARRAY) {
		const struct ctf_type *deep =
		    field_type(field_type(g->u.array.element, "nested"), "deep");

		CHECK(deep && deep->kind == CTF_TYPE_SEQUENCE &&
			  path_is(&deep->u.sequence.length, CTF_SCOPE_EVENT_FIELDS, 3, n_in_items),
		      "%s: path from inside an array element", label);
	}
	g = field_type(ev->fields, "m");
	CHECK(g && g->kind == CTF_TYPE_ARRAY && g->u.array.length == 2 &&
		  g->u.array.element->kind == CTF_TYPE_ARRAY &&
		  g->u.array.element->u.array.length == 3,
	      "%s: m[2][3] is 2 arrays of 3", label);
	CHECK(is_uint(field_type(ev->fields, "b"), 8, 8, 10), "%s: typedef list", label);
	g = field_type(ev->fields, "ptr");
	CHECK(is_uint(g, 32, 8, 16) && g->u.integer.byte_order == CTF_BYTE_ORDER_BE,
	      "%s: void * (native = be)", label);
	CHECK(is_uint(field_type(ev->fields, "big"), 64, 8, 2), "%s: unsigned long long", label);
	g = field_type(ev->fields, "ch");
	CHECK(g && g->u.integer.is_signed && g->u.integer.base == 8 &&
		  g->u.integer.encoding == CTF_ENCODING_UTF8,
	      "%s: int", label);
	g = field_type(ev->fields, "bits");
	CHECK(g && g->kind == CTF_TYPE_INTEGER && g->u.integer.size == 3 && g->align == 1 &&
		  g->u.integer.is_signed,
	      "%s: bitfield", label);
	g = field_type(ev->fields, "d");
	CHECK(g && g->kind == CTF_TYPE_FLOAT && g->u.floating.mant_dig == 53 && g->align == 64 &&
		  g->u.floating.byte_order == CTF_BYTE_ORDER_LE,
	      "%s: double", label);
	g = field_type(ev->fields, "s");
	CHECK(g && g->kind == CTF_TYPE_STRING && g->u.string.encoding == CTF_ENCODING_ASCII,
	      "%s: string encoding", label);
	g = field_type(ev->fields, "implicit_int");
	CHECK(g && g->kind == CTF_TYPE_ENUM && g->u.enumeration.container.is_signed &&
		  (int64_t)g->u.enumeration.mappings[2].start == -3,
	      "%s: enum over int", label);
	g = field_type(ev->fields, "negative");
	CHECK(g && g->kind == CTF_TYPE_ENUM && (int64_t)g->u.enumeration.mappings[0].start == -10 &&
		  (int64_t)g->u.enumeration.mappings[0].end == -5,
	      "%s: negative range", label);
	g = field_type(ev->fields, "tagged");
	CHECK(g && g->kind == CTF_TYPE_ARRAY && g->u.array.element->kind == CTF_TYPE_VARIANT,
	      "%s: array of variants", label);
	if (g && g->kind == CTF_TYPE_ARRAY && g->u.array.element->kind == CTF_TYPE_VARIANT) {
		const struct ctf_variant_type *var = &g->u.array.element->u.variant;

		CHECK(path_is(&var->tag, CTF_SCOPE_EVENT_FIELDS, 1, tag) &&
			  var->option_of_mapping[0] == 0 && var->option_of_mapping[1] == 1 &&
			  strcmp(var->options[1].display_name, "b") == 0,
		      "%s: labels match underscored options", label);
	}
	g = field_type(ev->fields, "realigned");
	CHECK(g && g->kind == CTF_TYPE_STRUCT && g->align == 64, "%s: struct name align(64)",
	      label);
	CHECK(ev->fields->align == 64, "%s: payload aligned on its largest field", label);
}

static struct ctf_trace *parse_text(const char *text, size_t len, struct tsdl_error *err)
{
	return tsdl_parse(text, len, "snippet", err);
}

static void test_features(void)
{
	char *data = path_join(source_dir(), "tests/reader/data/tsdl/features.tsdl");
	struct tsdl_error err;
	struct ctf_trace *t = ctf_metadata_load(data, &err);
	size_t len, crlf_len = 0;
	char *text, *crlf;

	CHECK(t, "features.tsdl parses");
	if (!t)
		print_error(&err);
	else
		check_features(t, "LF");
	ctf_trace_free(t);

	/* The same text with CRLF line ends. */
	text = read_whole(data, &len);
	CHECK(text, "read %s", data);
	crlf = malloc(2 * len + 1);
	for (size_t i = 0; text && i < len; i++) {
		if (text[i] == '\n')
			crlf[crlf_len++] = '\r';
		crlf[crlf_len++] = text[i];
	}
	t = parse_text(crlf, crlf_len, &err);
	CHECK(t, "features.tsdl with CRLF parses");
	if (!t)
		print_error(&err);
	else
		check_features(t, "CRLF");
	ctf_trace_free(t);
	free(crlf);
	free(text);
	free(data);
}

/* ---- errors: each snippet is refused at the line and column given ---- */

#define HEAD                                                                                       \
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"                 \
	"typealias integer { size = 8; align = 8; signed = true; } := int8_t;\n"                   \
	"trace { major = 1; minor = 8; byte_order = le; };\n"

static void test_errors(void)
{
	static const struct {
		const char *text;
		unsigned int line, column;
		const char *words;
	} cases[] = {
	    {HEAD "event { name = a; fields := struct { uint9_t x; }; };", 4, 38,
	     "unknown type 'uint9_t'"},
	    {HEAD "event { name = a; fields := struct { uint8_t x; int8_t x; }; };", 4, 56,
	     "duplicate field name 'x'"},
	    {"typealias integer { size = 0; } := u0;", 1, 28, "between 1 and 64"},
	    {"typealias integer { size = 65; } := u65;", 1, 28, "between 1 and 64"},
	    {"typealias integer { align = 8; } := nosize;", 1, 11, "without a size"},
	    {"typealias integer { size = 8; align = 3; } := a3;", 1, 39, "power of two"},
	    {"typealias integer { size = 8; } := u8;\n", 0, 0, "no trace block"},
	    {HEAD "event { name = a; fields := struct { int8_t n; uint8_t s[n]; }; };", 4, 57,
	     "signed, an integer, not an unsigned integer"},
	    {HEAD "event { name = a; fields := struct { uint8_t s[nope]; }; };", 4, 47,
	     "'nope' names no field"},
	    {HEAD "event { name = a; fields := struct { uint8_t s[n]; uint8_t n; }; };", 4, 47,
	     "names no field declared before it"},
	    {HEAD "stream { packet.context := struct { uint8_t s[event.fields.x]; }; };", 4, 46,
	     "comes after"},
	    {HEAD "event { name = a; fields := struct { uint8_t s[event.fields.s]; }; };", 4, 47,
	     "declared before"},
	    {HEAD "event { name = a; fields := struct { variant { uint8_t a; } v; }; };", 4, 38,
	     "without a tag"},
	    {HEAD "env { s = \"abc\n\"; };", 4, 11, "unterminated string"},
	    {HEAD "/* never closed", 4, 1, "unterminated comment"},
	    {HEAD "env { s = \"a\\qb\"; };", 4, 13, "unknown escape"},
	    {HEAD "env { s = 0x; };", 4, 11, "without digits"},
	    {HEAD "env { s = 09; };", 4, 12, "octal"},
	    {HEAD "env { s = 12ab; };", 4, 13, "suffix"},
	    {HEAD "env { s = 1 @ };", 4, 13, "unexpected character '@'"},
	    {HEAD "event { name = a; stream_id = 4; };", 4, 1, "stream 4"},
	    {HEAD "event { name = a; id = 1; }; event { name = b; id = 1; };", 4, 30,
	     "id 1 of an earlier event"},
	    {HEAD "stream { id = 1; }; stream { };", 4, 21, "without an id"},
	    {HEAD "stream { id = 1; }; stream { id = 1; };", 4, 1, "duplicate stream id 1"},
	    {HEAD "clock { name = c; }; clock { name = c; };", 4, 22, "duplicate clock 'c'"},
	    {HEAD "clock { freq = 1; };", 4, 1, "without a name"},
	    {HEAD "typealias integer { size = 8; map = clock.none.value; } := t;", 4, 11,
	     "unknown clock 'none'"},
	    {HEAD "typealias integer { size = 8; map = clock.x; } := t;", 4, 37,
	     "clock.NAME.value"},
	    {"trace { major = 1; minor = 8; byte_order = native; };", 1, 44, "be or le"},
	    {"trace { major = 2; minor = 8; byte_order = le; };", 1, 17, "major version"},
	    {"trace { major = 1; minor = 9; byte_order = le; };", 1, 28, "minor version"},
	    {"trace { major = 1; minor = 8; };", 1, 1, "without 'byte_order'"},
	    {"trace { major = 1; major = 1; minor = 8; byte_order = le; };", 1, 20,
	     "duplicate 'major'"},
	    {HEAD "trace { major = 1; minor = 8; byte_order = le; };", 4, 1, "second trace"},
	    {HEAD "typealias integer { size = 16; } := uint8_t;", 4, 37, "already declared"},
	    {HEAD "event { name = a; fields := struct { uint8_t struct; }; };", 4, 46,
	     "reserved keyword"},
	    {HEAD "enum e : uint8_t { A = -9223372036854775809 };", 4, 24, "64-bit signed range"},
	    {HEAD "enum e : uint8_t { };", 4, 20, "enumeration label"},
	    {HEAD "enum e { A };", 4, 1, "named 'int'"},
	    {HEAD "typealias floating_point { exp_dig = 8; mant_dig = 8; } := f;", 4, 11,
	     "floating point"},
	    {HEAD "event { name = a; fields := uint8_t; };", 4, 19, "must be a struct"},
	    {HEAD "event { fields := struct { uint8_t a; }; };", 4, 1, "without a name"},
	    {HEAD "event { name = a }", 4, 18, "expected ';'"},
	    {HEAD "event { name = a; };\nevent", 5, 1, "a type"},
	    {HEAD "uint8_t loose;", 4, 9, "outside a struct"},
	    {HEAD "env { s = \"a\0b\"; };", 4, 13, "NUL byte"},
	    {HEAD "event { name = a; fields := struct { uint8_t t; variant <t> { uint8_t a; } v; "
		  "}; };",
	     4, 49, "not an enumeration"},
	    {HEAD "event { name = a; fields := struct { struct nope x; }; };", 4, 45,
	     "unknown struct 'nope'"},
	    {HEAD "typealias integer { size = 8; base = 3; } := t;", 4, 38, "base"},
	    {HEAD "typealias integer { size = 8; encoding = EBCDIC; } := t;", 4, 42, "encoding"},
	    {HEAD "typealias integer { size = 8; signed = maybe; } := t;", 4, 40, "signed"},
	    {HEAD "trace2 { };", 4, 8, "a name"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tsdl_error err;
		/* sizeof, not strlen: one case holds a NUL byte. */
		const char *text = cases[i].text;
		size_t len = strlen(text);
		struct ctf_trace *t;
		char line[1200];

		if (strstr(cases[i].words, "NUL"))
			len += 1 + strlen(text + len + 1);
		t = parse_text(text, len, &err);
		CHECK(t == NULL, "case %zu is refused", i);
		if (t) {
			ctf_trace_free(t);
			continue;
		}
		tsdl_error_format(&err, line, sizeof(line));
		CHECK(err.line == cases[i].line && err.column == cases[i].column &&
			  strstr(err.message, cases[i].words),
		      "case %zu: want %u:%u '%s', got: %s", i, cases[i].line, cases[i].column,
		      cases[i].words, line);
	}
}

/* ---- lexical scopes of type names ---- */

static void test_scopes(void)
{
	static const char text[] = HEAD
	    "event { name = a; id = 0; fields := struct {\n"
	    "	struct { typealias integer { size = 16; align = 8; } := uint8_t; uint8_t wide; } "
	    "inner;\n"
	    "	uint8_t narrow;\n"
	    "}; };\n";
	static const char leak[] =
	    HEAD "event { name = a; fields := struct {\n"
		 "	typealias integer { size = 16; } := local_t; local_t x; }; };\n"
		 "event { name = b; id = 1; fields := struct { local_t y; }; };\n";
	struct tsdl_error err;
	struct ctf_trace *t = parse_text(text, sizeof(text) - 1, &err);
	const struct ctf_event_class *ev;

	CHECK(t, "hiding a type name in a struct");
	if (!t) {
		print_error(&err);
		return;
	}
	ev = ctf_trace_event_by_name(t, "a");
	CHECK(ev && is_uint(field_type(field_type(ev->fields, "inner"), "wide"), 16, 8, 10) &&
		  is_uint(field_type(ev->fields, "narrow"), 8, 8, 10),
	      "the inner uint8_t is 16 bits, the outer one 8");
	ctf_trace_free(t);
	t = parse_text(leak, sizeof(leak) - 1, &err);
	CHECK(!t && err.line == 6 && strstr(err.message, "unknown type 'local_t'"),
	      "a struct's typealias is not seen outside it: %u %s", err.line, err.message);
	ctf_trace_free(t);
}

/* ---- packetized metadata built in memory ---- */

static void put32(uint8_t *p, uint32_t v, enum ctf_byte_order bo)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(bo == CTF_BYTE_ORDER_LE ? v >> (8 * i) : v >> (8 * (3 - i)));
}

/* Appends one packet holding text (padded with pad bytes) at out + *size. */
static void add_packet(uint8_t *out, size_t *size, enum ctf_byte_order bo, uint8_t uuid_byte,
		       const char *text, size_t pad, uint8_t scheme, uint8_t major)
{
	size_t n = strlen(text), content = CTF_METADATA_PACKET_HEADER_SIZE + n;
	uint8_t *p = out + *size;

	memset(p, 0, content + pad);
	put32(p, CTF_METADATA_PACKET_MAGIC, bo);
	memset(p + 4, uuid_byte, 16);
	put32(p + 24, (uint32_t)(content * 8), bo);
	put32(p + 28, (uint32_t)((content + pad) * 8), bo);
	p[32] = scheme; /* compression */
	p[35] = major;
	p[36] = 8;
	memcpy(p + CTF_METADATA_PACKET_HEADER_SIZE, text, n);
	*size += content + pad;
}

static void test_packetized(void)
{
	static const char part1[] = "/* CTF 1.8 */ typeal";
	static const char part2[] =
	    "ias integer { size = 8; } := u8; trace { major = 1; minor = 8; "
	    "byte_order = be; packet.header := struct { u8 x; }; };";
	static uint8_t buf[4096];
	enum ctf_byte_order orders[] = {CTF_BYTE_ORDER_LE, CTF_BYTE_ORDER_BE};
	struct ctf_metadata_text m;
	struct tsdl_error err;
	size_t size;

	for (int i = 0; i < 2; i++) {
		struct ctf_trace *t;

		size = 0;
		add_packet(buf, &size, orders[i], 7, part1, 100, 0, 1);
		add_packet(buf, &size, orders[i], 7, part2, 3, 0, 1);
		CHECK(ctf_metadata_decode(buf, size, "mem", &m, &err) == 0, "decode %d", i);
		CHECK(m.packetized && m.packet_count == 2 && m.byte_order == orders[i] &&
			  m.uuid[15] == 7 && m.len == strlen(part1) + strlen(part2),
		      "two packets, byte order %d", i);
		t = parse_text(m.text, m.len, &err);
		CHECK(t && t->byte_order == CTF_BYTE_ORDER_BE, "text split inside a token");
		ctf_trace_free(t);
		ctf_metadata_text_free(&m);
	}

	size = 0;
	add_packet(buf, &size, CTF_BYTE_ORDER_LE, 7, part1, 0, 1, 1);
	CHECK(ctf_metadata_decode(buf, size, "mem", &m, &err) && strstr(err.message, "compression"),
	      "compressed packet: %s", err.message);
	size = 0;
	add_packet(buf, &size, CTF_BYTE_ORDER_LE, 7, part1, 0, 0, 2);
	CHECK(ctf_metadata_decode(buf, size, "mem", &m, &err) && strstr(err.message, "version 2.8"),
	      "version: %s", err.message);
	size = 0;
	add_packet(buf, &size, CTF_BYTE_ORDER_LE, 7, part1, 0, 0, 1);
	add_packet(buf, &size, CTF_BYTE_ORDER_LE, 8, part2, 0, 0, 1);
	CHECK(ctf_metadata_decode(buf, size, "mem", &m, &err) && strstr(err.message, "packet 1") &&
		  strstr(err.message, "uuid"),
	      "uuid change: %s", err.message);
	size = 0;
	add_packet(buf, &size, CTF_BYTE_ORDER_LE, 7, part1, 16, 0, 1);
	CHECK(ctf_metadata_decode(buf, size - 8, "mem", &m, &err) &&
		  strstr(err.message, "past the end"),
	      "truncated packet: %s", err.message);
	put32(buf + 24, 8 * 1000, CTF_BYTE_ORDER_LE);
	CHECK(ctf_metadata_decode(buf, size, "mem", &m, &err) &&
		  strstr(err.message, "does not fit"),
	      "content larger than packet: %s", err.message);
	size = 0;
	add_packet(buf, &size, CTF_BYTE_ORDER_LE, 7, part1, 0, 0, 1);
	CHECK(ctf_metadata_decode(buf, size + 10, "mem", &m, &err) &&
		  strstr(err.message, "truncated header"),
	      "trailing bytes: %s", err.message);
}

/* ---- robustness: truncated and mutated copies of valid metadata ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static unsigned long robust_parsed, robust_refused;

static void parse_quietly(const char *text, size_t len)
{
	struct tsdl_error err;
	struct ctf_trace *t = parse_text(text, len, &err);

	if (t) {
		robust_parsed++;
		ctf_trace_free(t);
		return;
	}
	robust_refused++;
	CHECK(err.message[0] != '\0' && err.line <= 1 + (unsigned int)len, "error filled: %u",
	      err.line);
}

static void test_robustness(void)
{
	static const char *const tokens[] = {"{",	"}",
					     ";",	"[",
					     "]",	"<",
					     ">",	":=",
					     "=",	",",
					     "struct",	"variant",
					     "enum",	"typealias",
					     "typedef", "...",
					     "/*",	"\"",
					     "'",	"-",
					     "0x",	"99999999999999999999",
					     "integer", "stream.event.header.",
					     "event",	"."};
	char *ctf = path_join(conformance_dir(), "ctf");
	char *root = path_join(ctf, "succeed");

	find_metadata(root);
	for (size_t f = 0; f < found_count; f++) {
		struct ctf_metadata_text m;
		struct tsdl_error err;
		size_t len, step;
		char *copy;

		if (ctf_metadata_read_file(found_files[f], &m, &err))
			continue;
		len = m.len;
		copy = malloc(len + 64);
		/* Truncations: every byte of small texts, about 150 cuts of big ones. */
		step = len / 150 + 1;
		for (size_t cut = 0; cut < len; cut += step)
			parse_quietly(m.text, cut);
		/* Mutations: flipped bytes, inserted tokens, deleted spans. */
		for (int round = 0; round < 60; round++) {
			size_t at = len ? rng() % len : 0;
			size_t n = len;

			memcpy(copy, m.text, len);
			switch (round % 3) {
			case 0:
				for (int k = 0; k < 1 + round % 4; k++)
					copy[rng() % (len ? len : 1)] ^= (char)(1u << (rng() % 8));
				break;
			case 1: {
				const char *tok =
				    tokens[rng() % (sizeof(tokens) / sizeof(*tokens))];
				size_t tl = strlen(tok);

				memmove(copy + at + tl, copy + at, len - at);
				memcpy(copy + at, tok, tl);
				n = len + tl;
				break;
			}
			default: {
				size_t span = 1 + rng() % 40;

				if (at + span > len)
					span = len - at;
				memmove(copy + at, copy + at + span, len - at - span);
				n = len - span;
				break;
			}
			}
			parse_quietly(copy, n);
		}
		free(copy);
		ctf_metadata_text_free(&m);
	}
	printf("robustness: %lu mutated texts parsed, %lu refused cleanly\n", robust_parsed,
	       robust_refused);
	free(ctf);
	free(root);
}

/*
 * ---- hostile-* (nesting, exponential types, long names: built to hurt) and
 * regress-* (found by fuzzing) inputs: each returns, parsed or refused ----
 */

static void test_regressions(void)
{
	char *dir = path_join(source_dir(), "tests/reader/data/tsdl");
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned int count = 0;

	CHECK(d != NULL, "open %s", dir);
	while (d && (de = readdir(d))) {
		char *path;
		size_t len;
		char *text;

		if (strncmp(de->d_name, "regress-", 8) != 0 &&
		    strncmp(de->d_name, "hostile-", 8) != 0)
			continue;
		path = path_join(dir, de->d_name);
		text = read_whole(path, &len);
		CHECK(text, "read %s", path);
		if (text)
			parse_quietly(text, len);
		count++;
		free(text);
		free(path);
	}
	if (d)
		closedir(d);
	CHECK(count >= 5, "only %u hostile/regression inputs", count);
	printf("hostile and regression inputs: %u\n", count);
	free(dir);
}

int main(void)
{
	test_succeed_corpus();
	test_smalltrace();
	test_sequence();
	test_wk_heartbeat();
	test_trace_with_index();
	test_meta_ctx_sequence();
	test_variant_underscores();
	test_fail_corpus();
	test_features();
	test_scopes();
	test_packetized();
	test_errors();
	test_regressions();
	test_robustness();
	return CHECK_RESULT();
}
