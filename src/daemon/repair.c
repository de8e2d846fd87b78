/*
 * repair.c - keeping the committed records of a packet in which an
 * application died in the middle of a record (see consumer_repair).
 *
 * The dead record's `missing` bytes (what was reserved and never committed)
 * lie somewhere among the committed records, which the daemon can walk: it
 * knows every event's layout (the signatures applications described) and
 * the header libtrax-ust writes (compact: 5-bit id and 27-bit timestamp;
 * extended: id 31, then a 32-bit id and a 64-bit timestamp), all
 * byte-aligned, little-endian. The walk from the packet's start is right up
 * to the dead record; the dead record is where skipping `missing` bytes
 * lets the walk end exactly at the packet's content end, with timestamps
 * that never go back nor pass the packet's end. Those bytes are cut out.
 *
 * When the whole packet walks as records, the dead record was written far
 * enough to have a valid length: it is kept (its last values may be stale)
 * rather than cutting out a record of the same length that was committed.
 */
#include <stdio.h>
#include <string.h>

#include "writer/contexts.h"
#include "writer/packet.h"
#include "daemon/traxd.h"

#include <stdlib.h>

/* Record starts remembered per packet, at most (beyond: not repaired). */
#define MAX_BOUNDARIES (1u << 20)

static uint64_t load_le(const uint8_t *p, unsigned int bytes)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static uint64_t load_be(const uint8_t *p, unsigned int bytes)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < bytes; i++)
		v = v << 8 | p[i];
	return v;
}

/* The payload of event ev at p: its length, or -1 when it passes end. */
static long payload_len(const struct dchan_event *ev, const uint8_t *p, const uint8_t *end)
{
	const uint8_t *at = p;
	const char *line = ev->signature;

	while (line && *line) {
		int kind, net = 0;
		long long size, fbits, count, lsize, nowrite;
		const char *nl = strchr(line, '\n');

		if (sscanf(line, "field=%d:%*[^:]:%lld:%*d:%*d:%d:%*d:%lld:%lld:%lld:%*d:%lld",
			   &kind, &size, &net, &fbits, &count, &lsize, &nowrite) == 7 &&
		    !nowrite) {
			uint64_t n = 0;

			switch (kind) {
			case TRAX_PROTO_FIELD_INTEGER:
			case TRAX_PROTO_FIELD_ENUM:
				n = (uint64_t)size / 8;
				break;
			case TRAX_PROTO_FIELD_FLOAT:
				n = (uint64_t)fbits / 8;
				break;
			case TRAX_PROTO_FIELD_STRING: {
				const uint8_t *z = memchr(at, 0, (size_t)(end - at));

				if (!z)
					return -1;
				n = (uint64_t)(z - at) + 1;
				break;
			}
			case TRAX_PROTO_FIELD_ARRAY:
				n = (uint64_t)count * ((uint64_t)size / 8);
				break;
			case TRAX_PROTO_FIELD_SEQUENCE: {
				uint64_t lb = (uint64_t)lsize / 8, len;

				if (lb == 0 || lb > 8 || (uint64_t)(end - at) < lb)
					return -1;
				len = net ? load_be(at, (unsigned)lb) : load_le(at, (unsigned)lb);
				at += lb;
				if (size && len > (uint64_t)(end - at) / ((uint64_t)size / 8))
					return -1;
				n = len * ((uint64_t)size / 8);
				break;
			}
			default:
				return -1;
			}
			if (n > (uint64_t)(end - at))
				return -1;
			at += n;
		}
		line = nl ? nl + 1 : NULL;
	}
	return at - p;
}

size_t packet_record_len(const struct dchan *dc, const uint8_t *p, const uint8_t *end, uint64_t *ts,
			 uint64_t ts_end)
{
	const uint8_t *at = p;
	uint64_t id, t;
	long n;

	if (end - at < (long)CTF_COMPACT_HEADER_SIZE)
		return 0;
	id = p[0] & 31u;
	if (id == CTF_EXTENDED_ID) {
		if (end - at < (long)CTF_EXTENDED_HEADER_SIZE)
			return 0;
		id = load_le(p + 1, 4);
		t = load_le(p + 5, 8);
		if (t < *ts)
			return 0;
		at += CTF_EXTENDED_HEADER_SIZE;
	} else {
		uint64_t mask = ((uint64_t)1 << CTF_COMPACT_TS_BITS) - 1;
		uint64_t low = load_le(p, 4) >> 5;

		t = (*ts & ~mask) | low;
		if (low < (*ts & mask))
			t += mask + 1;
		at += CTF_COMPACT_HEADER_SIZE;
	}
	if (t > ts_end)
		return 0;
	for (unsigned int i = 0; i < dc->chan->ncontexts; i++)
		at += ctf_context_size(dc->chan->contexts[i]);
	if (at > end)
		return 0;
	n = -1;
	for (uint32_t i = 0; i < dc->nevents; i++)
		if (dc->events[i].id == id) {
			n = payload_len(&dc->events[i], at, end);
			break;
		}
	if (n < 0)
		return 0;
	*ts = t;
	return (size_t)(at + n - p);
}

/* Whether the records from off, after timestamp ts, end exactly at content. */
static bool walks_to_end(const struct dchan *dc, const uint8_t *sb, size_t off, size_t content,
			 uint64_t ts, uint64_t ts_end)
{
	while (off < content) {
		size_t n = packet_record_len(dc, sb + off, sb + content, &ts, ts_end);

		if (!n)
			return false;
		off += n;
	}
	return off == content;
}

bool packet_repair(const struct dchan *dc, void *subbuf, uint64_t missing)
{
	struct ctf_packet_header *h = subbuf;
	uint8_t *sb = subbuf;
	uint64_t content = h->content_size / 8, ts = h->timestamp_begin;
	size_t nb = 0, cap, off = sizeof(*h);
	size_t *at;
	uint64_t *ts_at;
	bool ok = false;

	/* the close fields are this lap's (the closer may be the one that died) */
	if (h->magic != CTF_MAGIC || h->content_size % 8 || content < sizeof(*h) ||
	    content > dc->cfg.subbuf_size || h->timestamp_end < h->timestamp_begin ||
	    missing > content - sizeof(*h))
		return false;
	cap = content / CTF_COMPACT_HEADER_SIZE + 1;
	if (cap > MAX_BOUNDARIES)
		cap = MAX_BOUNDARIES;
	at = malloc(cap * sizeof(*at));
	ts_at = malloc(cap * sizeof(*ts_at));
	if (!at || !ts_at)
		goto out;
	/* the boundaries the walk finds before it goes wrong */
	while (off < content && nb < cap) {
		size_t n;

		at[nb] = off;
		ts_at[nb++] = ts;
		n = packet_record_len(dc, sb + off, sb + content, &ts, h->timestamp_end);
		if (!n)
			break;
		off += n;
	}
	if (off == content) {
		ok = true; /* every byte walks as records: nothing to cut */
		goto out;
	}
	/* the dead record is most likely the last one the walk reached */
	for (size_t i = nb; i-- > 0;) {
		size_t x = at[i];

		if (x + missing > content ||
		    !walks_to_end(dc, sb, x + missing, content, ts_at[i], h->timestamp_end))
			continue;
		memmove(sb + x, sb + x + missing, content - x - missing);
		ctf_packet_close(h, h->timestamp_end, content - missing, h->events_discarded);
		ok = true;
		break;
	}
out:
	free(at);
	free(ts_at);
	return ok;
}
