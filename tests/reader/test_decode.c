/*
 * test_decode.c - the stream decoder (decode-stream.h, decode-field.h,
 * decode-clock.h) on the conformance corpus, the golden traces, hand-made
 * traces and damaged copies of stream files:
 *
 * - every succeed trace decodes fully, with as many events as Babeltrace
 *   printed lines (one line per event: strings print escaped, so no event
 *   spans two lines), and the event times, converted as Babeltrace does,
 *   are the printed ones;
 * - chosen decoded values are those Babeltrace printed;
 * - the fail traces whose metadata parses stop with a one-line error naming
 *   the file and the offsets, after the events Babeltrace printed;
 * - truncated and byte-flipped stream files end in a clean error or success.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "reader/decode-clock.h"
#include "reader/decode-stream.h"
#include "reader/metadata-read.h"
#include "reader/trace-dir.h"

#include "check.h"

static char conformance[4096];
static char source[4096];
static char tmpdir[256];

static const char *path_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A path in one of a few rotating buffers, so that two can be used at once. */
static const char *path_fmt(const char *fmt, ...)
{
	static char bufs[4][8192];
	static int n;
	char *b = bufs[n++ % 4];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b, sizeof(bufs[0]), fmt, ap);
	va_end(ap);
	return b;
}

/* ---- decoding whole traces ---- */

struct ns_list {
	int64_t *v;
	size_t n, cap;
};

static void ns_push(struct ns_list *l, int64_t ns)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			abort();
	}
	l->v[l->n++] = ns;
}

static int cmp_ns(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

struct decode_result {
	size_t events;
	size_t errors; /* streams that ended with an error */
	char first_error[1400];
	struct ns_list times; /* ns from origin of the events with a clock */
};

/* Decodes every stream of one trace directory. */
static void decode_trace(const struct ctf_trace_dir *td, struct decode_result *res)
{
	struct tsdl_error terr;
	struct ctf_trace *trace = ctf_metadata_load(td->metadata_path, &terr);
	size_t i;

	if (!trace) {
		char msg[1200];

		tsdl_error_format(&terr, msg, sizeof(msg));
		res->errors++;
		if (!res->first_error[0])
			snprintf(res->first_error, sizeof(res->first_error), "%s", msg);
		return;
	}
	for (i = 0; i < td->nr_streams; i++) {
		char err[512];
		struct ctf_stream_reader *r =
		    ctf_stream_open(trace, td->streams[i].path, err, sizeof(err));
		int st;

		if (!r) {
			res->errors++;
			if (!res->first_error[0])
				snprintf(res->first_error, sizeof(res->first_error), "%s", err);
			continue;
		}
		while ((st = ctf_stream_next(r)) > 0) {
			int64_t ns;

			if (st != CTF_STREAM_EVENT)
				continue;
			res->events++;
			if (r->event.has_clock &&
			    ctf_clock_cycles_to_ns(r->packet.clock, r->event.clock_value, &ns) == 0)
				ns_push(&res->times, ns);
		}
		if (st < 0) {
			res->errors++;
			if (!res->first_error[0])
				snprintf(res->first_error, sizeof(res->first_error), "%s",
					 r->error);
			/* The error is sticky. */
			CHECK(ctf_stream_next(r) == CTF_STREAM_ERROR, "error not sticky");
		}
		ctf_stream_close(r);
	}
	ctf_trace_free(trace);
}

/* Decodes every trace found under path. */
static int decode_path(const char *path, struct decode_result *res)
{
	struct ctf_trace_set set = {0};
	char err[512];
	size_t i;

	memset(res, 0, sizeof(*res));
	if (ctf_trace_set_add(&set, path, err, sizeof(err))) {
		CHECK(0, "%s: %s", path, err);
		return -1;
	}
	for (i = 0; i < set.nr_traces; i++)
		decode_trace(&set.traces[i], res);
	ctf_trace_set_free(&set);
	if (res->times.n)
		qsort(res->times.v, res->times.n, sizeof(int64_t), cmp_ns);
	return 0;
}

/* ---- expected outputs ---- */

struct lines {
	char **v;
	size_t n;
};

static int read_lines(const char *path, struct lines *l)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	l->v = NULL;
	l->n = 0;
	if (!f)
		return -1;
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[len - 1] = 0;
		l->v = realloc(l->v, (l->n + 1) * sizeof(char *));
		l->v[l->n++] = strdup(line);
	}
	free(line);
	fclose(f);
	return 0;
}

