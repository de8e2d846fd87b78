/*
 * test_stream_info.c - trax_reader_stream_count() / trax_reader_stream_info()
 * on the conformance corpus: what each stream file's packets say (class,
 * instance and cpu_id, packet count, first begin and last end, the
 * discarded-events counter, lost packets), checked against what
 * babeltrace2 reports of the same traces (the 728 events discarded in
 * multi-domains' first kernel stream, the 17 of ev-disc-no-ts-begin-end,
 * whose packets have no times; the rotated files of
 * lttng-tracefile-rotation following each other; session-rotation's
 * empty files), and the reader's position left as it was.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "trax/reader.h"

static char corpus[4096];

static struct trax_reader *open_trace(const char *name)
{
	char path[4200];
	const char *paths[1] = {path};
	struct trax_reader *r;

	snprintf(path, sizeof(path), "%s/ctf/succeed/%s", corpus, name);
	r = trax_reader_open(paths, 1);
	CHECK(r != NULL, "%s: %s", name, trax_reader_error(NULL));
	return r;
}

static int info(struct trax_reader *r, size_t i, struct trax_stream_info *si)
{
	memset(si, 0, sizeof(*si));
	si->size = sizeof(*si);
	return trax_reader_stream_info(r, i, si);
}

static void test_multi_domains(void)
{
	struct trax_reader *r = open_trace("multi-domains/kernel");
	const struct trax_event *ev;
	struct trax_stream_info si;
	int64_t first;

	check_part = "multi-domains";
	if (!r)
		return;
	CHECK_EQ(trax_reader_next(r, &ev), 1);
	first = trax_event_timestamp_ns(ev);
	CHECK_EQ(trax_reader_stream_count(r), 4);
	for (size_t i = 0; i < 4; i++) {
		CHECK_EQ(info(r, i, &si), 0);
		CHECK(strstr(si.path, "kernel_channel_") != NULL, "%s", si.path);
		CHECK(si.has_cpu_id && si.cpu_id == i && si.has_instance && si.instance_id == i);
		CHECK(si.has_bounds && si.begin_ns < si.end_ns);
		CHECK(si.begin_ns <= first);
		CHECK(si.has_discarded && si.events_discarded == (i == 0 ? 728u : 0u), "%zu: %llu",
		      i, (unsigned long long)si.events_discarded);
		CHECK(si.has_seq && si.packets_lost == 0);
	}
	CHECK_EQ(info(r, 0, &si), 0);
	CHECK_EQ(si.packets, 17);
	CHECK_EQ(si.begin_ns, 1565031939266917593LL);
	CHECK_EQ(si.end_ns, 1565032812117670385LL);
	CHECK_EQ(info(r, 4, &si), -1);
	si.size = 0;
	CHECK_EQ(trax_reader_stream_info(r, 0, &si), -1);
	/* an older, smaller structure gets its fields only */
	{
		struct trax_stream_info small;

		memset(&small, 0xAB, sizeof(small));
		small.size = offsetof(struct trax_stream_info, stream_class_id);
		CHECK_EQ(trax_reader_stream_info(r, 0, &small), 0);
		CHECK(small.trace == 0 && small.instance_id == 0xABABABABABABABABull);
	}
	/* the next event is the one after the first */
	CHECK_EQ(trax_reader_next(r, &ev), 1);
	CHECK(trax_event_timestamp_ns(ev) >= first);
	trax_reader_close(r);
	CHECK(trax_reader_stream_count(NULL) == (size_t)-1);
}

static void test_no_times(void)
{
	struct trax_reader *r = open_trace("ev-disc-no-ts-begin-end");
	struct trax_stream_info si;

	check_part = "ev-disc-no-ts-begin-end";
	if (!r)
		return;
	CHECK_EQ(trax_reader_stream_count(r), 1);
	CHECK_EQ(info(r, 0, &si), 0);
	CHECK_EQ(si.packets, 2);
	CHECK(!si.has_bounds);
	CHECK(si.has_discarded && si.events_discarded == 17);
	trax_reader_close(r);
}

static void test_rotation(void)
{
	struct trax_reader *r = open_trace("lttng-tracefile-rotation/kernel");
	struct trax_stream_info a, b;
	size_t n;

	check_part = "tracefile-rotation";
	if (!r)
		return;
	n = trax_reader_stream_count(r);
	CHECK_EQ(n, 11);
	/* mychan_C_K: files of one stream (same instance), one after the other */
	for (size_t i = 0; i + 1 < n && n != (size_t)-1; i++) {
		CHECK_EQ(info(r, i, &a), 0);
		CHECK_EQ(info(r, i + 1, &b), 0);
		if (a.instance_id != b.instance_id)
			continue;
		CHECK(a.end_ns <= b.begin_ns, "%s ends after %s begins", a.path, b.path);
	}
	trax_reader_close(r);
}

static void test_empty_files(void)
{
	struct trax_reader *r = open_trace("session-rotation");
	struct trax_stream_info si;
	size_t n, empty = 0;

	check_part = "session-rotation";
	if (!r)
		return;
	n = trax_reader_stream_count(r);
	CHECK_EQ(n, 24);
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ(info(r, i, &si), 0);
		CHECK(si.trace < trax_reader_trace_count(r));
		if (!si.packets) {
			empty++;
			CHECK(!si.has_bounds && !si.has_cpu_id);
		}
	}
	CHECK_EQ(empty, 3);
	trax_reader_close(r);
}

int main(void)
{
	const char *c = getenv("TRAX_CONFORMANCE");

	snprintf(corpus, sizeof(corpus), "%s", c && *c ? c : "../shared/conformance");
	test_multi_domains();
	test_no_times();
	test_rotation();
	test_empty_files();
	if (!failures)
		printf("test_stream_info: all passed\n");
	return CHECK_RESULT();
}
