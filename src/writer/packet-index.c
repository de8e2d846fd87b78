/*
 * writer-index.c - LTTng's packet index files (see writer-index.h).
 */
#include "writer/packet-index.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/io.h"

static void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 3; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

int ctf_index_create(const char *trace_dir, const char *stream, mode_t dir_mode, mode_t mode)
{
	char path[4352];
	uint8_t header[CTF_INDEX_HEADER_LEN];
	int fd, err;

	if ((size_t)snprintf(path, sizeof(path), "%s/index", trace_dir) >= sizeof(path))
		return -ENAMETOOLONG;
	if (mkdir(path, dir_mode) < 0 && errno != EEXIST)
		return -errno;
	if ((size_t)snprintf(path, sizeof(path), "%s/index/%s.idx", trace_dir, stream) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	put_be32(header, CTF_INDEX_FILE_MAGIC);
	put_be32(header + 4, CTF_INDEX_MAJOR);
	put_be32(header + 8, CTF_INDEX_MINOR);
	put_be32(header + 12, CTF_INDEX_ENTRY_LEN);
	err = trax_write_all(fd, header, sizeof(header), false);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

void ctf_index_entry(uint8_t out[CTF_INDEX_ENTRY_LEN], uint64_t offset,
		     const struct ctf_packet_header *h)
{
	/* the order of CTF index 1.1's fields; the last two are 1.1's own */
	const uint64_t v[CTF_INDEX_ENTRY_LEN / 8] = {
	    offset,
	    h->packet_size,
	    h->content_size,
	    h->timestamp_begin,
	    h->timestamp_end,
	    h->events_discarded,
	    h->stream_id,
	    h->stream_instance_id,
	    h->packet_seq_num,
	};

	for (unsigned int i = 0; i < CTF_INDEX_ENTRY_LEN / 8; i++)
		put_be64(out + 8 * i, v[i]);
}
