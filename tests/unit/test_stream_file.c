/*
 * test_stream_file.c - CTF stream files written record by record
 * (src/writer/stream-file.c), read back byte by byte: the compact header
 * while the id and the time since the previous record allow it, the
 * extended one otherwise; packets cut when full; the first packet
 * beginning at the hint and saying 0 discarded (readers ignore its count),
 * the next carrying the count; an empty packet at the close up to its
 * time (the stream spans the trace) and for losses after the last record;
 * time never going back; index entries for every packet.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "writer/packet.h"
#include "writer/stream-file.h"

struct pkt {
	uint64_t begin, end, content, size, seq, discarded;
	uint32_t cpu;
	uint64_t instance;
	const uint8_t *data; /* after the header */
};

static size_t read_packets(const uint8_t *d, size_t len, struct pkt *out, size_t max)
{
	size_t n = 0, off = 0;

	while (off + sizeof(struct ctf_packet_header) <= len && n < max) {
		struct ctf_packet_header h;

		memcpy(&h, d + off, sizeof(h));
		CHECK_EQ(h.magic, CTF_MAGIC);
		out[n] = (struct pkt){h.timestamp_begin, h.timestamp_end,      h.content_size / 8,
				      h.packet_size / 8, h.packet_seq_num,     h.events_discarded,
				      h.cpu_id,		 h.stream_instance_id, d + off + sizeof(h)};
		if (!h.packet_size)
			break;
		off += h.packet_size / 8;
		n++;
	}
	return n;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = malloc(1 << 20);

	*len = f ? fread(b, 1, 1 << 20, f) : 0;
	if (f)
		fclose(f);
	return b;
}

