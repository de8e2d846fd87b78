/*
 * text-buf.h - the output buffer of the text and JSON formatters: bytes
 * appended with inline copies, written to a file descriptor when full.
 *
 * To a regular file, once the text outgrows one buffer, the writing is done
 * by a background writer (text-writer.h): a full buffer is handed over and
 * the formatter goes on in another one; the file is written with O_DIRECT
 * where allowed. To a terminal, a pipe or /dev/null, plain write(2) of each
 * full buffer, as always.
 */
#ifndef TRAX_CTF_TEXT_BUF_H
#define TRAX_CTF_TEXT_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct ctf_text_writer;

/*
 * An output buffer written to fd; with fd < 0, a buffer in memory only,
 * which grows as needed (flushing it does nothing: the caller takes
 * data[0 .. len) and resets len).
 */
struct ctf_text_buf {
	char *data;
	size_t len;
	size_t cap;
	int fd;
	int error;		   /* errno of the first failed write, 0 otherwise */
	struct ctf_text_writer *w; /* background writer, NULL: plain write(2) */
};

/* 0, or -1 when memory runs out. */
int ctf_text_buf_init(struct ctf_text_buf *b, int fd, size_t cap);
/*
 * Writes everything appended so far and returns once it is written, with fd's
 * offset after it (as write(2) would leave it); 0, or -1 (b->error set, also
 * for an error of an earlier background write).
 */
int ctf_text_buf_flush(struct ctf_text_buf *b);
/*
 * Waits for the bytes handed over when the buffer was full; what was
 * appended since is dropped (flush first). b->error gets any write error.
 */
void ctf_text_buf_free(struct ctf_text_buf *b);
/*
 * Makes room for n more bytes: hands the buffer over (written in the
 * background with a writer) or writes it, or grows it for one huge value.
 */
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