static void free_lines(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* The time a line starts with, between [ and ], or "" without one. */
static void line_time(const char *line, char *out, size_t size)
{
	const char *end;

	out[0] = 0;
	if (line[0] != '[' || !(end = strchr(line, ']')))
		return;
	snprintf(out, size, "%.*s", (int)(end - line - 1), line + 1);
}

/* Babeltrace's default time format, UTC (expected files are made with TZ=UTC). */
static void fmt_utc(int64_t ns, char *out, size_t size)
{
	time_t s = (time_t)(ns / 1000000000);
	struct tm tm;

	gmtime_r(&s, &tm);
	snprintf(out, size, "%02d:%02d:%02d.%09lld", tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (long long)(ns % 1000000000));
}

/* Babeltrace's --clock-seconds format. */
static void fmt_seconds(int64_t ns, char *out, size_t size)
{
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(out, size, "%s%llu.%09llu", ns < 0 ? "-" : "",
		 (unsigned long long)(a / 1000000000), (unsigned long long)(a % 1000000000));
}

/*
 * Checks a decoded trace against an expected output: one line per event
 * and, when the lines have times, the same times in the same order.
 */
static void compare_expected(const char *name, const struct decode_result *res,
			     const char *expected, bool seconds)
{
	struct lines l;
	size_t i, k = 0;

	if (read_lines(expected, &l)) {
		CHECK(0, "%s: cannot read %s", name, expected);
		return;
	}
	CHECK(res->events == l.n, "%s: %zu events decoded, %zu lines expected", name, res->events,
	      l.n);
	for (i = 0; i < l.n; i++) {
		char want[64], got[64];

		line_time(l.v[i], want, sizeof(want));
		if (!want[0])
			continue;
		if (k >= res->times.n) {
			CHECK(0, "%s: line %zu has a time, only %zu decoded", name, i + 1,
			      res->times.n);
			break;
		}
		if (seconds)
			fmt_seconds(res->times.v[k], got, sizeof(got));
		else
			fmt_utc(res->times.v[k], got, sizeof(got));
		k++;
		if (strcmp(want, got)) {
			CHECK(0, "%s: line %zu: time %s, decoded %s", name, i + 1, want, got);
			break;
		}
	}
	CHECK(k == res->times.n || failures, "%s: %zu times decoded, %zu printed", name,
	      res->times.n, k);
	free_lines(&l);
}

static void test_succeed_corpus(void)
{
	static const char *names[] = {
	    "2packets",
	    "array-align-elem",
	    "barectf-event-before-packet",
	    "crlf-metadata",
	    "debug-info",
	    "env-warning",
	    "ev-disc-no-ts-begin-end",
	    "lf-metadata",
	    "lttng-crash",
	    "lttng-event-after-packet",
	    "lttng-tracefile-rotation",
	    "meta-variant-no-underscore",
	    "meta-variant-one-underscore",
	    "meta-variant-reserved-keywords",
	    "meta-variant-same-with-underscore",
	    "meta-variant-two-underscores",
	    "multi-domains",
	    "no-packet-context",
	    "sequence",
	    "session-rotation",
	    "smalltrace",
	    "struct-array-align-elem",
	    "succeed1",
	    "succeed2",
	    "succeed3",
	    "succeed4",
	    "trace-with-index",
	    "warnings",
	    "wk-heartbeat-u",
	};
	struct decode_result res;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (decode_path(path_fmt("%s/ctf/succeed/%s", conformance, names[i]), &res))
			continue;
		CHECK(res.errors == 0, "%s: %s", names[i], res.first_error);
		printf("%s: %zu events, %zu with a time\n", names[i], res.events, res.times.n);
		compare_expected(names[i], &res,
				 path_fmt("%s/ctf/expected/%s.out", conformance, names[i]), false);
		free(res.times.v);
	}
	/* No expected output (Babeltrace 2.0.4 aborts on it); its stream is empty. */
	decode_path(path_fmt("%s/ctf/succeed/meta-ctx-sequence", conformance), &res);
	CHECK(res.errors == 0 && res.events == 0, "meta-ctx-sequence: %zu events, %s", res.events,
	      res.first_error);
	free(res.times.v);
}

/* The golden traces, against their default (count) and --clock-seconds (times) outputs. */
static void test_golden(void)
{
	static const char *names[] = {"hm-clock",   "hm-clock-mhz", "hm-discard",  "hm-discard-odd",
				      "hm-noclock", "hm-types",	    "trax-fields", "ust-fields"};
	struct decode_result res;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (decode_path(path_fmt("%s/tests/reader/golden/%s", source, names[i]), &res))
			continue;
		CHECK(res.errors == 0, "%s: %s", names[i], res.first_error);
		compare_expected(names[i], &res,
				 path_fmt("%s/tests/reader/golden/expected/%s.clock-seconds.out",
					  source, names[i]),
				 true);
		free(res.times.v);
	}
}

