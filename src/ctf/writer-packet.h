/*
 * writer-packet.h - the header and context at the start of every packet
 * trax writes (one packet per sub-buffer), byte-packed, little-endian on
 * x86. The TSDL that describes it is written by writer-metadata.c: the two
 * must change together.
 */
#ifndef TRAX_CTF_WRITER_PACKET_H
#define TRAX_CTF_WRITER_PACKET_H

#include <stdint.h>

#define CTF_MAGIC 0xC1FC1FC1u

struct ctf_packet_header {
	/* trace.packet.header */
	uint32_t magic;
	uint8_t uuid[16];
	uint32_t stream_id;
	uint64_t stream_instance_id;
	/* stream.packet.context */
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t content_size; /* bits */
	uint64_t packet_size;  /* bits */
	uint64_t packet_seq_num;
	uint64_t events_discarded; /* running count for the stream */
	uint32_t cpu_id;
} __attribute__((packed));

/* Compact event header: 5-bit id, 27-bit timestamp; id 31 selects the extended one. */
#define CTF_COMPACT_ID_MAX	 30u
#define CTF_EXTENDED_ID		 31u
#define CTF_COMPACT_HEADER_SIZE	 4u
#define CTF_EXTENDED_HEADER_SIZE 13u
#define CTF_COMPACT_TS_BITS	 27u

#endif /* TRAX_CTF_WRITER_PACKET_H */
