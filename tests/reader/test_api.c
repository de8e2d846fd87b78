/*
 * test_api.c - the public reader API (include/trax/reader.h) on the
 * conformance corpus: event counts and times against Babeltrace's expected
 * output (one line per event, TZ=UTC), chosen field values, environment
 * and clocks, seeking, merging two traces, errors and bad arguments.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trax/reader.h"

#include "check.h"

static char corpus[4096];

static const char *path_of(const char *kind, const char *name)
{
	static char bufs[4][8192];
	static int n;
	char *b = bufs[n++ % 4];

	snprintf(b, sizeof(bufs[0]), "%s/ctf/%s/%s", corpus, kind, name);
	return b;
}

/* The expected output's lines (malloc'd, NUL-terminated, without '\n'). */
struct lines {
	char **v;
	size_t n;
};

static void lines_load(struct lines *l, const char *name)
{
	char p[8192];
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	memset(l, 0, sizeof(*l));
	snprintf(p, sizeof(p), "%s/ctf/expected/%s.out", corpus, name);
	f = fopen(p, "r");
	if (!f) {
		CHECK(0, "cannot open %s", p);
		return;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[len - 1] = 0;
		l->v = realloc(l->v, (l->n + 1) * sizeof(*l->v));
		l->v[l->n++] = strdup(line);
	}
	free(line);
	fclose(f);
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* "[HH:MM:SS.nnnnnnnnn]" in UTC, as Babeltrace prints by default. */
static void fmt_time(int64_t ns, char *buf, size_t size)
{
	int64_t s = ns / 1000000000, frac = ns % 1000000000;
	time_t t;
	struct tm tm;

	if (frac < 0) {
		frac += 1000000000;
		s--;
	}
	t = (time_t)s;
	gmtime_r(&t, &tm);
	snprintf(buf, size, "[%02d:%02d:%02d.%09lld]", tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (long long)frac);
}

static struct trax_reader *open1(const char *path)
{
	const char *paths[1] = {path};
	struct trax_reader *r = trax_reader_open(paths, 1);

	CHECK(r, "open %s: %s", path, trax_reader_error(NULL));
	return r;
}

/* The name of the event Babeltrace printed on this line is name. */
static int line_has_name(const char *line, const char *name)
{
	char pat[512];
	size_t n = strlen(name);

	if (!strncmp(line, name, n) && line[n] == ':')
		return 1;
	snprintf(pat, sizeof(pat), " %s: ", name);
	return strstr(line, pat) != NULL;
}

/* Reads every event: count, times and names against the expected lines. */
static void check_all(const char *const *paths, size_t npaths, const char *expected)
{
	struct lines l;
	struct trax_reader *r = trax_reader_open(paths, npaths);
	const struct trax_event *ev;
	size_t n = 0;
	int st;

	lines_load(&l, expected);
	CHECK(r, "open for %s: %s", expected, trax_reader_error(NULL));
	if (!r) {
		lines_free(&l);
		return;
	}
	while ((st = trax_reader_next(r, &ev)) > 0) {
		if (n < l.n) {
			const char *line = l.v[n];

			CHECK(line_has_name(line, trax_event_name(ev)),
			      "%s: event %zu: name %s, line %s", expected, n, trax_event_name(ev),
			      line);
			if (line[0] == '[') {
				char t[64];

				CHECK(trax_event_has_timestamp(ev), "%s: event %zu has no time",
				      expected, n);
				fmt_time(trax_event_timestamp_ns(ev), t, sizeof(t));
				CHECK(!strncmp(line, t, strlen(t)),
				      "%s: event %zu: time %s, line %.40s", expected, n, t, line);
			}
		}
		n++;
	}
	CHECK(st == 0, "%s: next: %d: %s", expected, st, trax_reader_error(r));
	CHECK(n == l.n, "%s: %zu events, expected %zu", expected, n, l.n);
	trax_reader_close(r);
	lines_free(&l);
}

static int64_t int_field(const struct trax_event *ev, enum trax_scope scope, const char *name)
{
	const struct trax_field *f = trax_event_field_by_name(ev, scope, name);
	int64_t v = -12345;

	CHECK(f, "no field %s", name);
	CHECK(trax_field_int(f, &v) == 0, "field %s not an int", name);
	return v;
}

static const char *str_field(const struct trax_event *ev, enum trax_scope scope, const char *name)
{
	const struct trax_field *f = trax_event_field_by_name(ev, scope, name);
	const char *s;
	size_t len;

	CHECK(f, "no field %s", name);
	s = trax_field_string(f, &len);
	CHECK(s && strlen(s) == len, "field %s not a string", name);
	return s ? s : "";
}

static void test_counts(void)
{
	static const char *const names[] = {"smalltrace",
					    "sequence",
					    "wk-heartbeat-u",
					    "multi-domains",
					    "meta-variant-one-underscore",
					    "2packets",
					    "lttng-tracefile-rotation"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *p = path_of("succeed", names[i]);

		check_all(&p, 1, names[i]);
	}
	/* two traces given separately, merged in time order */
	{
		const char *p[2] = {path_of("succeed", "multi-domains/ust"),
				    path_of("succeed", "multi-domains/kernel")};

		check_all(p, 2, "multi-domains");
	}
}

/* One event as the tests compare them: name, time, the payload's first field. */
struct seen {
	char name[64];
	int has_ts;
	int64_t ts;
	uint64_t first;
};

static void seen_of(struct seen *s, const struct trax_event *ev)
{
	const struct trax_field *f = trax_event_field_by_index(ev, TRAX_SCOPE_PAYLOAD, 0);

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", trax_event_name(ev));
	s->has_ts = trax_event_has_timestamp(ev);
	s->ts = s->has_ts ? trax_event_timestamp_ns(ev) : 0;
	if (f && trax_field_uint(f, &s->first))
		s->first = 0x5eed;
}

struct each_ctx {
	struct seen *v;
	size_t n, cap, stop_at;
};

static int each_fn(void *ctx, const struct trax_event *ev)
{
	struct each_ctx *c = ctx;

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->v = realloc(c->v, c->cap * sizeof(*c->v));
	}
	seen_of(&c->v[c->n++], ev);
	return c->stop_at && c->n == c->stop_at ? 42 : 0;
}