/* ---- decoded values ---- */

struct opened {
	struct ctf_trace *trace;
	struct ctf_stream_reader *r;
};

static int open_stream(struct opened *o, const char *trace_dir, const char *stream)
{
	struct tsdl_error terr;
	char err[512], dir[4096];

	/* trace_dir may be a path_fmt() buffer: keep it before reusing them. */
	snprintf(dir, sizeof(dir), "%s", trace_dir);
	trace_dir = dir;
	o->r = NULL;
	o->trace = ctf_metadata_load(path_fmt("%s/metadata", trace_dir), &terr);
	if (!o->trace) {
		CHECK(0, "%s: metadata: %s", trace_dir, terr.message);
		return -1;
	}
	o->r = ctf_stream_open(o->trace, path_fmt("%s/%s", trace_dir, stream), err, sizeof(err));
	if (!o->r) {
		CHECK(0, "%s", err);
		ctf_trace_free(o->trace);
		return -1;
	}
	return 0;
}

static void close_stream(struct opened *o)
{
	ctf_stream_close(o->r);
	ctf_trace_free(o->trace);
}

/* The next event, skipping packet beginnings; NULL at the end or on error. */
static const struct ctf_event *next_event(struct ctf_stream_reader *r)
{
	int st;

	while ((st = ctf_stream_next(r)) == CTF_STREAM_PACKET)
		;
	return st == CTF_STREAM_EVENT ? &r->event : NULL;
}

static bool str_is(const struct ctf_value *v, const char *s)
{
	return v && v->u.str.len == strlen(s) && !memcmp(v->u.str.ptr, s, v->u.str.len);
}

static const struct ctf_value *field(const struct ctf_value *s, const char *name)
{
	return ctf_value_field(s, name);
}

