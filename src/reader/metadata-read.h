/*
 * metadata-read.h - reading a CTF trace's metadata stream: plain TSDL text,
 * or packetized (packets starting with the magic 0x75D11D57 in either byte
 * order, whose payloads concatenated are the text), then parsing it.
 */
#ifndef TRAX_CTF_METADATA_READ_H
#define TRAX_CTF_METADATA_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/ctf-ir.h"
#include "reader/tsdl-error.h"

#define CTF_METADATA_PACKET_MAGIC 0x75D11D57u
/* Bytes of a metadata packet header (CTF 1.8, section 7.1). */
#define CTF_METADATA_PACKET_HEADER_SIZE 37

struct ctf_metadata_text {
	char *text; /* malloc'd, NUL-terminated (text may not hold NULs: the parser rejects them) */
	size_t len;
	bool packetized;
	/* packetized only: */
	enum ctf_byte_order byte_order; /* of the packet headers */
	uint8_t uuid[16];		/* of the packet headers, all equal */
	unsigned int packet_count;
};

/*
 * The text of a metadata stream held in memory (data, size bytes); file
 * names it in errors. 0, or -1 with err filled (bad packet header: magic,
 * sizes, compression, encryption or checksum scheme not 0, version not 1.8,
 * uuid changing between packets).
 */
int ctf_metadata_decode(const void *data, size_t size, const char *file,
			struct ctf_metadata_text *out, struct tsdl_error *err);
/* The same from a file. */
int ctf_metadata_read_file(const char *path, struct ctf_metadata_text *out, struct tsdl_error *err);
void ctf_metadata_text_free(struct ctf_metadata_text *text);

/*
 * Reads and parses the metadata file at path (e.g. TRACE_DIR/metadata).
 * The trace, to release with ctf_trace_free(), or NULL with err filled.
 * A packetized metadata's uuid may differ from the trace block's (Babeltrace 2
 * reads such a trace).
 */
struct ctf_trace *ctf_metadata_load(const char *path, struct tsdl_error *err);

#endif /* TRAX_CTF_METADATA_READ_H */