/* trax_reader_each() gives what trax_reader_next() gives; it stops when told. */
static void test_each(void)
{
	static const char *const names[] = {"smalltrace",     "sequence",
					    "wk-heartbeat-u", "multi-domains",
					    "2packets",	      "lttng-tracefile-rotation"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *p = path_of("succeed", names[i]);
		struct trax_reader *r = trax_reader_open(&p, 1);
		struct each_ctx ref = {0}, got = {0};
		const struct trax_event *ev;
		int st;

		CHECK(r, "open %s", names[i]);
		if (!r)
			continue;
		while ((st = trax_reader_next(r, &ev)) > 0) {
			each_fn(&ref, ev);
		}
		CHECK(st == 0 && ref.n >= 2, "%s: %zu events by trax_reader_next()", names[i],
		      ref.n);
		CHECK(trax_reader_seek_ns(r, INT64_MIN) == 0, "%s: rewind", names[i]);
		st = trax_reader_each(r, each_fn, &got);
		CHECK(st == 0, "%s: trax_reader_each: %d: %s", names[i], st, trax_reader_error(r));
		CHECK(got.n == ref.n, "%s: %zu events by trax_reader_each(), %zu one by one",
		      names[i], got.n, ref.n);
		for (size_t k = 0; k < got.n && k < ref.n; k++)
			if (memcmp(&got.v[k], &ref.v[k], sizeof(got.v[k]))) {
				CHECK(0, "%s: event %zu differs (%s at %lld, %s at %lld)", names[i],
				      k, got.v[k].name, (long long)got.v[k].ts, ref.v[k].name,
				      (long long)ref.v[k].ts);
				break;
			}
		/* stopped after the second event: its value returned, the third next */
		got.n = 0;
		got.stop_at = 2;
		CHECK(trax_reader_seek_ns(r, INT64_MIN) == 0, "%s: rewind", names[i]);
		CHECK((st = trax_reader_each(r, each_fn, &got)) == 42 && got.n == 2,
		      "%s: a stop after 2 events: %d, %zu events", names[i], st, got.n);
		st = trax_reader_next(r, &ev);
		CHECK(st == (ref.n > 2), "%s: after the stop: %d", names[i], st);
		if (ev && ref.n > 2) {
			struct seen s;

			seen_of(&s, ev);
			CHECK(!memcmp(&s, &ref.v[2], sizeof(s)), "%s: after the stop: %s, not %s",
			      names[i], s.name, ref.v[2].name);
		}
		CHECK(trax_reader_each(r, NULL, NULL) == -1, "%s: NULL function accepted",
		      names[i]);
		free(ref.v);
		free(got.v);
		trax_reader_close(r);
	}
	CHECK(trax_reader_each(NULL, each_fn, NULL) == -1, "NULL reader accepted");
}