static void test_values(void)
{
	struct opened o;
	const struct ctf_event *e;

	/* smalltrace: string: { str = "This is a test trace" }, then "with only two small events."
	 */
	if (!open_stream(&o, path_fmt("%s/ctf/succeed/smalltrace", conformance), "dummystream")) {
		e = next_event(o.r);
		CHECK(e && !strcmp(e->cls->name, "string") &&
			  str_is(field(e->payload, "str"), "This is a test trace"),
		      "smalltrace: first event");
		CHECK(e && !e->has_clock, "smalltrace has no clock");
		e = next_event(o.r);
		CHECK(e && str_is(field(e->payload, "str"), "with only two small events."),
		      "smalltrace: second event");
		CHECK(!next_event(o.r), "smalltrace: a third event");
		close_stream(&o);
	}

	/* wk-heartbeat-u: { cpu_id = 2 }, { vtid = 3214, vpid = 3208 }, { msg = "heartbeat" } */
	if (!open_stream(&o, path_fmt("%s/ctf/succeed/wk-heartbeat-u", conformance), "u_2")) {
		int64_t ns = 0;

		e = next_event(o.r);
		CHECK(e && !strcmp(e->cls->name, "heartbeat:msg"), "wk-heartbeat-u: name");
		CHECK(e && field(o.r->packet.context, "cpu_id") &&
			  field(o.r->packet.context, "cpu_id")->u.u == 2,
		      "wk-heartbeat-u: cpu_id");
		CHECK(e && field(e->stream_context, "_vtid")->u.s == 3214 &&
			  field(e->stream_context, "_vpid")->u.s == 3208,
		      "wk-heartbeat-u: vtid/vpid");
		CHECK(e && str_is(field(e->payload, "_msg"), "heartbeat"), "wk-heartbeat-u: msg");
		/* [1351532897.586558519] with --clock-seconds */
		CHECK(e && e->has_clock &&
			  ctf_clock_cycles_to_ns(o.r->packet.clock, e->clock_value, &ns) == 0 &&
			  ns == 1351532897586558519LL,
		      "wk-heartbeat-u: first time %lld", (long long)ns);
		CHECK(o.r->packet.has_timestamp_begin && o.r->packet.has_timestamp_end &&
			  o.r->packet.has_events_discarded &&
			  o.r->packet.timestamp_begin <= e->clock_value,
		      "wk-heartbeat-u: packet context");
		close_stream(&o);
	}

	/* sequence: seq_int_field = [ -1 .. -6 ], seq_long_field = [ 10 .. 60 ] */
	{
		struct ctf_trace_set set = {0};
		char err[256];

		if (ctf_trace_set_add(&set, path_fmt("%s/ctf/succeed/sequence", conformance), err,
				      sizeof(err)) == 0 &&
		    set.nr_traces == 1 && set.traces[0].nr_streams > 0 &&
		    !open_stream(&o, set.traces[0].path, "channel0_2")) {
			const struct ctf_value *si, *sl;
			int i;

			e = next_event(o.r);
			si = e ? field(e->payload, "_seq_int_field") : NULL;
			sl = e ? field(e->payload, "_seq_long_field") : NULL;
			CHECK(si && si->u.list.count == 6 && sl && sl->u.list.count == 6,
			      "sequence: lengths");
			for (i = 0; si && sl && i < 6; i++) {
				CHECK(si->u.list.items[i].u.s == -1 - i, "sequence: int[%d]", i);
				CHECK(sl->u.list.items[i].u.s == 10 * (i + 1), "sequence: long[%d]",
				      i);
			}
			CHECK(e && field(e->payload, "__seq_int_field_length")->u.u == 6,
			      "sequence: length field");
			close_stream(&o);
		}
		ctf_trace_set_free(&set);
	}

	/* meta-variant-one-underscore: tag = ( "PELCHAT" : container = 1 ), var = { "Daniel Lavoie"
	 * } */
	if (!open_stream(&o, path_fmt("%s/ctf/succeed/meta-variant-one-underscore", conformance),
			 "stream")) {
		const struct ctf_value *tag, *var;

		e = next_event(o.r);
		tag = e ? field(e->payload, "tag") : NULL;
		var = e ? field(e->payload, "var") : NULL;
		CHECK(tag && tag->type->kind == CTF_TYPE_ENUM && tag->u.u == 1, "variant: tag");
		CHECK(tag && !strcmp(tag->type->u.enumeration.mappings[1].label, "PELCHAT"),
		      "variant: label");
		CHECK(var && var->type->kind == CTF_TYPE_VARIANT &&
			  str_is(var->u.variant.value, "Daniel Lavoie"),
		      "variant: value");
		close_stream(&o);
	}

	/* trace-with-index: the LTTng index matches every packet, and stays. */
	if (!open_stream(&o, path_fmt("%s/ctf/succeed/trace-with-index", conformance),
			 "ust_channel_0")) {
		size_t count = o.r->index_count, packets = 0;
		int st;

		while ((st = ctf_stream_next(o.r)) > 0)
			packets += st == CTF_STREAM_PACKET;
		CHECK(st == 0 && count > 0 && o.r->index && o.r->index_count == packets,
		      "trace-with-index: index of %zu entries, %zu packets, kept: %d", count,
		      packets, o.r->index != NULL);
		close_stream(&o);
	}

	/* array-align-elem: ev: { a = 1, b = [ ], c = 3 } */
	if (!open_stream(&o, path_fmt("%s/ctf/succeed/array-align-elem", conformance), "stream")) {
		e = next_event(o.r);
		CHECK(e && field(e->payload, "a")->u.u == 1 &&
			  field(e->payload, "b")->u.list.count == 0 &&
			  field(e->payload, "c")->u.u == 3,
		      "array-align-elem");
		close_stream(&o);
	}
}

/* The golden hm-types trace: integers of every size, base and byte order, floats, enums. */
static void test_hm_types(void)
{
	struct opened o;
	const struct ctf_event *e;
	bool ints = false, floats = false, enums = false;

	if (open_stream(&o, path_fmt("%s/tests/reader/golden/hm-types", source), "stream_0"))
		return;
	while ((e = next_event(o.r))) {
		const struct ctf_value *p = e->payload;

		if (!strcmp(e->cls->name, "hm:ints") && !ints) {
			ints = true;
			/* u64_max = 18446744073709551615, s64_min = -9223372036854775808, s5 = -3,
			 * sbit1 = -1, s32_be = -5, u32_net_hex = 0x1020304 */
			CHECK(field(p, "u64_max")->u.u == UINT64_MAX, "u64_max");
			CHECK(field(p, "s64_min")->u.s == INT64_MIN, "s64_min");
			CHECK(field(p, "s5")->u.s == -3, "s5");
			CHECK(field(p, "sbit1")->u.s == -1, "sbit1");
			CHECK(field(p, "s32_be")->u.s == -5, "s32_be");
			CHECK(field(p, "u32_net_hex")->u.u == 0x1020304, "u32_net_hex");
			CHECK(field(p, "s13_hex")->u.s == -2, "s13_hex");
			CHECK(field(p, "u3_bin")->u.u == 6, "u3_bin");
		} else if (!strcmp(e->cls->name, "hm:floats") && !floats) {
			floats = true;
			CHECK(field(p, "f_tenth")->u.d == (double)0.1f, "f_tenth");
			CHECK(field(p, "f_be")->u.d == -2.5, "f_be");
			CHECK(field(p, "d_third")->u.d > 0.3333333 &&
				  field(p, "d_third")->u.d < 0.3334,
			      "d_third");
			CHECK(field(p, "d_m2")->u.d == -2, "d_m2");
		} else if (!strcmp(e->cls->name, "hm:enums") && !enums) {
			enums = true;
			/* e_multi = 5, e_neg = -50, e_big = 18446744073709551615, e_hex_unknown =
			 * 0x11 */
			CHECK(field(p, "e_multi")->u.u == 5, "e_multi");
			CHECK(field(p, "e_neg")->u.s == -50 &&
				  field(p, "e_neg")->type->kind == CTF_TYPE_ENUM,
			      "e_neg");
			CHECK(field(p, "e_big")->u.u == UINT64_MAX, "e_big");
			CHECK(field(p, "e_hex_unknown")->u.u == 0x11, "e_hex_unknown");
			CHECK(e->context && field(e->context, "ectx")->u.s == -3, "ectx");
		}
	}
	CHECK(o.r->state >= 0 && ints && floats && enums, "hm-types: events missing (%s)",
	      o.r->error);
	close_stream(&o);
}

