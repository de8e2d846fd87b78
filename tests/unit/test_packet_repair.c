/*
 * test_packet_repair.c - packets in which an application died in the
 * middle of a record (src/daemon/repair.c): the dead record's bytes are
 * found among the committed records and cut out; a packet that walks
 * whole is kept as it is; one that cannot be walked is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "daemon/traxd.h"
#include "writer/packet.h"

static uint8_t pkt[4096];
static size_t fill;

static void put(const void *p, size_t n)
{
	memcpy(pkt + fill, p, n);
	fill += n;
}

/* A compact header: 5-bit id, the timestamp's 27 low bits. */
static void header(unsigned int id, uint64_t ts)
{
	uint32_t w = (uint32_t)(id | (ts & ((1u << 27) - 1)) << 5);

	put(&w, 4);
}

static void rec_int(uint64_t ts, uint32_t x)
{
	header(0, ts);
	put(&x, 4);
}

static void rec_str(uint64_t ts, const char *s)
{
	header(1, ts);
	put(s, strlen(s) + 1);
}

static void start(void)
{
	memset(pkt, 0xAA, sizeof(pkt));
	fill = sizeof(struct ctf_packet_header);
}

static void finish(uint64_t ts_begin, uint64_t ts_end)
{
	struct ctf_packet_header *h = (struct ctf_packet_header *)pkt;
	uint8_t uuid[16] = {0};

	ctf_packet_open(h, uuid, 0, 0, ts_begin, 0);
	ctf_packet_close(h, ts_end, fill, 0);
}

/* The records of the packet as text: "i7 shello ...", or "?" where it stops. */
static void describe(const struct dchan *dc, char *out, size_t cap)
{
	const struct ctf_packet_header *h = (const struct ctf_packet_header *)pkt;
	size_t off = sizeof(*h), content = h->content_size / 8, o = 0;
	uint64_t ts = h->timestamp_begin;

	out[0] = 0;
	while (off < content) {
		size_t n = packet_record_len(dc, pkt + off, pkt + content, &ts, h->timestamp_end);
		unsigned int id = pkt[off] & 31;

		if (!n) {
			snprintf(out + o, cap - o, "?");
			return;
		}
		if (id == 0) {
			uint32_t x;

			memcpy(&x, pkt + off + 4, 4);
			o += (size_t)snprintf(out + o, cap - o, "%si%u", o ? " " : "", x);
		} else {
			o += (size_t)snprintf(out + o, cap - o, "%ss%s", o ? " " : "",
					      (const char *)pkt + off + 4);
		}
		off += n;
	}
}

int main(void)
{
	struct channel ch;
	struct dchan_event evs[2] = {
	    {.name = "p:int", .signature = "field=1:x:32:0:10:0:0:0:0:0:0:0:\n", .id = 0},
	    {.name = "p:str", .signature = "field=3:s:0:0:0:0:1:0:0:0:0:0:\n", .id = 1},
	};
	struct dchan dc;
	char text[512];
	uint64_t content;

	memset(&ch, 0, sizeof(ch));
	memset(&dc, 0, sizeof(dc));
	dc.chan = &ch;
	dc.cfg.subbuf_size = sizeof(pkt);
	dc.events = evs;
	dc.nevents = 2;

	/* a string record that died before its NUL: 12 bytes of stale data */
	start();
	rec_int(1000, 7);
	rec_str(1010, "hello");
	memset(pkt + fill, 'Z', 12);
	fill += 12;
	rec_int(1030, 9);
	rec_str(1040, "bye");
	finish(1000, 1050);
	content = ((struct ctf_packet_header *)pkt)->content_size / 8;
	describe(&dc, text, sizeof(text));
	CHECK(!strcmp(text, "i7 shello?"), "before: %s", text);
	CHECK(packet_repair(&dc, pkt, 12), "a dead string record: not repaired");
	describe(&dc, text, sizeof(text));
	CHECK(!strcmp(text, "i7 shello i9 sbye"), "after: %s", text);
	CHECK(((struct ctf_packet_header *)pkt)->content_size / 8 == content - 12,
	      "content size after the cut");

	/* the dead record first in the packet, the 'Z's parse as an id too */
	start();
	header(1, 1005);
	put("ZZZZZZZZ", 8); /* its string never ended */
	rec_int(1030, 3);
	finish(1000, 1050);
	CHECK(packet_repair(&dc, pkt, 12), "a dead first record: not repaired");
	describe(&dc, text, sizeof(text));
	CHECK(!strcmp(text, "i3"), "after cutting the first record: %s", text);

	/* written whole but never committed: everything walks, nothing is cut */
	start();
	rec_int(1000, 1);
	rec_int(1010, 2);
	rec_int(1020, 3);
	finish(1000, 1050);
	content = ((struct ctf_packet_header *)pkt)->content_size / 8;
	CHECK(packet_repair(&dc, pkt, 8), "a packet that walks whole: refused");
	describe(&dc, text, sizeof(text));
	CHECK(!strcmp(text, "i1 i2 i3"), "a packet that walks whole, changed: %s", text);
	CHECK(((struct ctf_packet_header *)pkt)->content_size / 8 == content,
	      "a packet that walks whole: content size changed");

	/* no place where `missing` bytes fit: refused, not guessed */
	start();
	rec_int(1000, 1);
	memset(pkt + fill, 'Z', 12);
	fill += 12;
	rec_str(1020, "x");
	finish(1000, 1050);
	CHECK(!packet_repair(&dc, pkt, 5), "a wrong missing count was accepted");

	/* a timestamp past the packet's end is not a record */
	start();
	rec_int(1000, 1);
	memset(pkt + fill, 'Z', 6);
	fill += 6;
	rec_int(2000, 2);
	finish(1000, 1050);
	CHECK(!packet_repair(&dc, pkt, 6), "a record after the packet's end was accepted");

	/* a closer that died: the end fields are stale (end before begin) */
	start();
	rec_int(1000, 1);
	finish(1000, 999);
	CHECK(!packet_repair(&dc, pkt, 8), "a packet with stale close fields was accepted");

	return CHECK_RESULT();
}