static void test_heartbeat(void)
{
	struct trax_reader *r = open1(path_of("succeed", "wk-heartbeat-u"));
	const struct trax_event *ev;
	const struct trax_field *f;
	struct trax_clock_info ci;
	int64_t v;
	uint64_t u, cyc;
	char t[64];

	if (!r)
		return;
	CHECK(trax_reader_trace_count(r) == 1, "trace count");
	CHECK(trax_reader_trace_path(r, 0) &&
		  strstr(trax_reader_trace_path(r, 0), "wk-heartbeat-u"),
	      "trace path");
	CHECK(trax_reader_trace_path(r, 1) == NULL, "bad trace index");
	CHECK(trax_reader_env_string(r, 0, "procname") &&
		  !strcmp(trax_reader_env_string(r, 0, "procname"), "wk-heartbeat"),
	      "env procname");
	CHECK(trax_reader_env_string(r, 0, "domain") &&
		  !strcmp(trax_reader_env_string(r, 0, "domain"), "ust"),
	      "env domain");
	CHECK(trax_reader_env_string(r, 0, "hostname") == NULL, "no hostname");
	CHECK(trax_reader_env_int(r, 0, "vpid", &v) == 0 && v == 3208, "env vpid");
	CHECK(trax_reader_env_int(r, 0, "domain", &v) == -1, "env domain is no int");
	CHECK(trax_reader_env_string(r, 0, "vpid") == NULL, "env vpid is no string");
	CHECK(trax_reader_env_count(r, 0) >= 7 && trax_reader_env_key(r, 0, 0), "env count");
	CHECK(trax_reader_clock_count(r, 0) == 1, "clock count");
	CHECK(trax_reader_clock(r, 0, 0, &ci) == 0 && !strcmp(ci.name, "monotonic") &&
		  ci.freq == 1000000000 && ci.offset == 1351530929945824323LL && ci.has_uuid &&
		  ci.uuid[0] == 0xc1 && ci.description &&
		  !strcmp(ci.description, "Monotonic Clock"),
	      "clock");
	CHECK(trax_reader_clock(r, 0, 1, &ci) == -1, "bad clock index");

	CHECK(trax_reader_next(r, &ev) == 1, "first event");
	CHECK(!strcmp(trax_event_name(ev), "heartbeat:msg"), "name %s", trax_event_name(ev));
	fmt_time(trax_event_timestamp_ns(ev), t, sizeof(t));
	CHECK(!strcmp(t, "[17:48:17.586558519]"), "time %s", t);
	CHECK(trax_event_clock_cycles(ev, &cyc) == 0 &&
		  (int64_t)cyc + 1351530929945824323LL == trax_event_timestamp_ns(ev),
	      "cycles");
	CHECK(!strcmp(str_field(ev, TRAX_SCOPE_PAYLOAD, "msg"), "heartbeat"), "msg");
	CHECK(int_field(ev, TRAX_SCOPE_STREAM_EVENT_CONTEXT, "vtid") == 3214, "vtid");
	CHECK(int_field(ev, TRAX_SCOPE_STREAM_EVENT_CONTEXT, "vpid") == 3208, "vpid");
	f = trax_event_field_by_name(ev, TRAX_SCOPE_PACKET_CONTEXT, "cpu_id");
	CHECK(f && trax_field_kind(f) == TRAX_FIELD_UNSIGNED && trax_field_uint(f, &u) == 0 &&
		  u == 2,
	      "cpu_id");
	CHECK(trax_event_field_count(ev, TRAX_SCOPE_PAYLOAD) == 1, "payload count");
	f = trax_event_field_by_index(ev, TRAX_SCOPE_PAYLOAD, 0);
	CHECK(f && trax_field_kind(f) == TRAX_FIELD_STRING && !strcmp(trax_field_name(f), "msg"),
	      "payload[0]");
	CHECK(trax_event_field_by_index(ev, TRAX_SCOPE_PAYLOAD, 1) == NULL, "payload[1]");
	CHECK(trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "nope") == NULL, "no field");
	CHECK(trax_event_field_count(ev, TRAX_SCOPE_EVENT_CONTEXT) == 0, "no event context");
	CHECK(trax_event_field_count(ev, TRAX_SCOPE_PACKET_CONTEXT) >= 1, "packet context");
	CHECK(trax_event_field_count(ev, (enum trax_scope)99) == 0, "bad scope");
	CHECK(trax_event_trace_index(ev) == 0, "trace index");

	CHECK(trax_reader_next(r, &ev) == 1, "second event");
	CHECK(int_field(ev, TRAX_SCOPE_STREAM_EVENT_CONTEXT, "vtid") == 3215, "vtid 2");
	CHECK(trax_field_uint(trax_event_field_by_name(ev, TRAX_SCOPE_PACKET_CONTEXT, "cpu_id"),
			      &u) == 0 &&
		  u == 4,
	      "cpu_id 2");
	trax_reader_close(r);
}

static void test_sequence(void)
{
	struct trax_reader *r = open1(path_of("succeed", "sequence"));
	const struct trax_event *ev;
	const struct trax_field *f, *c;
	int64_t v;

	if (!r)
		return;
	CHECK(trax_reader_next(r, &ev) == 1, "first event");
	CHECK(!strcmp(trax_event_name(ev), "sequence event"), "name %s", trax_event_name(ev));
	f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "seq_int_field");
	CHECK(f && trax_field_kind(f) == TRAX_FIELD_SEQUENCE && trax_field_child_count(f) == 6,
	      "seq_int_field");
	c = trax_field_child(f, 5);
	CHECK(c && trax_field_int(c, &v) == 0 && v == -6 && trax_field_name(c) == NULL,
	      "seq_int_field[5]");
	CHECK(trax_field_child(f, 6) == NULL, "seq_int_field[6]");
	/* the TSDL name and the display name of the length */
	CHECK(int_field(ev, TRAX_SCOPE_PAYLOAD, "_seq_long_field_length") == 6, "length");
	f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "seq_long_field");
	CHECK(f && trax_field_int(trax_field_child(f, 2), &v) == 0 && v == 30, "seq_long_field[2]");
	CHECK(trax_field_string(f, NULL) == NULL, "not a string");
	CHECK(trax_field_enum_label(f, 0) == NULL, "not an enum");
	trax_reader_close(r);
}