/* ---- hand-made traces ---- */

static void write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, size, f) != size) {
		CHECK(0, "cannot write %s", path);
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
}

/* Writes a trace (metadata + one stream file `stream`) in a fresh directory under tmpdir. */
static const char *make_trace(const char *name, const char *metadata, const void *stream,
			      size_t size)
{
	const char *dir = path_fmt("%s/%s", tmpdir, name);

	mkdir(dir, 0755);
	write_file(path_fmt("%s/metadata", dir), metadata, strlen(metadata));
	write_file(path_fmt("%s/stream", dir), stream, size);
	return dir;
}

/* meta-ctx-sequence's metadata, with an event class, and sequences in both contexts. */
static void test_ctx_sequences(void)
{
	static const char meta[] =
	    "/* CTF 1.8 */\n"
	    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "stream {\n"
	    "	event.context := struct {\n"
	    "		uint8_t __evt_ctx_seq_length;\n"
	    "		uint8_t _evt_ctx_seq[ __evt_ctx_seq_length ];\n"
	    "	};\n"
	    "	packet.context := struct {\n"
	    "		uint8_t __pkt_ctx_seq_length;\n"
	    "		uint8_t _pkt_ctx_seq[ __pkt_ctx_seq_length ];\n"
	    "	};\n"
	    "};\n"
	    "event { name = ev; fields := struct { uint8_t x; }; };\n";
	/* packet context: 2 [7 8]; events: 3 [1 2 3] x=42; 0 [] x=43 */
	static const uint8_t data[] = {2, 7, 8, 3, 1, 2, 3, 42, 0, 43};
	const char *dir = make_trace("ctx-seq", meta, data, sizeof(data));
	struct opened o;
	const struct ctf_event *e;
	const struct ctf_value *s;

	if (open_stream(&o, dir, "stream"))
		return;
	e = next_event(o.r);
	s = field(o.r->packet.context, "_pkt_ctx_seq");
	CHECK(s && s->u.list.count == 2 && s->u.list.items[0].u.u == 7 &&
		  s->u.list.items[1].u.u == 8,
	      "packet context sequence");
	CHECK(o.r->packet.packet_size == 80 && o.r->packet.content_size == 80,
	      "no sizes: the whole file");
	s = e ? field(e->stream_context, "_evt_ctx_seq") : NULL;
	CHECK(s && s->u.list.count == 3 && s->u.list.items[2].u.u == 3, "event context sequence");
	CHECK(e && field(e->payload, "x")->u.u == 42, "x = 42");
	e = next_event(o.r);
	s = e ? field(e->stream_context, "_evt_ctx_seq") : NULL;
	CHECK(s && s->u.list.count == 0 && field(e->payload, "x")->u.u == 43, "second event");
	CHECK(!next_event(o.r) && o.r->state >= 0 && ctf_stream_next(o.r) == CTF_STREAM_END,
	      "end: %s", o.r->error);
	close_stream(&o);
}

