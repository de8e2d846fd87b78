/*
 * test_print.c - the public printing and counting calls (trax/reader.h):
 * trax_reader_print() gives babeltrace2's text (tests/reader/golden/
 * expected, made by babeltrace2) for each option, on one thread, on two,
 * and on two in chunks of one event; JSON lines; a printer of chosen events
 * (trax_printer_*) the same text and JSON; trax_reader_count() the
 * number of events trax_reader_next() gives, on one thread and on two
 * (halves by the packet indexes), also after some events were read; the
 * options structures' sizes; the errors (unknown list items, a bad file
 * descriptor, a pipe without a reader: -2 and EPIPE).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "trax/reader.h"

static char golden[4096], corpus[4096];

/* The whole content of a file (NUL-terminated), NULL when it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 65536 + 1 > cap) {
			char *nb = realloc(buf, cap = 2 * cap + 65536 + 1);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 65536, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* trax_reader_print() of trace (relative to golden/) with o into a file; its text. */
static char *print_to_text(const char *trace, const struct trax_reader_options *ro,
			   const struct trax_print_options *po, int *status, size_t *len)
{
	const char *paths[1] = {trace};
	char tmp[] = "/tmp/trax-test-print.XXXXXX";
	int fd = mkstemp(tmp);
	struct trax_reader *r = trax_reader_open_with(paths, 1, ro);
	char *text;

	CHECK(r, "%s: %s", trace, trax_reader_error(NULL));
	CHECK(fd >= 0);
	*status = r && fd >= 0 ? trax_reader_print(r, fd, po) : -9;
	CHECK(*status == 0, "%s: print: %d %s", trace, *status, r ? trax_reader_error(r) : "");
	trax_reader_close(r);
	close(fd);
	text = slurp(tmp, len);
	unlink(tmp);
	return text;
}

/* Every way of printing trace gives expected/NAME.out. */
static void check_expected(const char *trace, const char *name, const struct trax_print_options *po)
{
	char path[4200];
	size_t want_len, len;
	char *want;

	snprintf(path, sizeof(path), "expected/%s.%s.out", trace, name);
	want = slurp(path, &want_len);
	CHECK(want, "cannot read %s", path);
	if (!want)
		return;
	for (unsigned int way = 0; way < 3; way++) {
		struct trax_reader_options ro;
		struct trax_print_options o = *po;
		int st;
		char *got;

		trax_reader_options_init(&ro);
		ro.trace_order = TRAX_TRACE_ORDER_BY_NAME;
		ro.threads = way == 0 ? 1 : 0;
		o.chunk_events = way == 2 ? 1 : 0;
		got = print_to_text(trace, &ro, &o, &st, &len);
		CHECK(got && len == want_len && !memcmp(got, want, len),
		      "%s %s (way %u): %zu bytes, not the %zu of babeltrace2", trace, name, way,
		      len, want_len);
		free(got);
	}
	free(want);
}

static void test_text(void)
{
	struct trax_print_options o;

	trax_print_options_init(&o);
	CHECK_EQ(o.size, sizeof(o));
	CHECK(o.format == TRAX_PRINT_TEXT && !o.names && !o.fields && !o.clock_gmt);
	check_expected("hm-types", "default", &o);
	check_expected("hm-clock-mhz", "default", &o);
	o.no_delta = 1;
	check_expected("hm-types", "no-delta", &o);
	trax_print_options_init(&o);
	o.clock_cycles = 1;
	check_expected("hm-clock-mhz", "clock-cycles", &o);
	trax_print_options_init(&o);
	o.clock_seconds = 1;
	o.clock_date = 1;
	check_expected("hm-clock-mhz", "clock-seconds.clock-date", &o);
	trax_print_options_init(&o);
	o.clock_date = 1;
	o.clock_gmt = 1;
	check_expected("hm-clock-mhz", "clock-date.clock-gmt", &o);
	/* local time, and UTC whatever the time zone */
	setenv("TZ", "America/Montreal", 1);
	tzset();
	trax_print_options_init(&o);
	o.clock_date = 1;
	check_expected("hm-types", "tz-montreal.clock-date", &o);
	o.clock_gmt = 1;
	check_expected("hm-types", "tz-montreal.clock-date.clock-gmt", &o);
	setenv("TZ", "UTC", 1);
	tzset();
	trax_print_options_init(&o);
	o.names = "all";
	o.fields = "all";
	check_expected("hm-types", "names-all.fields-all", &o);
	trax_print_options_init(&o);
	o.names = "header";
	o.fields = "trace,loglevel";
	check_expected("hm-clock-mhz", "names-header.fields-trace,loglevel", &o);
}