static void test_multi_domains(void)
{
	struct trax_reader *r = open1(path_of("succeed", "multi-domains"));
	const struct trax_event *ev;
	const struct trax_field *f;
	size_t len;
	int64_t v;
	double d;
	int seen[2] = {0, 0};

	if (!r)
		return;
	CHECK(trax_reader_trace_count(r) == 2, "two traces");
	for (size_t i = 0; i < 2 && trax_reader_trace_count(r) == 2; i++) {
		const char *dom = trax_reader_env_string(r, i, "domain");
		const char *host = trax_reader_env_string(r, i, "hostname");

		CHECK(host && !strcmp(host, "joraj-alpa"), "hostname");
		CHECK(dom && (!strcmp(dom, "kernel") || !strcmp(dom, "ust")), "domain");
		CHECK(dom && strstr(trax_reader_trace_path(r, i), dom), "trace path %s",
		      trax_reader_trace_path(r, i));
	}
	CHECK(trax_reader_next(r, &ev) == 1, "first event");
	CHECK(!strcmp(trax_event_name(ev), "lttng_test_filter_event"), "name");
	CHECK(int_field(ev, TRAX_SCOPE_PAYLOAD, "intfield") == 0, "intfield");
	f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "arrfield2");
	CHECK(f && trax_field_kind(f) == TRAX_FIELD_ARRAY && trax_field_string(f, &len) &&
		  !strcmp(trax_field_string(f, NULL), "test") && len == 4,
	      "text array");
	CHECK(f && trax_field_child_count(f) == 10 &&
		  trax_field_int(trax_field_child(f, 1), &v) == 0 && v == 'e',
	      "text array element");
	f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "seqfield2");
	CHECK(f && !strcmp(trax_field_string(f, NULL), "test"), "text sequence");
	CHECK(!strcmp(str_field(ev, TRAX_SCOPE_PAYLOAD, "stringfield2"), "\\*"), "stringfield2");
	f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "enum202");
	CHECK(f && trax_field_kind(f) == TRAX_FIELD_ENUM && trax_field_int(f, &v) == 0 &&
		  v == 202 && trax_field_enum_label(f, 0) &&
		  !strcmp(trax_field_enum_label(f, 0), "RANGE: 101 TO 303") &&
		  trax_field_enum_label(f, 1) == NULL,
	      "enum202");
	CHECK(trax_field_double(f, &d) == 0 && d == 202.0, "enum as double");
	f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "bitfield_seq_padding");
	CHECK(f && trax_field_kind(f) == TRAX_FIELD_STRUCT && trax_field_child_count(f) == 0,
	      "empty struct");
	/* both traces give events */
	do {
		seen[trax_event_trace_index(ev) & 1]++;
	} while (trax_reader_next(r, &ev) > 0);
	CHECK(seen[0] && seen[1], "events of both traces: %d %d", seen[0], seen[1]);
	trax_reader_close(r);
}

static void test_variant(void)
{
	struct trax_reader *r = open1(path_of("succeed", "meta-variant-one-underscore"));
	const struct trax_event *ev;
	const struct trax_field *f, *o;
	size_t len;

	if (!r)
		return;
	CHECK(trax_reader_next(r, &ev) == 1, "event");
	CHECK(!strcmp(trax_event_name(ev), "yo"), "name");
	CHECK(!trax_event_has_timestamp(ev), "no time");
	f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "tag");
	CHECK(f && trax_field_kind(f) == TRAX_FIELD_ENUM && trax_field_enum_label(f, 0) &&
		  !strcmp(trax_field_enum_label(f, 0), "PELCHAT"),
	      "tag");
	f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "var");
	CHECK(f && trax_field_kind(f) == TRAX_FIELD_VARIANT && trax_field_child_count(f) == 1,
	      "var");
	o = trax_field_variant_selected(f);
	CHECK(o && trax_field_name(o) && !strcmp(trax_field_name(o), "PELCHAT") &&
		  trax_field_kind(o) == TRAX_FIELD_STRING &&
		  !strcmp(trax_field_string(o, &len), "Daniel Lavoie") && len == 13,
	      "selected option");
	CHECK(trax_field_child_by_name(f, "PELCHAT") != NULL, "option by name");
	CHECK(trax_field_child_by_name(f, "COSSETTE") == NULL, "other option");
	CHECK(trax_reader_next(r, &ev) == 0 && ev == NULL, "end");
	CHECK(trax_reader_next(r, &ev) == 0, "end again");
	trax_reader_close(r);
}

static size_t count_rest(struct trax_reader *r)
{
	const struct trax_event *ev;
	size_t n = 0;

	while (trax_reader_next(r, &ev) > 0)
		n++;
	return n;
}

static void test_seek_in(const char *name, size_t target)
{
	struct trax_reader *r = open1(path_of("succeed", name));
	const struct trax_event *ev;
	int64_t *ts = NULL;
	size_t n = 0, first;
	uint64_t cyc_at = 0;

	if (!r)
		return;
	while (trax_reader_next(r, &ev) > 0) {
		ts = realloc(ts, (n + 1) * sizeof(*ts));
		ts[n] = trax_event_timestamp_ns(ev);
		if (n == target)
			trax_event_clock_cycles(ev, &cyc_at);
		n++;
	}
	CHECK(n > target, "%s: %zu events", name, n);
	if (n <= target)
		goto out;
	for (first = target; first > 0 && ts[first - 1] == ts[target]; first--)
		;
	CHECK(trax_reader_seek_ns(r, ts[target]) == 0, "seek: %s", trax_reader_error(r));
	CHECK(trax_reader_next(r, &ev) == 1 && trax_event_timestamp_ns(ev) == ts[target],
	      "%s: seek to event %zu", name, target);
	if (first == target) {
		uint64_t c = 0;

		CHECK(trax_event_clock_cycles(ev, &c) == 0 && c == cyc_at, "%s: same event", name);
	}
	CHECK(count_rest(r) + 1 == n - first, "%s: events after the seek", name);
	/* seek to 1 ns after: the first event after it */
	CHECK(trax_reader_seek_ns(r, ts[target] + 1) == 0, "seek+1");
	if (ts[n - 1] > ts[target])
		CHECK(trax_reader_next(r, &ev) == 1 && trax_event_timestamp_ns(ev) > ts[target],
		      "%s: seek+1", name);
	else
		CHECK(trax_reader_next(r, &ev) == 0, "%s: seek+1 at the end", name);
	/* before the first: everything */
	CHECK(trax_reader_seek_ns(r, ts[0] - 1000) == 0, "seek before");
	CHECK(count_rest(r) == n, "%s: seek before the first", name);
	CHECK(trax_reader_seek_ns(r, INT64_MIN) == 0 && count_rest(r) == n, "seek INT64_MIN");
	/* after the last: nothing */
	CHECK(trax_reader_seek_ns(r, ts[n - 1] + 1) == 0, "seek after");
	CHECK(trax_reader_next(r, &ev) == 0, "%s: seek after the last", name);
	CHECK(trax_reader_seek_ns(r, ts[n - 1]) == 0 && trax_reader_next(r, &ev) == 1 &&
		  trax_event_timestamp_ns(ev) == ts[n - 1],
	      "seek to the last");
out:
	free(ts);
	trax_reader_close(r);
}

