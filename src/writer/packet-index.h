/*
 * writer-index.h - the packet index LTTng's consumer writes beside each
 * stream file, TRACE/index/STREAM.idx (CTF index 1.1), which Babeltrace 2,
 * Trace Compass and trax's reader use to find packets without scanning the
 * stream: a 16-byte header, then one 72-byte entry per packet, in the
 * order of the packets in the file. Every field is a big-endian integer.
 */
#ifndef TRAX_CTF_WRITER_INDEX_H
#define TRAX_CTF_WRITER_INDEX_H

#include <stdint.h>
#include <sys/types.h>

#include "writer/packet.h"

#define CTF_INDEX_FILE_MAGIC 0xC1F1DCC1u
#define CTF_INDEX_MAJOR	     1u
#define CTF_INDEX_MINOR	     1u
#define CTF_INDEX_HEADER_LEN 16u
#define CTF_INDEX_ENTRY_LEN  72u

/*
 * Creates (or truncates) the index of the stream file trace_dir/stream,
 * making trace_dir/index with dir_mode if needed, and writes its header.
 * Returns the descriptor, or -errno.
 */
int ctf_index_create(const char *trace_dir, const char *stream, mode_t dir_mode, mode_t mode);

/*
 * The entry of a packet of trax's layout (writer-packet.h) that starts
 * `offset` bytes into its stream file.
 */
void ctf_index_entry(uint8_t out[CTF_INDEX_ENTRY_LEN], uint64_t offset,
		     const struct ctf_packet_header *h);

#endif /* TRAX_CTF_WRITER_INDEX_H */