static void test_json(void)
{
	struct trax_reader_options ro;
	struct trax_print_options o;
	size_t len, lines = 0;
	int st;
	char *text;

	trax_reader_options_init(&ro);
	trax_print_options_init(&o);
	o.format = TRAX_PRINT_JSON;
	text = print_to_text("hm-types", &ro, &o, &st, &len);
	CHECK(text &&
		  !strncmp(text, "{\"timestamp\": 1700000001123456789, \"name\": \"hm:ints\"", 50),
	      "JSON: %.80s", text ? text : "(none)");
	for (size_t i = 0; text && i < len; i++)
		lines += text[i] == '\n';
	CHECK(lines > 2, "JSON: %zu lines", lines);
	free(text);
}

/* trax_reader_each()'s callback: the event to the printer. */
static int to_printer(void *ctx, const struct trax_event *ev)
{
	return trax_printer_event(ctx, ev);
}

/* Every event of trace through a printer (by next() or each()): its text. */
static char *printer_text(const char *trace, const struct trax_print_options *o, bool each,
			  size_t *len)
{
	const char *paths[1] = {trace};
	struct trax_reader_options ro;
	char tmp[] = "/tmp/trax-test-printer.XXXXXX";
	int fd = mkstemp(tmp);
	struct trax_reader *r;
	struct trax_printer *p;
	const struct trax_event *ev;
	char *text;

	trax_reader_options_init(&ro);
	ro.trace_order = TRAX_TRACE_ORDER_BY_NAME;
	r = trax_reader_open_with(paths, 1, &ro);
	p = trax_printer_open(r, fd, o);
	CHECK(r && p, "%s: %s", trace, trax_reader_error(r));
	if (each)
		CHECK(trax_reader_each(r, to_printer, p) == 0);
	else
		while (trax_reader_next(r, &ev) > 0)
			CHECK(trax_printer_event(p, ev) == 0);
	CHECK(trax_printer_close(p) == 0);
	trax_reader_close(r);
	close(fd);
	text = slurp(tmp, len);
	unlink(tmp);
	return text;
}

/* A printer of chosen events prints them as trax_reader_print() does. */
static void test_printer(void)
{
	static const char *const traces[] = {"hm-types", "trax-fields", "hm-clock"};
	const char *paths[1] = {"hm-types"};
	struct trax_print_options o;
	struct trax_reader *r, *other;
	const struct trax_event *ev;
	size_t want_len, len;

	for (size_t t = 0; t < sizeof(traces) / sizeof(traces[0]); t++) {
		for (unsigned int way = 0; way < 4; way++) {
			struct trax_reader_options ro;
			char *want, *got;
			int st;

			trax_print_options_init(&o);
			o.format = way >= 2 ? TRAX_PRINT_JSON : TRAX_PRINT_TEXT;
			o.names = way == 1 ? "all" : NULL;
			trax_reader_options_init(&ro);
			ro.trace_order = TRAX_TRACE_ORDER_BY_NAME;
			want = print_to_text(traces[t], &ro, &o, &st, &want_len);
			got = printer_text(traces[t], &o, way % 2, &len);
			CHECK(want && got && len == want_len && !memcmp(got, want, len),
			      "%s (way %u): the printer's %zu bytes, not trax_reader_print()'s %zu",
			      traces[t], way, len, want_len);
			free(want);
			free(got);
		}
	}
	r = trax_reader_open(paths, 1);
	other = trax_reader_open(paths, 1);
	trax_print_options_init(&o);
	o.names = "bogus";
	CHECK(!trax_printer_open(r, 1, &o) && strstr(trax_reader_error(r), "bogus"));
	CHECK(!trax_printer_open(r, -1, NULL) && !trax_printer_open(NULL, 1, NULL));
	struct trax_printer *p = trax_printer_open(r, 1, NULL);

	CHECK(trax_reader_next(other, &ev) == 1 && trax_printer_event(p, ev) == -1,
	      "another reader's event");
	CHECK(trax_printer_event(p, NULL) == -1 && trax_printer_event(NULL, ev) == -1);
	CHECK(trax_printer_close(p) == 0 && trax_printer_close(NULL) == 0);
	trax_reader_close(other);
	trax_reader_close(r);
}

/* The events trax_reader_next() gives from r. */
static uint64_t count_by_next(struct trax_reader *r)
{
	const struct trax_event *ev;
	uint64_t n = 0;

	while (trax_reader_next(r, &ev) > 0)
		n++;
	return n;
}

