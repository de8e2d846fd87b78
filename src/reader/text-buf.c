/*
 * text-buf.c - the formatters' output buffer (see text-buf.h).
 */
#include "reader/text-buf.h"
#include "reader/text-writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "00" to "99": two digits per division in ctf_text_dec_u64() and the nanoseconds. */
const char ctf_text_digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

int ctf_text_buf_init(struct ctf_text_buf *b, int fd, size_t cap)
{
	memset(b, 0, sizeof(*b));
	b->fd = fd;
	if (!ctf_text_writer_start(b, cap))
		return 0;
	b->data = malloc(cap);
	if (!b->data)
		return -1;
	b->cap = cap;
	return 0;
}

int ctf_text_buf_flush(struct ctf_text_buf *b)
{
	size_t off = 0;

	if (b->fd < 0)
		return 0; /* in memory: the caller takes the bytes */
	if (b->w) {
		ctf_text_writer_submit(b, true);
		return b->error ? -1 : 0;
	}
	while (off < b->len) {
		ssize_t n = write(b->fd, b->data + off, b->len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (!b->error)
				b->error = errno;
			break;
		}
		off += (size_t)n;
	}
	b->len = 0;
	return b->error ? -1 : 0;
}

void ctf_text_buf_free(struct ctf_text_buf *b)
{
	if (b->w) {
		ctf_text_writer_stop(b);
		return;
	}
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void ctf_text_buf_reserve(struct ctf_text_buf *b, size_t n)
{
	if (b->cap - b->len >= n)
		return;
	if (b->w) {
		/* written in the background while the formatter goes on */
		ctf_text_writer_submit(b, false);
		ctf_text_writer_grow(b, n);
		return;
	}
	if (b->fd >= 0) {
		ctf_text_buf_flush(b);
		if (b->cap >= n)
			return;
	}
	/* One value larger than the buffer, or a buffer in memory only: grow it. */
	if (b->fd < 0 && n < 2 * b->cap)
		n = 2 * b->cap;
	char *d = realloc(b->data, b->fd < 0 ? b->len + n : n);

	if (!d) {
		fprintf(stderr, "trax: out of memory\n");
		exit(1);
	}
	b->data = d;
	b->cap = b->fd < 0 ? b->len + n : n;
}

void ctf_text_put_u64(struct ctf_text_buf *b, uint64_t v)
{
	char buf[24], *e = buf + sizeof(buf), *p = ctf_text_dec_u64(e, v);

	ctf_text_put(b, p, (size_t)(e - p));
}

void ctf_text_put_s64(struct ctf_text_buf *b, int64_t v)
{
	if (v < 0) {
		ctf_text_putc(b, '-');
		ctf_text_put_u64(b, (uint64_t)0 - (uint64_t)v);
	} else {
		ctf_text_put_u64(b, (uint64_t)v);
	}
}