static void test_seek(void)
{
	test_seek_in("wk-heartbeat-u", 9);
	test_seek_in("multi-domains", 9);
	test_seek_in("multi-domains", 3000);
	/* many packets: seeking passes over the packets that end before the time */
	for (size_t target = 250; target < 4272; target += 377)
		test_seek_in("multi-domains", target);
	test_seek_in("sequence", 9);
}

/* Copies file `name` of directory from into directory to. */
static void copy_file(const char *from, const char *to, const char *name)
{
	char a[8192], b[8192], buf[65536];
	FILE *in, *out;
	size_t n;

	snprintf(a, sizeof(a), "%s/%s", from, name);
	snprintf(b, sizeof(b), "%s/%s", to, name);
	in = fopen(a, "rb");
	out = fopen(b, "wb");
	CHECK(in && out, "copy %s to %s", a, b);
	while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		CHECK(fwrite(buf, 1, n, out) == n, "write %s", b);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
}

/* The events from the seek to ns on, as "timestamp name" lines; -1 on error. */
static long events_from(const char *dir, int64_t ns, char *out, size_t len)
{
	const char *paths[1] = {dir};
	struct trax_reader *r = trax_reader_open(paths, 1);
	const struct trax_event *ev;
	long n = 0;
	size_t used = 0;
	int st;

	if (!r)
		return -1;
	out[0] = 0;
	if (trax_reader_seek_ns(r, ns)) {
		trax_reader_close(r);
		return -1;
	}
	while ((st = trax_reader_next(r, &ev)) > 0) {
		used +=
		    (size_t)snprintf(out + used, used < len ? len - used : 0, "%lld %s\n",
				     (long long)trax_event_timestamp_ns(ev), trax_event_name(ev));
		n++;
	}
	trax_reader_close(r);
	return st < 0 ? -1 : n;
}

/*
 * Seeking uses LTTng's packet index: the packets that end before the time
 * sought are passed over without being read. A copy of a kernel trace
 * whose index lists 17 packets in kernel_channel_0 gets a broken packet
 * header in its fourth packet: a seek past it reads the same events as in
 * the intact trace, while without the index file the same seek reads that
 * packet and fails.
 */
static void test_seek_index(void)
{
	const char *src = path_of("succeed", "multi-domains/kernel");
	const char *files[] = {"metadata", "kernel_channel_0", "kernel_channel_1",
			       "kernel_channel_2", "kernel_channel_3"};
	char dir[] = "/tmp/trax-test-seek-XXXXXX", sub[64], idx[128], path[128];
	static char want[1 << 16], got[1 << 16];
	uint8_t e[8];
	uint64_t off = 0;
	int64_t last = 0;
	const struct trax_event *ev;
	struct trax_reader *r;
	FILE *f;
	long n;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(sub, sizeof(sub), "%s/index", dir);
	CHECK(mkdir(sub, 0700) == 0, "mkdir %s", sub);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		copy_file(src, dir, files[i]);
	for (int i = 0; i < 4; i++) {
		char from[8192], name[64];

		snprintf(from, sizeof(from), "%s/index", src);
		snprintf(name, sizeof(name), "kernel_channel_%d.idx", i);
		copy_file(from, sub, name);
	}
	/* the time of the trace's last event */
	r = open1(dir);
	while (r && trax_reader_next(r, &ev) > 0)
		last = trax_event_timestamp_ns(ev);
	trax_reader_close(r);
	n = events_from(dir, last, want, sizeof(want));
	CHECK(n > 0, "seek to the last event of the intact copy: %ld events", n);

	/* entry 3's offset (the index's header is 16 bytes, each entry 72) */
	snprintf(idx, sizeof(idx), "%s/kernel_channel_0.idx", sub);
	f = fopen(idx, "rb");
	CHECK(f && fseek(f, 16 + 3 * 72, SEEK_SET) == 0 && fread(e, 1, 8, f) == 8, "read %s", idx);
	if (f)
		fclose(f);
	for (int i = 0; i < 8; i++)
		off = off << 8 | e[i];
	CHECK(off > 0, "packet 3 at byte %llu", (unsigned long long)off);
	snprintf(path, sizeof(path), "%s/kernel_channel_0", dir);
	f = fopen(path, "r+b");
	CHECK(f && fseek(f, (long)off, SEEK_SET) == 0 && fwrite("\0\0\0\0", 1, 4, f) == 4,
	      "break the magic of packet 3");
	if (f)
		fclose(f);

	CHECK(events_from(dir, last, got, sizeof(got)) == n && strcmp(got, want) == 0,
	      "seek over a broken packet with the index: not the intact trace's events");
	CHECK(events_from(dir, INT64_MIN, got, sizeof(got)) < 0,
	      "reading every packet does not meet the broken one");
	unlink(idx);
	CHECK(events_from(dir, last, got, sizeof(got)) < 0,
	      "without the index the seek does not read the broken packet");

	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/kernel_channel_%d.idx", sub, i);
		unlink(path);
	}
	rmdir(sub);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

