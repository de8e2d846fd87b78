/* metadata-read.c - the metadata stream's bytes to TSDL text, plain or packetized. */
#include "reader/metadata-read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/tsdl-parser.h"

/* Metadata files are KiB to a few MiB; refuse what cannot be one. */
#define MAX_METADATA_SIZE ((size_t)256 << 20)

static uint32_t read_u32(const uint8_t *p, enum ctf_byte_order bo)
{
	if (bo == CTF_BYTE_ORDER_LE)
		return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		       (uint32_t)p[3] << 24;
	return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
}

static enum ctf_byte_order magic_order(const uint8_t *p, size_t size)
{
	if (size < 4)
		return CTF_BYTE_ORDER_UNSET;
	if (read_u32(p, CTF_BYTE_ORDER_LE) == CTF_METADATA_PACKET_MAGIC)
		return CTF_BYTE_ORDER_LE;
	if (read_u32(p, CTF_BYTE_ORDER_BE) == CTF_METADATA_PACKET_MAGIC)
		return CTF_BYTE_ORDER_BE;
	return CTF_BYTE_ORDER_UNSET;
}

/* Offsets in the metadata packet header. */
enum {
	HDR_MAGIC = 0,
	HDR_UUID = 4,
	HDR_CHECKSUM = 20,
	HDR_CONTENT_SIZE = 24,
	HDR_PACKET_SIZE = 28,
	HDR_COMPRESSION = 32,
	HDR_ENCRYPTION = 33,
	HDR_CHECKSUM_SCHEME = 34,
	HDR_MAJOR = 35,
	HDR_MINOR = 36,
};

static int decode_packets(const uint8_t *data, size_t size, const char *file,
			  struct ctf_metadata_text *out, struct tsdl_error *err)
{
	size_t offset = 0, len = 0;
	unsigned int index = 0;
	char *text = malloc(size + 1); /* payloads are never longer than the packets */

	if (!text) {
		tsdl_error_set(err, file, 0, 0, "out of memory");
		return -1;
	}
	out->byte_order = magic_order(data, size);
	while (offset < size) {
		const uint8_t *h = data + offset;
		size_t left = size - offset;
		uint32_t content_bits, packet_bits;

#define BAD(...)                                                                                   \
	do {                                                                                       \
		char what_[256];                                                                   \
		snprintf(what_, sizeof(what_), __VA_ARGS__);                                       \
		tsdl_error_set(err, file, 0, 0, "metadata packet %u (byte %zu): %s", index,        \
			       offset, what_);                                                     \
		free(text);                                                                        \
		return -1;                                                                         \
	} while (0)

		if (left < CTF_METADATA_PACKET_HEADER_SIZE)
			BAD("truncated header (%zu bytes left)", left);
		if (magic_order(h, left) != out->byte_order)
			BAD("bad magic 0x%08x (expected 0x%08x)",
			    (unsigned int)read_u32(h, out->byte_order), CTF_METADATA_PACKET_MAGIC);
		if (index == 0)
			memcpy(out->uuid, h + HDR_UUID, 16);
		else if (memcmp(out->uuid, h + HDR_UUID, 16) != 0)
			BAD("uuid differs from the first packet's");
		content_bits = read_u32(h + HDR_CONTENT_SIZE, out->byte_order);
		packet_bits = read_u32(h + HDR_PACKET_SIZE, out->byte_order);
		if (h[HDR_COMPRESSION] || h[HDR_ENCRYPTION] || h[HDR_CHECKSUM_SCHEME])
			BAD("compression, encryption and checksum schemes must be 0, not %u, %u, "
			    "%u",
			    h[HDR_COMPRESSION], h[HDR_ENCRYPTION], h[HDR_CHECKSUM_SCHEME]);
		if (h[HDR_MAJOR] != 1 || h[HDR_MINOR] != 8)
			BAD("version %u.%u, expected 1.8", h[HDR_MAJOR], h[HDR_MINOR]);
		if (content_bits % 8 || packet_bits % 8)
			BAD("content size %u or packet size %u bits is not whole bytes",
			    (unsigned int)content_bits, (unsigned int)packet_bits);
		if (content_bits < CTF_METADATA_PACKET_HEADER_SIZE * 8 ||
		    content_bits > packet_bits)
			BAD("content size %u bits does not fit between the header and the packet "
			    "size %u bits",
			    (unsigned int)content_bits, (unsigned int)packet_bits);
		if (packet_bits / 8 > left)
			BAD("packet size %u bytes goes past the end of the metadata (%zu bytes "
			    "left)",
			    (unsigned int)(packet_bits / 8), left);
#undef BAD
		memcpy(text + len, h + CTF_METADATA_PACKET_HEADER_SIZE,
		       content_bits / 8 - CTF_METADATA_PACKET_HEADER_SIZE);
		len += content_bits / 8 - CTF_METADATA_PACKET_HEADER_SIZE;
		offset += packet_bits / 8;
		index++;
	}
	text[len] = '\0';
	out->text = text;
	out->len = len;
	out->packetized = true;
	out->packet_count = index;
	return 0;
}

int ctf_metadata_decode(const void *data, size_t size, const char *file,
			struct ctf_metadata_text *out, struct tsdl_error *err)
{
	memset(out, 0, sizeof(*out));
	if (magic_order(data, size) != CTF_BYTE_ORDER_UNSET)
		return decode_packets(data, size, file, out, err);
	out->text = malloc(size + 1);
	if (!out->text) {
		tsdl_error_set(err, file, 0, 0, "out of memory");
		return -1;
	}
	if (size)
		memcpy(out->text, data, size);
	out->text[size] = '\0';
	out->len = size;
	return 0;
}

int ctf_metadata_read_file(const char *path, struct ctf_metadata_text *out, struct tsdl_error *err)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL;
	size_t size = 0, cap = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!f) {
		tsdl_error_set(err, path, 0, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		size_t n;

		if (size == cap) {
			unsigned char *bigger;

			if (cap >= MAX_METADATA_SIZE) {
				tsdl_error_set(err, path, 0, 0, "larger than %zu MiB",
					       MAX_METADATA_SIZE >> 20);
				goto fail;
			}
			cap = cap ? cap * 2 : 65536;
			bigger = realloc(data, cap);
			if (!bigger) {
				tsdl_error_set(err, path, 0, 0, "out of memory");
				goto fail;
			}
			data = bigger;
		}
		n = fread(data + size, 1, cap - size, f);
		size += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		tsdl_error_set(err, path, 0, 0, "read error: %s", strerror(errno));
		goto fail;
	}
	fclose(f);
	ret = ctf_metadata_decode(data, size, path, out, err);
	free(data);
	return ret;
fail:
	fclose(f);
	free(data);
	return -1;
}

void ctf_metadata_text_free(struct ctf_metadata_text *text)
{
	free(text->text);
	memset(text, 0, sizeof(*text));
}

struct ctf_trace *ctf_metadata_load(const char *path, struct tsdl_error *err)
{
	struct ctf_metadata_text text;
	struct ctf_trace *trace;

	if (ctf_metadata_read_file(path, &text, err))
		return NULL;
	/* packets' uuid may differ from the trace block's: Babeltrace 2 reads them all the same */
	trace = tsdl_parse(text.text, text.len, path, err);
	ctf_metadata_text_free(&text);
	return trace;
}