/* A header with LTTng's compact/extended variant and a 27-bit timestamp that wraps. */
static void test_compact_header(void)
{
	static const char meta[] =
	    "/* CTF 1.8 */\n"
	    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	    "trace { major = 1; minor = 8; byte_order = le;\n"
	    "	packet.header := struct { uint32_t magic; }; };\n"
	    "clock { name = c; freq = 1000000000; offset_s = 10; };\n"
	    "typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } := "
	    "ts27;\n"
	    "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := "
	    "ts64;\n"
	    "stream {\n"
	    "	packet.context := struct { ts64 timestamp_begin; uint64_t packet_size;\n"
	    "		uint64_t content_size; };\n"
	    "	event.header := struct {\n"
	    "		enum : integer { size = 5; align = 1; signed = false; } { compact = 0 ... "
	    "30,\n"
	    "			extended = 31 } id;\n"
	    "		variant <id> {\n"
	    "			struct { ts27 timestamp; } compact;\n"
	    "			struct { uint32_t id; ts64 timestamp; } extended;\n"
	    "		} v;\n"
	    "	};\n"
	    "};\n"
	    "event { name = a; id = 1; };\n"
	    "event { name = b; id = 40; fields := struct { uint8_t x; }; };\n";
	uint8_t d[64];
	size_t n = 0;
	uint64_t begin = ((uint64_t)5 << 27) | ((1 << 27) - 10), v;
	const char *dir;
	struct opened o;
	const struct ctf_event *e;
	unsigned i;

	memset(d, 0, sizeof(d));
	v = 0xC1FC1FC1u;
	memcpy(d + n, &v, 4);
	n += 4;
	memcpy(d + n, &begin, 8);
	n += 8;
	n += 16; /* sizes, filled below */
	/* event a (compact, id 1): low 27 bits = 2^27 - 5 → no wrap */
	v = 1 | ((uint64_t)((1 << 27) - 5) << 5);
	memcpy(d + n, &v, 4);
	n += 4;
	/* event a again: low bits 3 < previous → wrap */
	v = 1 | ((uint64_t)3 << 5);
	memcpy(d + n, &v, 4);
	n += 4;
	/* event b (extended): id byte 31, then id 40 (uint32), timestamp 64 bits, x */
	d[n++] = 31;
	v = 40;
	memcpy(d + n, &v, 4);
	n += 4;
	v = (uint64_t)7 << 40;
	memcpy(d + n, &v, 8);
	n += 8;
	d[n++] = 99;
	v = n * 8;
	memcpy(d + 12, &v, 8);
	memcpy(d + 20, &v, 8);
	dir = make_trace("compact", meta, d, n);
	if (open_stream(&o, dir, "stream"))
		return;
	for (i = 0; i < 3; i++) {
		e = next_event(o.r);
		if (!e) {
			CHECK(0, "compact: event %u: %s", i, o.r->error);
			break;
		}
		CHECK(e->has_clock, "compact: clock");
		if (i == 0)
			CHECK(!strcmp(e->cls->name, "a") &&
				  e->clock_value == (((uint64_t)5 << 27) | ((1 << 27) - 5)),
			      "compact: first time %llx", (unsigned long long)e->clock_value);
		if (i == 1)
			CHECK(!strcmp(e->cls->name, "a") &&
				  e->clock_value == (((uint64_t)6 << 27) | 3),
			      "compact: wrap %llx", (unsigned long long)e->clock_value);
		if (i == 2)
			CHECK(!strcmp(e->cls->name, "b") && e->clock_value == (uint64_t)7 << 40 &&
				  field(e->payload, "x")->u.u == 99,
			      "compact: extended");
	}
	CHECK(!next_event(o.r) && o.r->state >= 0, "compact: end: %s", o.r->error);
	close_stream(&o);
}

/* Clock arithmetic: wraps, and Babeltrace's double-precision conversion. */
static void test_clock(void)
{
	struct ctf_clock c = {.name = "c", .freq = 3, .offset_s = 1500000000, .offset = 1};
	int64_t ns;

	CHECK(ctf_clock_update(0x1234, 0x5678, 64) == 0x5678, "64-bit replaces");
	CHECK(ctf_clock_update(0x10F0, 0x0F, 8) == 0x110F, "8-bit wrap");
	CHECK(ctf_clock_update(0x10F0, 0xF5, 8) == 0x10F5, "8-bit no wrap");
	CHECK(ctf_clock_update(0x10F0, 0xF0, 8) == 0x10F0, "8-bit equal");
	/* 3 Hz, offset 1 cycle: cycle 2 → .333333333 + .666666666 (gold:hm-clock) */
	CHECK(ctf_clock_cycles_to_ns(&c, 2, &ns) == 0 && ns == 1500000000999999999LL, "3 Hz: %lld",
	      (long long)ns);
	/* 1 MHz, offset_s -2 + 1500000 cycles: v = 1234567890123457 → …457024 ns
	 * (gold:hm-clock-mhz) */
	c.freq = 1000000;
	c.offset_s = -2;
	c.offset = 1500000;
	CHECK(ctf_clock_cycles_to_ns(&c, 1234567890123457ULL, &ns) == 0 &&
		  ns == 1234567890123457024LL - 500000000LL,
	      "1 MHz: %lld", (long long)ns);
	CHECK(ctf_clock_cycles_to_ns(&c, 0, &ns) == 0 && ns == -500000000LL, "negative: %lld",
	      (long long)ns);
	c.freq = 1000000000;
	c.offset_s = INT64_MAX / 1000000000;
	CHECK(ctf_clock_cycles_to_ns(&c, UINT64_MAX, &ns) == -1, "overflow");
}

