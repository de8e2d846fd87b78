/*
 * packet-index.h - LTTng's packet index files (TRACE/index/STREAM.idx):
 * for each packet of a stream file, its offset, sizes, time range, discarded
 * count and sequence number, so a reader can seek without scanning. All
 * big-endian: a 16-byte header (magic 0xC1F1DCC1, major 1, minor, entry
 * length) then fixed-size entries (version 1.0: 7 fields of 64 bits; 1.1
 * adds stream_instance_id and packet_seq_num).
 */
#ifndef TRAX_CTF_PACKET_INDEX_H
#define TRAX_CTF_PACKET_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CTF_INDEX_MAGIC 0xC1F1DCC1u

struct ctf_packet_index_entry {
	uint64_t offset;       /* bytes, in the stream file */
	uint64_t packet_size;  /* bits */
	uint64_t content_size; /* bits */
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t events_discarded;
	uint64_t stream_id;
	bool has_seq; /* version 1.1: the two below are set */
	uint64_t stream_instance_id;
	uint64_t packet_seq_num;
};

/*
 * Reads the index of a stream file of stream_size bytes. Returns 0 with the
 * entries (free() them), or -1 with a one-line message in err when the
 * index is missing, malformed or does not describe the file (the reader
 * then scans the file instead).
 */
int ctf_packet_index_read(const char *path, uint64_t stream_size,
			  struct ctf_packet_index_entry **entries, size_t *count, char *err,
			  size_t errlen);

#endif /* TRAX_CTF_PACKET_INDEX_H */
