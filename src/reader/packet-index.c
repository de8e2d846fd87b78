/* packet-index.c - reading LTTng packet index files (see packet-index.h). */
#include "reader/packet-index.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_SIZE 16u
#define ENTRY_V10   56u /* 7 x 64 bits */
#define ENTRY_V11   72u /* 9 x 64 bits */
#define MAX_INDEX   (256u << 20)

static void set_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

int ctf_packet_index_read(const char *path, uint64_t stream_size,
			  struct ctf_packet_index_entry **entries, size_t *count, char *err,
			  size_t errlen)
{
	FILE *f = fopen(path, "rb");
	uint8_t hdr[HEADER_SIZE], *rec = NULL;
	struct ctf_packet_index_entry *out = NULL;
	uint32_t major, minor, len;
	size_t n = 0, cap = 0;
	uint64_t end_prev = 0;

	*entries = NULL;
	*count = 0;
	if (!f) {
		set_error(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fread(hdr, 1, HEADER_SIZE, f) != HEADER_SIZE) {
		set_error(err, errlen, "%s: truncated index header", path);
		goto fail;
	}
	major = be32(hdr + 4);
	minor = be32(hdr + 8);
	len = be32(hdr + 12);
	if (be32(hdr) != CTF_INDEX_MAGIC) {
		set_error(err, errlen, "%s: not a packet index (magic 0x%08X)", path, be32(hdr));
		goto fail;
	}
	if (major != 1 || len < ENTRY_V10 || len > 4096 || (minor >= 1 && len < ENTRY_V11)) {
		set_error(err, errlen, "%s: unsupported index version %u.%u (entries of %u bytes)",
			  path, major, minor, len);
		goto fail;
	}
	rec = malloc(len);
	if (!rec)
		goto oom;
	for (;;) {
		struct ctf_packet_index_entry e;
		size_t got = fread(rec, 1, len, f);

		if (got == 0)
			break;
		if (got != len) {
			set_error(err, errlen, "%s: entry %zu is truncated", path, n);
			goto fail;
		}
		memset(&e, 0, sizeof(e));
		e.offset = be64(rec);
		e.packet_size = be64(rec + 8);
		e.content_size = be64(rec + 16);
		e.timestamp_begin = be64(rec + 24);
		e.timestamp_end = be64(rec + 32);
		e.events_discarded = be64(rec + 40);
		e.stream_id = be64(rec + 48);
		if (len >= ENTRY_V11) {
			e.has_seq = true;
			e.stream_instance_id = be64(rec + 56);
			e.packet_seq_num = be64(rec + 64);
		}
		/* Entries must tile the stream file in order. */
		if (e.packet_size == 0 || e.packet_size % 8 || e.content_size > e.packet_size ||
		    e.offset != end_prev || e.offset > stream_size ||
		    e.packet_size / 8 > stream_size - e.offset) {
			set_error(err, errlen,
				  "%s: entry %zu (offset %llu, %llu bits) does not "
				  "match the stream file",
				  path, n, (unsigned long long)e.offset,
				  (unsigned long long)e.packet_size);
			goto fail;
		}
		end_prev = e.offset + e.packet_size / 8;
		if (n == cap) {
			struct ctf_packet_index_entry *g;

			if ((cap ? cap * 2 : 64) * sizeof(*out) > MAX_INDEX)
				goto oom;
			cap = cap ? cap * 2 : 64;
			g = realloc(out, cap * sizeof(*out));
			if (!g)
				goto oom;
			out = g;
		}
		out[n++] = e;
	}
	if (end_prev != stream_size) {
		set_error(err, errlen, "%s: the index covers %llu of the stream's %llu bytes", path,
			  (unsigned long long)end_prev, (unsigned long long)stream_size);
		goto fail;
	}
	fclose(f);
	free(rec);
	*entries = out;
	*count = n;
	return 0;
oom:
	set_error(err, errlen, "%s: out of memory", path);
fail:
	fclose(f);
	free(rec);
	free(out);
	return -1;
}
