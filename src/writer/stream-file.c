/*
 * stream-file.c - CTF stream files written record by record (see
 * stream-file.h).
 */
#include "writer/stream-file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/assert.h"
#include "common/io.h"
#include "writer/packet-index.h"
#include "writer/packet.h"

#define HEADER_SIZE sizeof(struct ctf_packet_header)

int ctfw_stream_file_open(struct ctfw_stream_file *f, const char *dir, const char *name,
			  const uint8_t uuid[16], uint32_t stream_id, int cpu, size_t packet_size)
{
	char path[4352];

	memset(f, 0, sizeof(*f));
	f->fd = f->index_fd = -1;
	if (packet_size < CTF_PACKET_ALIGN || packet_size % CTF_PACKET_ALIGN)
		return -EINVAL;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	f->buf = malloc(packet_size);
	if (!f->buf)
		return -ENOMEM;
	f->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0660);
	if (f->fd < 0) {
		int err = -errno;

		free(f->buf);
		f->buf = NULL;
		return err;
	}
	f->index_fd = ctf_index_create(dir, name, 0770, 0660);
	if (f->index_fd < 0) {
		int err = f->index_fd;

		close(f->fd);
		free(f->buf);
		f->buf = NULL;
		f->fd = f->index_fd = -1;
		return err;
	}
	memcpy(f->uuid, uuid, 16);
	f->stream_id = stream_id;
	f->cpu = cpu;
	f->instance_id = (uint64_t)cpu;
	f->cap = packet_size;
	return 0;
}

static void packet_open(struct ctfw_stream_file *f, uint64_t ts)
{
	struct ctf_packet_header *h = (struct ctf_packet_header *)f->buf;

	ctf_packet_open(h, f->uuid, f->stream_id, f->cpu, ts, f->seq);
	h->stream_instance_id = f->instance_id;
}

static int write_packet(struct ctfw_stream_file *f, uint64_t ts_end)
{
	struct ctf_packet_header *h = (struct ctf_packet_header *)f->buf;
	uint8_t entry[CTF_INDEX_ENTRY_LEN];
	uint64_t d;
	size_t disk;
	int err;

	if (ts_end < f->ts_last)
		ts_end = f->ts_last;
	/*
	 * Readers report the growth of the count from one packet to the
	 * next, never what the first packet says: a stream's first packet
	 * says 0, and the next one (an empty one at the close if need be)
	 * carries what was lost until then.
	 */
	d = f->seq ? f->discarded + f->refused : 0;
	ctf_packet_close(h, ts_end, f->used, d);
	disk = (size_t)(h->packet_size / 8);
	TRAX_ASSERT(disk <= f->cap);
	memset(f->buf + f->used, 0, disk - f->used);
	err = trax_write_all(f->fd, f->buf, disk, false);
	if (!err) {
		ctf_index_entry(entry, f->offset, h);
		err = trax_write_all(f->index_fd, entry, sizeof(entry), false);
	}
	f->discarded_written = d;
	f->last_end = h->timestamp_end;
	f->offset += disk;
	f->seq++;
	f->used = 0;
	if (err && !f->error)
		f->error = err;
	return err;
}

void *ctfw_stream_file_reserve(struct ctfw_stream_file *f, uint32_t id, uint64_t ts, size_t len)
{
	uint64_t prev;
	size_t need;
	uint8_t *p;

	if (f->error)
		return NULL;
	if (ts < f->ts_last) {
		ts = f->ts_last;
		f->clamped++;
	}
	if (HEADER_SIZE + CTF_EXTENDED_HEADER_SIZE + len > f->cap) {
		f->refused++;
		return NULL;
	}
	prev = f->used ? f->ts_last : ts;
	need = (id <= CTF_COMPACT_ID_MAX && ts - prev < (1u << CTF_COMPACT_TS_BITS))
		   ? CTF_COMPACT_HEADER_SIZE
		   : CTF_EXTENDED_HEADER_SIZE;
	if (f->used && f->used + need + len > f->cap) {
		if (write_packet(f, f->ts_last))
			return NULL;
	}
	if (!f->used) {
		uint64_t begin = ts;

		/* a stream's first packet begins with the trace, later ones with their first record
		 */
		if (!f->seq && f->begin_hint && f->begin_hint < ts)
			begin = f->begin_hint;
		packet_open(f, begin);
		f->used = HEADER_SIZE;
		f->ts_begin = begin;
		need = (id <= CTF_COMPACT_ID_MAX && ts - begin < (1u << CTF_COMPACT_TS_BITS))
			   ? CTF_COMPACT_HEADER_SIZE
			   : CTF_EXTENDED_HEADER_SIZE;
	}
	p = f->buf + f->used;
	if (need == CTF_COMPACT_HEADER_SIZE) {
		uint32_t h = id | (uint32_t)((ts & ((1u << CTF_COMPACT_TS_BITS) - 1)) << 5);

		memcpy(p, &h, 4);
	} else {
		p[0] = (uint8_t)CTF_EXTENDED_ID;
		memcpy(p + 1, &id, 4);
		memcpy(p + 5, &ts, 8);
	}
	f->used += need + len;
	f->ts_last = ts;
	f->records++;
	return p + need;
}

void ctfw_stream_file_set_discarded(struct ctfw_stream_file *f, uint64_t total)
{
	if (total > f->discarded)
		f->discarded = total;
}

int ctfw_stream_file_flush(struct ctfw_stream_file *f, uint64_t ts_end)
{
	if (f->error)
		return f->error;
	if (f->used <= HEADER_SIZE) {
		/* an empty packet, only to tell of events lost since the last one */
		if (f->discarded + f->refused == f->discarded_written)
			return 0;
		if (ts_end < f->ts_last)
			ts_end = f->ts_last;
		/* from the end of the last packet: the losses happened in between */
		packet_open(f, f->seq && f->last_end <= ts_end ? f->last_end : ts_end);
		f->used = HEADER_SIZE;
		f->ts_last = ts_end;
	}
	return write_packet(f, ts_end);
}

int ctfw_stream_file_close(struct ctfw_stream_file *f, uint64_t ts_end)
{
	int err = 0;

	if (f->buf) {
		err = ctfw_stream_file_flush(f, ts_end);
		if (!err && !f->error && f->seq &&
		    (f->last_end < ts_end || f->discarded + f->refused != f->discarded_written)) {
			/* an empty packet: the stream lasts as long as the trace */
			packet_open(f, f->last_end);
			f->used = HEADER_SIZE;
			err = write_packet(f, ts_end);
		}
	}
	if (f->fd >= 0 && close(f->fd) < 0 && !err)
		err = -errno;
	if (f->index_fd >= 0 && close(f->index_fd) < 0 && !err)
		err = -errno;
	free(f->buf);
	f->buf = NULL;
	f->fd = f->index_fd = -1;
	return err ? err : f->error;
}
