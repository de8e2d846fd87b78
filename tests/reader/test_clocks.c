/*
 * test_clocks.c - the clocks of the reader API (trax/reader.h) as Babeltrace
 * 2 takes them, on the traces of tests/integration/data/clocks/
 * make-traces.py (written into a temporary directory; view_clocks.sh checks
 * trax view's output on the same traces against babeltrace2):
 * an LTTng trace's monotonic clock is absolute, a trace without a clock but
 * with time stamp fields has a clock "default" (1 GHz, no offset, not
 * absolute, no UUID) and its events have times, a trace with one clock
 * keeps only it, a stream whose only clock field is in a payload has that
 * clock, and traces whose clocks cannot be correlated, an unmapped time
 * stamp with two clocks, a stream with two clocks or a clock in the packet
 * header do not open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trax/reader.h>

#include "check.h"

static char dir[4096];

static const char *trace(const char *name)
{
	static char bufs[4][8192];
	static int n;
	char *b = bufs[n++ % 4];

	snprintf(b, sizeof(bufs[0]), "%s/%s", dir, name);
	return b;
}

static struct trax_reader *open_n(const char *const *names, size_t count)
{
	const char *paths[8];
	struct trax_reader *r;

	for (size_t i = 0; i < count; i++)
		paths[i] = trace(names[i]);
	r = trax_reader_open(paths, count);
	CHECK(r, "open %s...: %s", names[0], trax_reader_error(NULL));
	return r;
}

/* The only clock of trace 0 of a reader over `name`. */
static void check_clock(const char *name, const char *clock, uint64_t freq, int64_t offset_s,
			int64_t offset, int absolute, int has_uuid)
{
	struct trax_reader *r = open_n(&name, 1);
	struct trax_clock_info ci = {.name = ""};

	if (!r)
		return;
	CHECK(trax_reader_clock_count(r, 0) == 1, "%s: %zu clocks", name,
	      trax_reader_clock_count(r, 0));
	CHECK(trax_reader_clock(r, 0, 0, &ci) == 0, "%s: no clock 0", name);
	CHECK(!strcmp(ci.name, clock) && ci.freq == freq && ci.offset_s == offset_s &&
		  ci.offset == offset && ci.absolute == absolute && ci.has_uuid == has_uuid,
	      "%s: clock %s freq %llu offset %lld s + %lld, absolute %d, uuid %d", name, ci.name,
	      (unsigned long long)ci.freq, (long long)ci.offset_s, (long long)ci.offset,
	      ci.absolute, ci.has_uuid);
	CHECK(trax_reader_clock(r, 0, 1, &ci) == -1, "%s: a second clock", name);
	trax_reader_close(r);
}

/* The events of the traces merged: their payload n and time in ns (-1: none). */
static void check_events(const char *const *names, size_t count, const uint64_t *n,
			 const int64_t *ns, size_t nevents)
{
	struct trax_reader *r = open_n(names, count);
	const struct trax_event *ev;
	size_t i = 0;
	int st;

	if (!r)
		return;
	while ((st = trax_reader_next(r, &ev)) > 0 && i < nevents) {
		const struct trax_field *f = trax_event_field_by_name(ev, TRAX_SCOPE_PAYLOAD, "n");
		uint64_t v = 0;

		CHECK(f && trax_field_uint(f, &v) == 0 && v == n[i], "%s: event %zu: n %llu",
		      names[0], i, (unsigned long long)v);
		CHECK(trax_event_has_timestamp(ev) == (ns[i] >= 0) &&
			  trax_event_timestamp_ns(ev) == (ns[i] >= 0 ? ns[i] : 0),
		      "%s: event %zu: time %lld", names[0], i,
		      (long long)trax_event_timestamp_ns(ev));
		i++;
	}
	CHECK(st == 0 && i == nevents, "%s: %zu events, status %d", names[0], i, st);
	trax_reader_close(r);
}

static void check_refused(const char *a, const char *b, const char *why)
{
	const char *paths[2] = {trace(a), b ? trace(b) : NULL};
	struct trax_reader *r = trax_reader_open(paths, b ? 2 : 1);

	CHECK(!r && strstr(trax_reader_error(NULL), why), "%s %s: opened, or the error '%s'", a,
	      b ? b : "", r ? "" : trax_reader_error(NULL));
	trax_reader_close(r);
}

int main(void)
{
	const char *src = getenv("TRAX_SRC");
	char cmd[8192];

	snprintf(dir, sizeof(dir), "%s", "/tmp/trax-test-clocks.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(cmd, sizeof(cmd), "python3 '%s/tests/integration/data/clocks/make-traces.py' '%s'",
		 src && *src ? src : ".", dir);
	CHECK(system(cmd) == 0, "%s failed", cmd);

	/* absolute: LTTng's monotonic clock whatever the TSDL says, other clocks as it says */
	check_clock("lt-ust", "monotonic", 1000000000, 1000, 0, 1, 1);
	check_clock("lt-late-env", "monotonic", 1000000000, 1000, 0, 1, 1);
	check_clock("lt-mhz", "monotonic", 100000000, 999, 100000003, 1, 1);
	check_clock("lt-other", "other", 1000000000, 1000, 0, 0, 1);
	check_clock("lt-case", "monotonic", 1000000000, 1000, 0, 0, 1);
	check_clock("abs-a", "monotonic", 1000000000, 1000, 0, 1, 1);
	check_clock("rel-u7a", "monotonic", 1000000000, 1000, 0, 0, 1);
	/* time stamps without a clock: the default clock; with one clock: that one */
	check_clock("ts-noclock", "default", 1000000000, 0, 0, 0, 0);
	check_clock("ts-shared", "default", 1000000000, 0, 0, 0, 0);
	check_clock("ts-oneclock", "c1", 1000000, 5, 0, 0, 1);

	{
		/* LTTng traces of other hosts: merged, each event's time from its clock */
		static const char *const names[] = {"lt-ust", "lt-mhz", "lt-kern"};
		static const uint64_t n[] = {1, 2, 7, 3, 4, 8, 5, 9, 6};
		static const int64_t ns[] = {1000000000100, 1000000000200, 1000000000250,
					     1000000000300, 1000000000350, 1000000000380,
					     1002000000000, 1002000000040, 1002000000050};

		check_events(names, 3, n, ns, 9);
	}
	{
		static const char *const names[] = {"ts-noclock", "noclock"};

		check_events(names, 1, (const uint64_t[]){60, 61, 62},
			     (const int64_t[]){100, 5000000000, 5000000001}, 3);
		check_events(names + 1, 1, (const uint64_t[]){30, 31}, (const int64_t[]){-1, -1},
			     2);
	}
	{
		/* a stream's clock from a payload field: times before each payload moves it */
		static const char *const names[] = {"sc-payload"};

		check_events(names, 1, (const uint64_t[]){80, 81, 82},
			     (const int64_t[]){10000000000, 10000000100, 10000000250}, 3);
	}
	check_refused("sc-two", NULL, "two clocks");
	check_refused("sc-header", NULL, "packet header maps a field to clock");
	check_refused("lt-ust", "lt-other", "cannot be correlated");
	check_refused("ts-noclock", "lt-ust", "cannot be correlated");
	check_refused("rel-u7a", "rel-u9", "cannot be correlated");
	check_refused("ts-twoclocks", NULL, "maps to no clock");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	if (!failures)
		printf("test_clocks: all passed\n");
	return CHECK_RESULT();
}
