/*
 * stream-file.h - a CTF stream file written record by record, for
 * producers that do not record into trax's ring buffer (the kernel domain,
 * which converts the kernel's records; converters of other formats): the
 * records of one stream are gathered into a packet of a fixed size, which
 * is written with its header, context and index entry (writer/packet.h,
 * writer/packet-index.h) when the next record does not fit or the
 * producer flushes.
 *
 * Records carry the compact event header when their id is at most
 * CTF_COMPACT_ID_MAX and their time is less than 2^27 ns after the
 * previous one's, the extended header otherwise. Time never goes back in a
 * stream: a record older than the previous is written at the previous
 * one's time (and counted in `clamped`).
 *
 * One thread at a time per stream file; nothing is shared between them.
 *
 *	struct ctfw_stream_file f;
 *	ctfw_stream_file_open(&f, dir, "channel0_0", uuid, 0, 0, 1 << 20);
 *	p = ctfw_stream_file_reserve(&f, id, ts, len);	(fill len bytes at p)
 *	ctfw_stream_file_flush(&f, now);		(the packet is on disk)
 *	ctfw_stream_file_close(&f, now);
 */
#ifndef TRAX_WRITER_STREAM_FILE_H
#define TRAX_WRITER_STREAM_FILE_H

#include <stddef.h>
#include <stdint.h>

struct ctfw_stream_file {
	int fd, index_fd;
	uint8_t uuid[16];
	uint32_t stream_id;
	int cpu;
	/*
	 * Its packets' stream_instance_id: the cpu unless set after the open.
	 * Readers take the files of one stream class and instance id for the
	 * pieces of one stream (LTTng's trace file rotation): two sources
	 * writing the same CPU need two instance ids.
	 */
	uint64_t instance_id;
	/*
	 * When the stream began (the trace's start), when set: its first
	 * packet begins then, not at its first record. Readers that keep only
	 * the time all streams cover (lttng-analyses) need every stream to
	 * span the trace, as LTTng's do.
	 */
	uint64_t begin_hint;
	uint64_t last_end;	    /* timestamp_end of the last packet written */
	uint8_t *buf;		    /* the packet being filled: header, then records */
	size_t cap, used;	    /* its size, and bytes used (header included) */
	uint64_t seq;		    /* packets written */
	uint64_t offset;	    /* bytes in the file */
	uint64_t ts_begin;	    /* of the packet being filled */
	uint64_t ts_last;	    /* of the last record */
	uint64_t discarded;	    /* running count of events its source lost (set_discarded) */
	uint64_t refused;	    /* records too large for a packet (reserve refused them) */
	uint64_t discarded_written; /* as the last packet written said */
	uint64_t records;	    /* written (in packets on disk or being filled) */
	uint64_t clamped;	    /* records whose time was moved up to the previous one's */
	int error;		    /* the first write error (-errno): nothing more is written */
};

/*
 * Creates dir/name and dir/index/name.idx, for a stream of class stream_id
 * recorded on cpu (its instance id and cpu_id), in packets of packet_size
 * bytes (a multiple of 4096, at least 4096). 0, or -errno.
 */
int ctfw_stream_file_open(struct ctfw_stream_file *f, const char *dir, const char *name,
			  const uint8_t uuid[16], uint32_t stream_id, int cpu, size_t packet_size);

/*
 * Room for a record of event id at time ts whose context and payload take
 * len bytes: its header is written, the caller writes the len bytes at
 * the pointer returned, before the next call. NULL when the record can
 * never fit in a packet (it is counted discarded) or after a write error.
 */
void *ctfw_stream_file_reserve(struct ctfw_stream_file *f, uint32_t id, uint64_t ts, size_t len);

/*
 * Sets the running count of events the stream's source lost (never
 * decreases); the packets say that plus the records reserve refused.
 */
void ctfw_stream_file_set_discarded(struct ctfw_stream_file *f, uint64_t total);

/*
 * Writes the packet being filled, if it holds a record, ending at ts_end
 * (or its last record's time, when later); without records, an empty
 * packet when events were discarded since the last one written (readers
 * learn of losses from packets). 0, or -errno.
 */
int ctfw_stream_file_flush(struct ctfw_stream_file *f, uint64_t ts_end);

/*
 * Flushes, then closes the files and frees the packet; a stream whose last
 * packet ended before ts_end gets an empty packet up to it (the stream
 * spans the trace). 0, or the first error.
 */
int ctfw_stream_file_close(struct ctfw_stream_file *f, uint64_t ts_end);

#endif /* TRAX_WRITER_STREAM_FILE_H */