/* Stream faults in hand-made traces: each a clean error naming the place. */
static void test_faults(void)
{
	static const char meta_noheader[] =
	    "/* CTF 1.8 */\n"
	    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	    "trace { major = 1; minor = 8; byte_order = le; };\n"
	    "stream { packet.context := struct { uint8_t packet_size; uint8_t content_size; }; };\n"
	    "event { name = e; fields := struct { uint8_t n; uint8_t s[n]; string t; }; };\n";
	static const char meta_empty[] = "/* CTF 1.8 */\n"
					 "trace { major = 1; minor = 8; byte_order = le; };\n"
					 "event { name = nothing; };\n";
	static const struct {
		const char *name;
		uint8_t data[16];
		size_t size;
		int events;
		const char *what;
	} cases[] = {
	    {"ok", {40, 40, 1, 9, 0}, 5, 1, NULL},
	    {"size0", {0, 0}, 2, 0, "packet size is 0"},
	    {"size-odd", {12, 12, 0}, 3, 0, "whole number of bytes"},
	    {"too-big", {64, 64, 0, 0}, 4, 0, "larger than the"},
	    {"content-gt-packet", {16, 24, 0}, 2, 0, "content size"},
	    {"seq-past", {48, 48, 9, 0, 0, 0}, 6, 0, "past the end"},
	    {"no-nul", {48, 48, 0, 'a', 'b', 'c'}, 6, 0, "without a NUL"},
	    {"second-event-bad", {64, 64, 0, 0, 5, 0, 0, 0}, 8, 1, "past the end"},
	};
	struct opened o;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *dir =
		    make_trace(cases[i].name, meta_noheader, cases[i].data, cases[i].size);
		int events = 0, st;

		if (open_stream(&o, dir, "stream"))
			continue;
		while ((st = ctf_stream_next(o.r)) > 0)
			events += st == CTF_STREAM_EVENT;
		CHECK(events == cases[i].events, "%s: %d events", cases[i].name, events);
		if (cases[i].what) {
			CHECK(st == CTF_STREAM_ERROR && strstr(o.r->error, cases[i].what) &&
				  strstr(o.r->error, "/stream: packet at byte 0: bit "),
			      "%s: error \"%s\"", cases[i].name, o.r->error);
		} else {
			CHECK(st == CTF_STREAM_END, "%s: %s", cases[i].name, o.r->error);
		}
		close_stream(&o);
	}
	/* An event of no bits, no packet context: an error, not an endless loop. */
	if (!open_stream(&o, make_trace("empty-event", meta_empty, "x", 1), "stream")) {
		int st = ctf_stream_next(o.r);

		CHECK(st == CTF_STREAM_PACKET, "empty-event: packet");
		st = ctf_stream_next(o.r);
		CHECK(st == CTF_STREAM_ERROR && strstr(o.r->error, "takes no bits"),
		      "empty-event: %s", o.r->error);
		close_stream(&o);
	}
}

/* ---- the fail corpus ---- */

static void test_fail_corpus(void)
{
	/* Trace, events Babeltrace prints before it stops (see the corpus README). */
	static const struct {
		const char *name;
		size_t events;
		const char *what;
	} cases[] = {
	    {"valid-events-then-invalid-events/trace", 2, "no event class with id 255"},
	    {"invalid-packet-size/trace", 0, "larger than the"},
	};
	static const char *all[] = {"fail1",
				    "fail2",
				    "integer-range",
				    "invalid-packet-size/trace",
				    "invalid-sequence-length-field-class",
				    "invalid-variant-selector-field-class",
				    "lttng-modules-2.0-pre1",
				    "metadata-syntax-error",
				    "packet-based-metadata",
				    "smalltrace",
				    "valid-events-then-invalid-events/trace"};
	struct decode_result res;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (decode_path(path_fmt("%s/ctf/fail/%s", conformance, cases[i].name), &res))
			continue;
		CHECK(res.errors == 1 && res.events == cases[i].events &&
			  strstr(res.first_error, cases[i].what) &&
			  strstr(res.first_error, ": packet at byte 0: bit "),
		      "%s: %zu events, error \"%s\"", cases[i].name, res.events, res.first_error);
		free(res.times.v);
	}
	/* Every fail trace is rejected one way or another: metadata or streams. */
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (decode_path(path_fmt("%s/ctf/fail/%s", conformance, all[i]), &res))
			continue;
		CHECK(res.errors > 0, "%s: accepted (%zu events)", all[i], res.events);
		free(res.times.v);
	}
}