static void test_errors(void)
{
	const struct trax_event *ev = (const struct trax_event *)1;
	const char *p;
	struct trax_reader *r;
	size_t n = 0;
	int st;

	/* metadata syntax error: open fails, the message names the file and line */
	p = path_of("fail", "metadata-syntax-error");
	r = trax_reader_open(&p, 1);
	CHECK(!r, "bad metadata opens");
	CHECK(strstr(trax_reader_error(NULL), "metadata:"), "error: %s", trax_reader_error(NULL));
	trax_reader_close(r);

	/* two valid events, then an invalid one */
	p = path_of("fail", "valid-events-then-invalid-events");
	r = trax_reader_open(&p, 1);
	CHECK(r, "open: %s", trax_reader_error(NULL));
	if (r) {
		while ((st = trax_reader_next(r, &ev)) > 0)
			n++;
		CHECK(st == -1 && n == 2, "st %d after %zu events", st, n);
		CHECK(strstr(trax_reader_error(r), "dummystream") &&
			  strstr(trax_reader_error(r), "packet at byte"),
		      "error: %s", trax_reader_error(r));
		CHECK(trax_reader_next(r, &ev) == -1 && ev == NULL, "error is sticky");
		CHECK(trax_reader_seek_ns(r, INT64_MIN) == 0, "seek after error");
		CHECK(trax_reader_next(r, &ev) == 1, "events again after seek");
		trax_reader_close(r);
	}

	/* packet sizes beyond the file */
	p = path_of("fail", "invalid-packet-size");
	r = trax_reader_open(&p, 1);
	if (r) {
		while ((st = trax_reader_next(r, &ev)) > 0)
			;
		CHECK(st == -1 && strstr(trax_reader_error(r), "channel0_3"), "error: %s",
		      trax_reader_error(r));
		trax_reader_close(r);
	} else {
		CHECK(strstr(trax_reader_error(NULL), "channel0_3"), "error: %s",
		      trax_reader_error(NULL));
	}

	/* every fail trace: an error with a message, never a crash */
	{
		static const char *const fails[] = {"fail1",
						    "fail2",
						    "integer-range",
						    "invalid-sequence-length-field-class",
						    "invalid-variant-selector-field-class",
						    "lttng-modules-2.0-pre1",
						    "packet-based-metadata",
						    "smalltrace"};

		for (size_t i = 0; i < sizeof(fails) / sizeof(fails[0]); i++) {
			p = path_of("fail", fails[i]);
			r = trax_reader_open(&p, 1);
			if (!r) {
				CHECK(trax_reader_error(NULL)[0] &&
					  strstr(trax_reader_error(NULL), "/"),
				      "%s: error: %s", fails[i], trax_reader_error(NULL));
				continue;
			}
			while ((st = trax_reader_next(r, &ev)) > 0)
				;
			CHECK(st == -1 && strstr(trax_reader_error(r), fails[i]), "%s: st %d: %s",
			      fails[i], st, trax_reader_error(r));
			trax_reader_close(r);
		}
	}

	/* missing path */
	p = path_of("succeed", "no-such-trace");
	CHECK(trax_reader_open(&p, 1) == NULL && strstr(trax_reader_error(NULL), "no-such-trace"),
	      "missing: %s", trax_reader_error(NULL));

	/* NULL and invalid arguments */
	CHECK(trax_reader_open(NULL, 1) == NULL && trax_reader_error(NULL)[0], "NULL paths");
	CHECK(trax_reader_open(&p, 0) == NULL, "no paths");
	{
		const char *nul[1] = {NULL};

		CHECK(trax_reader_open(nul, 1) == NULL, "NULL path");
	}
	trax_reader_close(NULL);
	CHECK(trax_reader_next(NULL, &ev) == -1 && ev == NULL, "next NULL");
	CHECK(trax_reader_seek_ns(NULL, 0) == -1, "seek NULL");
	CHECK(trax_reader_trace_count(NULL) == 0, "count NULL");
	CHECK(trax_reader_trace_path(NULL, 0) == NULL, "path NULL");
	CHECK(trax_reader_env_string(NULL, 0, "x") == NULL, "env NULL");
	CHECK(trax_reader_env_int(NULL, 0, "x", NULL) == -1, "env int NULL");
	CHECK(trax_reader_clock(NULL, 0, 0, NULL) == -1, "clock NULL");
	CHECK(trax_event_name(NULL) == NULL && trax_event_has_timestamp(NULL) == 0 &&
		  trax_event_timestamp_ns(NULL) == 0 && trax_event_clock_cycles(NULL, NULL) == -1,
	      "event NULL");
	CHECK(trax_event_field_count(NULL, TRAX_SCOPE_PAYLOAD) == 0 &&
		  trax_event_field_by_index(NULL, TRAX_SCOPE_PAYLOAD, 0) == NULL &&
		  trax_event_field_by_name(NULL, TRAX_SCOPE_PAYLOAD, "x") == NULL,
	      "fields of NULL");
	{
		int64_t v;
		uint64_t u;
		double d;

		CHECK(trax_field_kind(NULL) == TRAX_FIELD_INVALID &&
			  trax_field_name(NULL) == NULL && trax_field_int(NULL, &v) == -1 &&
			  trax_field_uint(NULL, &u) == -1 && trax_field_double(NULL, &d) == -1 &&
			  trax_field_string(NULL, NULL) == NULL &&
			  trax_field_enum_label(NULL, 0) == NULL &&
			  trax_field_child_count(NULL) == 0 && trax_field_child(NULL, 0) == NULL &&
			  trax_field_child_by_name(NULL, "x") == NULL &&
			  trax_field_variant_selected(NULL) == NULL,
		      "NULL field");
	}
	p = path_of("succeed", "wk-heartbeat-u");
	r = trax_reader_open(&p, 1);
	CHECK(r, "open");
	if (r) {
		const struct trax_field *f;
		int64_t v;

		CHECK(trax_reader_next(r, NULL) == -1 && trax_reader_error(r)[0], "next(NULL)");
		CHECK(trax_reader_next(r, &ev) == 1, "next after a bad call");
		CHECK(trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, NULL) == NULL, "NULL name");
		f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "msg");
		CHECK(trax_field_int(f, &v) == -1 && trax_field_int(f, NULL) == -1 &&
			  trax_field_child(f, 0) == NULL,
		      "wrong getters");
		CHECK(trax_reader_env_string(r, 0, NULL) == NULL &&
			  trax_reader_env_int(r, 5, "vpid", &v) == -1,
		      "bad env args");
		trax_reader_close(r);
	}
}