int main(void)
{
	char dir[] = "/tmp/trax-stream-file-XXXXXX", path[256];
	const uint8_t uuid[16] = {1, 2, 3};
	struct ctfw_stream_file f;
	struct pkt p[16];
	uint8_t *d, *r;
	size_t len, n;
	uint32_t h;

	CHECK(mkdtemp(dir) != NULL);
	{
		struct ctfw_stream_file bad;

		/* packets are whole 4096-byte blocks */
		CHECK_EQ(ctfw_stream_file_open(&bad, dir, "x", uuid, 2, 1, 1000), -22);
		CHECK(bad.buf == NULL && bad.fd < 0);
	}
	CHECK_EQ(ctfw_stream_file_open(&f, dir, "chan_1", uuid, 2, 1, 3 * 4096), 0);
	f.instance_id = 7;
	f.begin_hint = 1000;
	/* 1: compact (id 3, 4000 ns after the packet's beginning) */
	r = ctfw_stream_file_reserve(&f, 3, 5000, 4);
	CHECK(r != NULL);
	memcpy(r, "abcd", 4);
	/* 2: extended (2^27 ns later) */
	r = ctfw_stream_file_reserve(&f, 3, 5000 + (1u << 27), 2);
	memcpy(r, "ef", 2);
	/* 3: extended (id 40) */
	r = ctfw_stream_file_reserve(&f, 40, 5000 + (1u << 27) + 10, 1);
	*r = 'g';
	/* 4: time going back: written at the previous time, counted */
	r = ctfw_stream_file_reserve(&f, 1, 100, 1);
	*r = 'h';
	CHECK_EQ(f.clamped, 1);
	/* too large for any packet: refused, counted */
	CHECK(ctfw_stream_file_reserve(&f, 1, 6000 + (1u << 27), 3 * 4096) == NULL);
	ctfw_stream_file_set_discarded(&f, 9);
	ctfw_stream_file_set_discarded(&f, 5); /* never decreases */
	CHECK_EQ(ctfw_stream_file_flush(&f, 1u << 28), 0);
	/* a second packet, filled until a third begins */
	for (int i = 0; i < 3000; i++) {
		r = ctfw_stream_file_reserve(&f, 2, (1u << 28) + 100 + (uint64_t)i, 8);
		CHECK(r != NULL);
		memset(r, i & 0xff, 8);
	}
	CHECK_EQ(ctfw_stream_file_flush(&f, (1u << 28) + 5000), 0);
	CHECK_EQ(ctfw_stream_file_flush(&f, (1u << 28) + 6000), 0); /* nothing new: nothing */
	ctfw_stream_file_set_discarded(&f, 12);
	CHECK_EQ(ctfw_stream_file_close(&f, 1u << 29), 0);

	snprintf(path, sizeof(path), "%s/chan_1", dir);
	d = slurp(path, &len);
	n = read_packets(d, len, p, 16);
	CHECK_EQ(n, 5);
	/* packet 0: begins at the hint, says 0 discarded, 4 records */
	CHECK_EQ(p[0].begin, 1000);
	CHECK_EQ(p[0].end, 1u << 28);
	CHECK_EQ(p[0].discarded, 0);
	CHECK_EQ(p[0].cpu, 1);
	CHECK_EQ(p[0].instance, 7);
	CHECK_EQ(p[0].seq, 0);
	CHECK_EQ(p[0].size % 4096, 0);
	/* compact 4+4, extended 13+2, extended 13+1, compact 4+1 (same time as the previous) */
	CHECK_EQ(p[0].content, sizeof(struct ctf_packet_header) + 8 + 15 + 14 + 5);
	memcpy(&h, p[0].data, 4);
	CHECK_EQ(h & 31, 3);
	CHECK_EQ(h >> 5, 5000);
	CHECK(!memcmp(p[0].data + 4, "abcd", 4));
	CHECK_EQ(p[0].data[8], 31);
	CHECK(!memcmp(p[0].data + 8 + 13, "ef", 2));
	CHECK_EQ(p[0].data[23], 31);
	memcpy(&h, p[0].data + 24, 4);
	CHECK_EQ(h, 40);
	{
		uint64_t ts;

		memcpy(&ts, p[0].data + 28, 8);
		CHECK_EQ(ts, 5000 + (1u << 27) + 10);
	}
	CHECK_EQ(p[0].data[36], 'g');
	memcpy(&h, p[0].data + 37, 4);
	CHECK_EQ(h & 31, 1);
	CHECK_EQ(h >> 5, (5000 + (1u << 27) + 10) & ((1u << 27) - 1)); /* clamped */
	CHECK_EQ(p[0].data[41], 'h');
	/* packets 1 to 3: the 3000 records, cut when full; the count of losses */
	{
		uint64_t records = 0;

		for (int i = 1; i <= 3; i++) {
			CHECK_EQ(p[i].seq, (uint64_t)i);
			records += (p[i].content - sizeof(struct ctf_packet_header)) / 12;
			CHECK_EQ((p[i].content - sizeof(struct ctf_packet_header)) % 12, 0);
		}
		CHECK_EQ(records, 3000);
	}
	CHECK_EQ(p[1].begin, (1u << 28) + 100);
	CHECK_EQ(p[1].discarded, 10); /* 9 lost by the source, 1 refused */
	CHECK_EQ(p[3].discarded, 10);
	CHECK_EQ(p[3].end, (1u << 28) + 5000);
	/* packet 4: empty, up to the close, with the losses after the last record */
	CHECK_EQ(p[4].begin, (1u << 28) + 5000);
	CHECK_EQ(p[4].content, sizeof(struct ctf_packet_header));
	CHECK_EQ(p[4].end, 1u << 29);
	CHECK_EQ(p[4].discarded, 13);
	free(d);
	/* the index: one 72-byte entry per packet after its 16-byte header */
	snprintf(path, sizeof(path), "%s/index/chan_1.idx", dir);
	d = slurp(path, &len);
	CHECK_EQ(len, 16 + 5 * 72);
	free(d);
	return CHECK_RESULT();
}
