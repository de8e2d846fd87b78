/*
 * text-buf.h - the output buffer of the text and JSON formatters: bytes
 * appended with inline copies, written to a file descriptor when full.
 */
#ifndef TRAX_CTF_TEXT_BUF_H
#define TRAX_CTF_TEXT_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* An output buffer written to fd. */
struct ctf_text_buf {
	char *data;
	size_t len;
	size_t cap;
	int fd;
	int error; /* errno of a failed write, 0 otherwise */
};

/* 0, or -1 when memory runs out. */
int ctf_text_buf_init(struct ctf_text_buf *b, int fd, size_t cap);
/* Writes what is buffered; 0, or -1 (b->error set). */
int ctf_text_buf_flush(struct ctf_text_buf *b);
void ctf_text_buf_free(struct ctf_text_buf *b);
/* Makes room for n more bytes (flushing, or growing for one huge line). */
void ctf_text_buf_reserve(struct ctf_text_buf *b, size_t n);
/* Appends a number in decimal. */
void ctf_text_put_u64(struct ctf_text_buf *b, uint64_t v);
void ctf_text_put_s64(struct ctf_text_buf *b, int64_t v);

static inline void ctf_text_put(struct ctf_text_buf *b, const char *s, size_t n)
{
	if (b->cap - b->len < n)
		ctf_text_buf_reserve(b, n);
	char *d = b->data + b->len;

	b->len += n;
	/*
	 * Most pieces are a few bytes (separators, numbers, names): a call to
	 * memcpy costs more than copying them. Two overlapping fixed-size
	 * copies (plain moves) cover 4 to 16 bytes without reading past s + n.
	 */
	if (n >= 8 && n <= 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n < 4) {
		if (n > 0)
			d[0] = s[0];
		if (n > 1)
			d[1] = s[1];
		if (n > 2)
			d[2] = s[2];
	} else {
		memcpy(d, s, n);
	}
}

static inline void ctf_text_putc(struct ctf_text_buf *b, char c)
{
	if (b->len == b->cap)
		ctf_text_buf_reserve(b, 1);
	b->data[b->len++] = c;
}

/* "00" to "99": decimal conversion two digits per division. */
extern const char ctf_text_digits2[201];

/* Decimal digits of v at the end of buf[24]; returns the first one. */
static inline char *ctf_text_dec_u64(char *end, uint64_t v)
{
	char *p = end;

	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		p -= 2;
		memcpy(p, ctf_text_digits2 + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, ctf_text_digits2 + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	return p;
}

#endif /* TRAX_CTF_TEXT_BUF_H */