/* ---- damaged copies ---- */

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*size = (size_t)n;
	return buf;
}

/* Decodes a damaged stream: success or a clean error, and a bounded number of steps. */
static void decode_damaged(const struct ctf_trace *trace, const char *path, const char *what)
{
	char err[512];
	struct ctf_stream_reader *r = ctf_stream_open(trace, path, err, sizeof(err));
	size_t steps = 0;
	int st;

	if (!r) {
		CHECK(0, "%s: %s", what, err);
		return;
	}
	while ((st = ctf_stream_next(r)) > 0 && steps < 10000000)
		steps++;
	CHECK(st <= 0, "%s: no end after %zu steps", what, steps);
	if (st < 0)
		CHECK(strstr(r->error, path) && strstr(r->error, ": packet at byte "), "%s: \"%s\"",
		      what, r->error);
	ctf_stream_close(r);
}

static void test_damaged(void)
{
	static const struct {
		const char *trace, *stream;
	} files[] = {
	    {"ctf/succeed/wk-heartbeat-u", "u_2"},
	    {"ctf/succeed/smalltrace", "dummystream"},
	    {"ctf/succeed/meta-variant-one-underscore", "stream"},
	    {"ctf/succeed/lttng-crash", NULL},
	    {"ctf/succeed/debug-info", NULL},
	};
	unsigned seed = 12345;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct ctf_trace_set set = {0};
		char err[256];
		const char *dir, *stream;
		struct tsdl_error terr;
		struct ctf_trace *trace;
		uint8_t *data, *copy;
		size_t size, k;
		const char *dst = path_fmt("%s/damaged", tmpdir);

		if (ctf_trace_set_add(&set, path_fmt("%s/%s", conformance, files[i].trace), err,
				      sizeof(err)) ||
		    set.nr_traces == 0 || set.traces[0].nr_streams == 0) {
			CHECK(0, "%s: %s", files[i].trace, err);
			ctf_trace_set_free(&set);
			continue;
		}
		dir = set.traces[0].path;
		stream = files[i].stream ? files[i].stream : set.traces[0].streams[0].name;
		trace = ctf_metadata_load(set.traces[0].metadata_path, &terr);
		data = slurp(path_fmt("%s/%s", dir, stream), &size);
		if (!trace || !data) {
			CHECK(0, "%s: cannot load", files[i].trace);
			goto next;
		}
		copy = malloc(size + 1);
		/* Truncated at 64 lengths spread over the file (and every small length). */
		for (k = 0; k < 64; k++) {
			size_t len = k < 16 ? k : size * k / 64;

			write_file(dst, data, len);
			decode_damaged(trace, dst, "truncated");
		}
		/* 200 copies with 1 to 4 random bytes changed. */
		for (k = 0; k < 200; k++) {
			int flips = 1 + (int)(k % 4), j;

			memcpy(copy, data, size);
			for (j = 0; j < flips && size; j++) {
				seed = seed * 1103515245 + 12345;
				copy[(seed >> 8) % size] ^= (uint8_t)(1 + ((seed >> 20) % 255));
			}
			write_file(dst, copy, size);
			decode_damaged(trace, dst, "flipped");
		}
		free(copy);
	next:
		free(data);
		ctf_trace_free(trace);
		ctf_trace_set_free(&set);
	}
}

static void rm_rf(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

int main(void)
{
	const char *c = getenv("TRAX_CONFORMANCE"), *s = getenv("TRAX_SRC");

	snprintf(conformance, sizeof(conformance), "%s", c ? c : "../shared/conformance");
	snprintf(source, sizeof(source), "%s", s ? s : ".");
	snprintf(tmpdir, sizeof(tmpdir), "%s/test_decode.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_clock();
	test_succeed_corpus();
	test_golden();
	test_values();
	test_hm_types();
	test_ctx_sequences();
	test_compact_header();
	test_faults();
	test_fail_corpus();
	test_damaged();
	rm_rf(tmpdir);
	if (!failures)
		printf("test_decode: all passed\n");
	return CHECK_RESULT();
}