static char golden[4096];

struct event_ids {
	uint64_t stream_class, stream;
	const char *name;
	uint64_t id;
};

/*
 * Each event's stream class id, stream id, name and class id, in order,
 * against Babeltrace 2's (sink.text.details of the same trace: streams
 * without stream_instance_id numbered as it numbers them).
 */
static void check_ids(const char *trace, const struct event_ids *exp, size_t n)
{
	char path[8192];
	struct trax_reader *r;
	const struct trax_event *ev;
	size_t i = 0;
	int st;

	snprintf(path, sizeof(path), "%s/%s", golden, trace);
	if (!(r = open1(path)))
		return;
	while ((st = trax_reader_next(r, &ev)) > 0) {
		if (i < n)
			CHECK(trax_event_stream_class_id(ev) == exp[i].stream_class &&
				  trax_event_stream_id(ev) == exp[i].stream &&
				  !strcmp(trax_event_name(ev), exp[i].name) &&
				  trax_event_id(ev) == exp[i].id,
			      "%s: event %zu: stream class %llu, stream %llu, %s, id %llu; "
			      "expected %llu, %llu, %s, %llu",
			      trace, i, (unsigned long long)trax_event_stream_class_id(ev),
			      (unsigned long long)trax_event_stream_id(ev), trax_event_name(ev),
			      (unsigned long long)trax_event_id(ev),
			      (unsigned long long)exp[i].stream_class,
			      (unsigned long long)exp[i].stream, exp[i].name,
			      (unsigned long long)exp[i].id);
		i++;
	}
	CHECK(st == 0 && i == n, "%s: %zu events (expected %zu), status %d: %s", trace, i, n, st,
	      trax_reader_error(r));
	trax_reader_close(r);
}

static void test_stream_ids(void)
{
	static const struct event_ids hm_clock[] = {
	    {0, 1, "a:ev", 0}, {0, 1, "a:ev", 0}, {0, 1, "a:ev", 0}, {1, 0, "b:ev", 0},
	    {0, 1, "a:ev", 0}, {1, 0, "b:ev", 0}, {0, 1, "a:ev", 0}, {0, 1, "a:ev", 0},
	    {0, 1, "a:ev", 0}, {1, 0, "b:ev", 0}, {0, 1, "a:ev", 0}, {0, 1, "a:zz", 1},
	    {1, 0, "b:ev", 0}, {1, 0, "b:ev", 0},
	};
	static const struct event_ids ust_fields[] = {
	    {0, 0, "lttng_ust_statedump:start", 0},
	    {0, 0, "lttng_ust_statedump:procname", 4},
	    {0, 0, "lttng_ust_statedump:end", 5},
	    {0, 1, "fields:integers", 26},
	    {0, 1, "fields:integers_special", 27},
	    {0, 1, "fields:floats", 28},
	    {0, 1, "fields:strings", 29},
	    {0, 1, "fields:null_string", 30},
	    {0, 1, "fields:arrays", 31},
	    {0, 1, "fields:sequences", 32},
	    {0, 1, "fields:enums", 33},
	    {0, 1, "fields:pair_first", 34},
	    {0, 1, "fields:pair_second", 35},
	    {0, 1, "fields:empty", 36},
	    {0, 1, "fields:ten_args", 37},
	    {0, 1, "fields:lvl_emerg", 38},
	    {0, 1, "fields:lvl_alert", 39},
	    {0, 1, "fields:lvl_crit", 40},
	    {0, 1, "fields:lvl_err", 41},
	    {0, 1, "fields:lvl_warning", 42},
	    {0, 1, "fields:lvl_notice", 43},
	    {0, 1, "fields:lvl_info", 44},
	    {0, 1, "fields:lvl_debug_system", 45},
	    {0, 1, "fields:lvl_debug_program", 46},
	    {0, 1, "fields:lvl_debug_process", 47},
	    {0, 1, "fields:lvl_debug_module", 48},
	    {0, 1, "fields:lvl_debug_unit", 49},
	    {0, 1, "fields:lvl_debug_function", 50},
	    {0, 1, "fields:lvl_debug_line", 51},
	    {0, 1, "fields:lvl_debug", 52},
	    {0, 1, "fields:lvl_default", 53},
	};

	check_ids("hm-clock", hm_clock, sizeof(hm_clock) / sizeof(hm_clock[0]));
	check_ids("ust-fields", ust_fields, sizeof(ust_fields) / sizeof(ust_fields[0]));
}

