/*
 * writer-packet.h - the header and context at the start of every packet
 * trax writes (one packet per sub-buffer), byte-packed, little-endian on
 * x86. The TSDL that describes it is written by writer-metadata.c: the two
 * must change together.
 */
#ifndef TRAX_CTF_WRITER_PACKET_H
#define TRAX_CTF_WRITER_PACKET_H

#include <stdint.h>
#include <string.h>

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

/* Packets on disk are whole multiples of this (direct I/O blocks). */
#define CTF_PACKET_ALIGN 4096u

/*
 * Fills the header of a packet opened at time ts on buffer cpu of a
 * stream; seq counts the stream's packets from 0.
 */
static inline void ctf_packet_open(struct ctf_packet_header *h, const uint8_t uuid[16],
				   uint32_t stream_id, int cpu, uint64_t ts, uint64_t seq)
{
	h->magic = CTF_MAGIC;
	memcpy(h->uuid, uuid, sizeof(h->uuid));
	h->stream_id = stream_id;
	h->stream_instance_id = (uint64_t)cpu;
	h->timestamp_begin = ts;
	h->packet_seq_num = seq;
	h->cpu_id = (uint32_t)cpu;
}

/*
 * Closes it: its first content bytes are written (header included). The
 * packet on disk ends at the next CTF_PACKET_ALIGN boundary, not at the end
 * of the sub-buffer: whole blocks for O_DIRECT, and no more padding than
 * that. discarded: the stream's running count of discarded events.
 */
static inline void ctf_packet_close(struct ctf_packet_header *h, uint64_t ts_end, uint64_t content,
				    uint64_t discarded)
{
	h->timestamp_end = ts_end;
	h->content_size = content * 8;
	h->packet_size = ((content + CTF_PACKET_ALIGN - 1) & ~(uint64_t)(CTF_PACKET_ALIGN - 1)) * 8;
	h->events_discarded = discarded;
}

/* Compact event header: 5-bit id, 27-bit timestamp; id 31 selects the extended one. */
#define CTF_COMPACT_ID_MAX	 30u
#define CTF_EXTENDED_ID		 31u
#define CTF_COMPACT_HEADER_SIZE	 4u
#define CTF_EXTENDED_HEADER_SIZE 13u
#define CTF_COMPACT_TS_BITS	 27u

#endif /* TRAX_CTF_WRITER_PACKET_H */
