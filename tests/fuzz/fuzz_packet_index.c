/* clang-format off */
/*
 * fuzz_packet_index.c - libFuzzer target: ctf_packet_index_read() on any
 * bytes as an LTTng index file (TRACE/index/NAME.idx), for stream files of
 * the size the entries claim and of sizes around it. Whatever it accepts
 * must tile the stream file in order, as the reader relies on when it
 * seeks or splits a stream by the index. Run by tools/fuzz.sh.
 *
 * FUZZ-SOURCES: src/reader/packet-index.c
 * FUZZ-SEEDS: ../shared/conformance/ctf/succeed/[a-z0-9]*[a-z0-9]/index/[a-z]*.idx ../shared/conformance/ctf/succeed/[a-z0-9]*[a-z0-9]/[a-z]*[a-z]/index/[a-z]*.idx
 */
/* clang-format on */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHECK_ABORT
#include "check.h"
#include "reader/packet-index.h"

static uint64_t be(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void read_as(const char *path, uint64_t stream_size)
{
	struct ctf_packet_index_entry *e;
	char err[512];
	size_t n;
	uint64_t end = 0;

	if (ctf_packet_index_read(path, stream_size, &e, &n, err, sizeof(err)))
		return;
	for (size_t k = 0; k < n; k++) {
		CHECK(e[k].offset == end && e[k].packet_size != 0 && e[k].packet_size % 8 == 0 &&
			  e[k].content_size <= e[k].packet_size,
		      "index entry %zu", k);
		end = e[k].offset + e[k].packet_size / 8;
	}
	if (end != stream_size)
		abort();
	free(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64];
	uint64_t claimed = 0, len;

	if (fd < 0)
		fd = memfd_create("fuzz-index", 0);
	if (fd < 0 || ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* the stream size the last whole entry claims (offset + packet size) */
	len = size >= 16 ? be(data + 12, 4) : 0;
	if (len >= 16 && size >= 16 + len) {
		const uint8_t *last = data + 16 + ((size - 16) / len - 1) * len;

		claimed = be(last, 8) + be(last + 8, 8) / 8;
	}
	read_as(path, claimed);
	read_as(path, claimed - 1);
	read_as(path, claimed + 4096);
	read_as(path, 0);
	return 0;
}