/* A float field's value from trax_field_double, within what its type holds. */
static double double_field(const struct trax_event *ev, const char *name)
{
	const struct trax_field *f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, name);
	double d = -12345;

	CHECK(f && trax_field_kind(f) == TRAX_FIELD_FLOAT, "%s: not a float field", name);
	CHECK(f && trax_field_double(f, &d) == 0, "%s: trax_field_double failed", name);
	return d;
}

/* Floats and TSDL names on the golden hm-types trace (values in make-handmade.sh). */
static void test_floats_and_names(void)
{
	char path[8192];
	struct trax_reader *r;
	const struct trax_event *ev = NULL;
	const struct trax_field *f;
	int64_t v;
	double d;

	snprintf(path, sizeof(path), "%s/hm-types", golden);
	if (!(r = open1(path)))
		return;
	CHECK(trax_reader_next(r, &ev) > 0 && !strcmp(trax_event_name(ev), "hm:ints"), "hm:ints");
	/* _under and __double lose one underscore when displayed */
	f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "under");
	CHECK(f && !strcmp(trax_field_name(f), "under") &&
		  !strcmp(trax_field_tsdl_name(f), "_under") && !trax_field_int(f, &v) && v == 1,
	      "_under: %s / %s", f ? trax_field_name(f) : "-", f ? trax_field_tsdl_name(f) : "-");
	f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "__double");
	CHECK(f && !strcmp(trax_field_name(f), "_double") &&
		  !strcmp(trax_field_tsdl_name(f), "__double") && !trax_field_int(f, &v) && v == 2,
	      "__double found by its TSDL name");
	f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "_under");
	CHECK(f && !strcmp(trax_field_tsdl_name(f), "_under"), "_under found by its TSDL name");
	/* an integer converts to a double */
	CHECK(trax_field_double(trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "s5"), &d) == 0 &&
		  d == -3.0,
	      "s5 as a double: %g", d);

	CHECK(trax_reader_next(r, &ev) > 0 && !strcmp(trax_event_name(ev), "hm:floats"),
	      "hm:floats");
	CHECK(double_field(ev, "f_tenth") == (double)0.1f, "f_tenth");
	CHECK(double_field(ev, "f_be") == -2.5, "f_be (big endian)");
	CHECK(double_field(ev, "f_max") == (double)3.40282346638528859812e+38F, "f_max");
	CHECK(double_field(ev, "f_denorm") == (double)1.40129846432481707092e-45F, "f_denorm");
	d = double_field(ev, "f_mzero");
	CHECK(d == 0 && signbit(d), "f_mzero is -0");
	CHECK(isnan(double_field(ev, "f_nan")), "f_nan");
	CHECK(isinf(d = double_field(ev, "f_minf")) && d < 0, "f_minf");
	CHECK(double_field(ev, "d_tenth") == 0.1, "d_tenth");
	CHECK(double_field(ev, "d_third") == 1.0 / 3.0, "d_third");
	CHECK(double_field(ev, "d_max") == 1.7976931348623157e308, "d_max");
	CHECK(double_field(ev, "d_denorm") == 4.9406564584124654e-324, "d_denorm");
	CHECK(double_field(ev, "d_m2") == -2.0, "d_m2");
	/* not a string, not an integer */
	f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "d_tenth");
	CHECK(!trax_field_string(f, NULL) && trax_field_int(f, &v) == -1,
	      "a float is only a float");
	trax_reader_close(r);
}

int main(void)
{
	const char *c = getenv("TRAX_CONFORMANCE");

	const char *src = getenv("TRAX_SRC");

	snprintf(corpus, sizeof(corpus), "%s", c && *c ? c : "../shared/conformance");
	snprintf(golden, sizeof(golden), "%s/tests/reader/golden", src && *src ? src : ".");
	test_counts();
	test_each();
	test_heartbeat();
	test_sequence();
	test_multi_domains();
	test_seek_index();
	test_variant();
	test_seek();
	test_errors();
	test_stream_ids();
	test_floats_and_names();
	if (!failures)
		printf("test_api: all passed\n");
	return CHECK_RESULT();
}
