/*
 * test_tracedir.c - finding traces in a tree (ctf_trace_set_add) and reading
 * LTTng packet indexes (ctf_packet_index_read), on the conformance corpus
 * and on damaged copies of an index.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/packet-index.h"
#include "reader/trace-dir.h"

#include "check.h"

static char corpus[4096];

static const char *corpus_path(const char *rel)
{
	static char buf[8192];

	snprintf(buf, sizeof(buf), "%s/ctf/%s", corpus, rel);
	return buf;
}

static uint64_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static void test_find(void)
{
	struct ctf_trace_set set = {0};
	char err[512];
	size_t i;

	CHECK(ctf_trace_set_add(&set, corpus_path("succeed/trace-with-index"), err, sizeof(err)) ==
		  0,
	      "trace-with-index: %s", err);
	CHECK(set.nr_traces == 1, "trace-with-index: %zu traces", set.nr_traces);
	if (set.nr_traces == 1) {
		struct ctf_trace_dir *t = &set.traces[0];

		CHECK(t->nr_streams == 4, "4 streams, got %zu (index/ must not count)",
		      t->nr_streams);
		for (i = 0; i < t->nr_streams && i < 4; i++) {
			char want[32];

			snprintf(want, sizeof(want), "ust_channel_%zu", i);
			CHECK(!strcmp(t->streams[i].name, want), "stream %zu is %s", i,
			      t->streams[i].name);
		}
		CHECK(strstr(t->metadata_path, "trace-with-index/metadata") != NULL, "metadata %s",
		      t->metadata_path);
	}
	ctf_trace_set_free(&set);

	/* A tree: every trace below, sorted by path. */
	CHECK(ctf_trace_set_add(&set, corpus_path("succeed/multi-domains"), err, sizeof(err)) == 0,
	      "multi-domains: %s", err);
	CHECK(set.nr_traces == 2, "multi-domains: %zu traces", set.nr_traces);
	if (set.nr_traces == 2)
		CHECK(strcmp(set.traces[0].path, set.traces[1].path) < 0, "not sorted");
	/* Adding a second path appends. */
	CHECK(ctf_trace_set_add(&set, corpus_path("succeed/smalltrace"), err, sizeof(err)) == 0,
	      "smalltrace: %s", err);
	CHECK(set.nr_traces == 3, "after a second path: %zu traces", set.nr_traces);
	ctf_trace_set_free(&set);

	/* Errors: one line naming the path. */
	CHECK(ctf_trace_set_add(&set, corpus_path("expected"), err, sizeof(err)) == -1 &&
		  strstr(err, "no CTF trace found") && strstr(err, "expected"),
	      "a tree without traces: '%s'", err);
	CHECK(ctf_trace_set_add(&set, corpus_path("nonexistent"), err, sizeof(err)) == -1 &&
		  strstr(err, "nonexistent"),
	      "a missing path: '%s'", err);
	CHECK(ctf_trace_set_add(&set, corpus_path("expected/smalltrace.out"), err, sizeof(err)) ==
		      -1 &&
		  strstr(err, "not a directory"),
	      "a file: '%s'", err);
	CHECK(set.nr_traces == 0, "failed adds added traces");
	ctf_trace_set_free(&set);
}

static void test_index(void)
{
	struct ctf_packet_index_entry *e = NULL;
	size_t n = 0, i;
	char err[512], idx[8192], stream[8192];
	uint64_t size;

	snprintf(idx, sizeof(idx), "%s",
		 corpus_path("succeed/trace-with-index/index/ust_channel_0.idx"));
	snprintf(stream, sizeof(stream), "%s",
		 corpus_path("succeed/trace-with-index/ust_channel_0"));
	size = file_size(stream);
	CHECK(ctf_packet_index_read(idx, size, &e, &n, err, sizeof(err)) == 0, "index: %s", err);
	CHECK(n == 5, "5 packets, got %zu", n);
	for (i = 0; i < n; i++) {
		CHECK(e[i].offset == i * 4096, "entry %zu offset %llu", i,
		      (unsigned long long)e[i].offset);
		CHECK(e[i].packet_size == 4096 * 8, "entry %zu packet size", i);
		CHECK(e[i].content_size <= e[i].packet_size && e[i].content_size > 0,
		      "entry %zu content size", i);
		CHECK(e[i].timestamp_begin <= e[i].timestamp_end, "entry %zu times", i);
		CHECK(e[i].has_seq && e[i].packet_seq_num == i, "entry %zu seq %llu", i,
		      (unsigned long long)e[i].packet_seq_num);
		if (i)
			CHECK(e[i].timestamp_begin >= e[i - 1].timestamp_end, "entry %zu order", i);
	}
	/* Values read by hand from the file (big-endian). */
	if (n)
		CHECK(e[0].content_size == 0x7fc0 && e[0].timestamp_begin == 0x000363e2ba3ed31cull,
		      "entry 0 values");
	free(e);

	/* The index must describe the file it is read with. */
	CHECK(ctf_packet_index_read(idx, size + 1, &e, &n, err, sizeof(err)) == -1 &&
		  strstr(err, "covers"),
	      "size mismatch: '%s'", err);
	CHECK(ctf_packet_index_read(idx, size - 4096, &e, &n, err, sizeof(err)) == -1,
	      "index past the end of the stream accepted");

	/* Damaged copies: wrong magic, truncated entry, bad version. */
	{
		FILE *in = fopen(idx, "rb");
		unsigned char buf[376];
		size_t len = in ? fread(buf, 1, sizeof(buf), in) : 0;
		char tmp[] = "/tmp/trax-idx-XXXXXX";
		int fd = mkstemp(tmp);
		FILE *out;

		if (in)
			fclose(in);
		CHECK(len == 376 && fd >= 0, "copy of the index");
		if (fd >= 0)
			close(fd);
		out = fopen(tmp, "wb");
		buf[0] ^= 0xff;
		fwrite(buf, 1, len, out);
		fclose(out);
		CHECK(ctf_packet_index_read(tmp, size, &e, &n, err, sizeof(err)) == -1 &&
			  strstr(err, "not a packet index"),
		      "wrong magic: '%s'", err);
		buf[0] ^= 0xff;
		out = fopen(tmp, "wb");
		fwrite(buf, 1, len - 10, out);
		fclose(out);
		CHECK(ctf_packet_index_read(tmp, size, &e, &n, err, sizeof(err)) == -1 &&
			  strstr(err, "truncated"),
		      "truncated: '%s'", err);
		buf[7] = 2;
		out = fopen(tmp, "wb");
		fwrite(buf, 1, len, out);
		fclose(out);
		CHECK(ctf_packet_index_read(tmp, size, &e, &n, err, sizeof(err)) == -1 &&
			  strstr(err, "version"),
		      "version 2: '%s'", err);
		unlink(tmp);
	}
	CHECK(ctf_packet_index_read("/nonexistent.idx", 0, &e, &n, err, sizeof(err)) == -1 &&
		  strstr(err, "/nonexistent.idx"),
	      "missing index: '%s'", err);
}

int main(void)
{
	const char *c = getenv("TRAX_CONFORMANCE");

	snprintf(corpus, sizeof(corpus), "%s", c ? c : "../shared/conformance");
	test_find();
	test_index();
	if (!failures)
		printf("trace discovery and packet indexes: all checks hold\n");
	return CHECK_RESULT();
}