static void test_count(void)
{
	char path[4200];
	const char *paths[1] = {path};
	static const char *const traces[] = {"trace-with-index", "smalltrace", "multi-domains"};

	for (size_t t = 0; t < sizeof(traces) / sizeof(traces[0]); t++) {
		struct trax_reader *r;
		uint64_t want, got;

		snprintf(path, sizeof(path), "%s/ctf/succeed/%s", corpus, traces[t]);
		if (access(path, F_OK))
			continue;
		r = trax_reader_open(paths, 1);
		CHECK(r, "%s: %s", path, trax_reader_error(NULL));
		if (!r)
			continue;
		want = count_by_next(r);
		trax_reader_close(r);
		CHECK(want > 0, "%s: no event", path);
		for (unsigned int threads = 0; threads < 2; threads++) {
			struct trax_reader_options ro;

			trax_reader_options_init(&ro);
			ro.threads = threads;
			ro.read_window = threads ? 64 : 0;
			ro.jit = !threads;
			r = trax_reader_open_with(paths, 1, &ro);
			got = 0;
			CHECK(r && trax_reader_count(r, &got) == 0, "%s: count: %s", path,
			      trax_reader_error(r));
			CHECK(got == want, "%s (threads %u): %llu events counted, %llu read", path,
			      threads, (unsigned long long)got, (unsigned long long)want);
			trax_reader_close(r);
		}
		/* the events left after some were read */
		uint64_t some = want > 3 ? 3 : want - 1;

		r = trax_reader_open(paths, 1);
		for (uint64_t i = 0; i < some; i++) {
			const struct trax_event *ev;

			CHECK(trax_reader_next(r, &ev) == 1);
		}
		CHECK(trax_reader_count(r, &got) == 0 && got == want - some,
		      "%s: %llu left of %llu", path, (unsigned long long)got,
		      (unsigned long long)want);
		trax_reader_close(r);
	}
}

static void test_errors(void)
{
	const char *paths[1] = {"hm-types"};
	struct trax_reader_options ro;
	struct trax_print_options o;
	struct trax_reader *r;
	char bad[8];
	int pipefd[2];
	uint64_t n;

	CHECK(trax_print_check_list(1, "payload,all,none", bad, sizeof(bad)) == 0);
	CHECK(trax_print_check_list(0, "trace:vpid,emf,callsite", bad, sizeof(bad)) == 0);
	CHECK(trax_print_check_list(1, "payload,bogus", bad, sizeof(bad)) == -1 &&
		  !strcmp(bad, "bogus"),
	      "bad item: '%s'", bad);
	CHECK(trax_print_check_list(0, "trace:nothing-like-it", bad, sizeof(bad)) == -1 &&
		  strlen(bad) == sizeof(bad) - 1,
	      "a long bad item cut to fit: '%s'", bad);
	CHECK(trax_print_check_list(0, "payload", NULL, 0) == -1, "names are not fields");

	trax_reader_options_init(&ro);
	CHECK_EQ(ro.size, sizeof(ro));
	CHECK(ro.jit == 1 && ro.threads == 0 && ro.read_window == 0);
	ro.size = 0;
	CHECK(!trax_reader_open_with(paths, 1, &ro) && trax_reader_error(NULL)[0],
	      "options without a size");
	/* a program built against an older, shorter struct: the rest defaulted */
	ro.size = sizeof(size_t) + sizeof(unsigned int);
	ro.read_window = 12345;
	r = trax_reader_open_with(paths, 1, &ro);
	CHECK(r && trax_reader_count(r, &n) == 0 && n > 0, "shorter options");
	trax_reader_close(r);

	r = trax_reader_open(paths, 1);
	trax_print_options_init(&o);
	o.fields = "trace,bogus";
	CHECK(trax_reader_print(r, 1, &o) == -1 && strstr(trax_reader_error(r), "bogus"),
	      "unknown fields item: '%s'", trax_reader_error(r));
	trax_reader_close(r);
	r = trax_reader_open(paths, 1);
	CHECK(trax_reader_print(r, -1, NULL) == -1 && trax_reader_error(r)[0], "bad fd");
	CHECK(trax_reader_print(NULL, 1, NULL) == -1 && trax_reader_count(NULL, &n) == -1);
	CHECK(trax_reader_count(r, NULL) == -1);
	trax_reader_close(r);

	/* a pipe whose reader went away: -2, EPIPE */
	signal(SIGPIPE, SIG_IGN);
	CHECK(pipe(pipefd) == 0);
	close(pipefd[0]);
	r = trax_reader_open(paths, 1);
	errno = 0;
	CHECK(trax_reader_print(r, pipefd[1], NULL) == -2 && errno == EPIPE,
	      "print to a closed pipe: errno %d, '%s'", errno, trax_reader_error(r));
	trax_reader_close(r);
	close(pipefd[1]);
}

int main(void)
{
	const char *c = getenv("TRAX_CONFORMANCE"), *src = getenv("TRAX_SRC");

	setenv("TZ", "UTC", 1);
	tzset();
	snprintf(corpus, sizeof(corpus), "%s", c && *c ? c : "../shared/conformance");
	snprintf(golden, sizeof(golden), "%s/tests/reader/golden", src && *src ? src : ".");
	if (corpus[0] != '/') {
		/* (the tests run from the build tree: the corpus is found before the chdir) */
		char *abs = realpath(corpus, NULL);

		if (abs)
			snprintf(corpus, sizeof(corpus), "%s", abs);
		free(abs);
	}
	if (chdir(golden)) {
		perror(golden);
		return 1;
	}
	test_text();
	test_json();
	test_printer();
	test_count();
	test_errors();
	return CHECK_RESULT();
}
