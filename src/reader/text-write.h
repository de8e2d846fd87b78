/*
 * text-write.h - writing text straight into the output buffer of the text
 * formatter (text-format.c, text-plan.c), without a bounds check per piece:
 * the caller makes room for the most a line (or a part of it) can take,
 * with ctf_text_room(), then the functions below write at d and return the
 * end of what they wrote. Some store a few bytes past that end (whole
 * words): CTF_TEXT_COPY_SLACK more bytes of room cover them.
 *
 *	d = ctf_text_room(b, b->data + b->len, 24 + CTF_TEXT_COPY_SLACK);
 *	d = ctf_text_write_u64(d, v);
 *	b->len = (size_t)(d - b->data);
 */
#ifndef TRAX_CTF_TEXT_WRITE_H
#define TRAX_CTF_TEXT_WRITE_H

#include <stdint.h>
#include <string.h>

#include "reader/ctf-ir.h"
#include "reader/text-buf.h"

/*
 * Literals are copied 32 bytes at a time (from texts padded for it): a copy
 * may write up to this many bytes past its end, in room made for the line
 * and overwritten next.
 */
#define CTF_TEXT_COPY_SLACK 32
/* Longest integer text: "0b" and 64 binary digits. */
#define CTF_TEXT_INTEGER_MAX 72
/* A string escapes to at most 4 bytes per byte, plus its quotes. */
#define CTF_TEXT_ESCAPED_MAX(n) (4 * (size_t)(n) + 2)

/* Copies n bytes of a plan text, 32 at a time (see CTF_TEXT_COPY_SLACK). */
static inline char *ctf_text_copy_literal(char *d, const char *s, size_t n)
{
	/* most literals are short: one unconditional copy */
	memcpy(d, s, 32);
	for (size_t i = 32; i < n; i += 32)
		memcpy(d + i, s + i, 32);
	return d + n;
}

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "ctf_text_write_8digits() stores its digits as a little-endian 64-bit word"
#endif

/*
 * The 8 decimal digits of v < 10^8, as the values (0 to 9) of the bytes of
 * a little-endian word, most significant first (byte 0): the four pairs of
 * digits are computed at once in the word's lanes, with multiplications by
 * reciprocals (Paul Khuong, "how to print integers faster", 2017).
 */
static inline uint64_t ctf_text_digits8(uint32_t v)
{
	uint64_t merged = (uint64_t)(v / 10000u) | (uint64_t)(v % 10000u) << 32;
	/* per 32-bit lane: / 100 as * 10486 >> 20 (exact below 10^4) */
	uint64_t top = ((merged * 10486u) >> 20) & 0x0000007F0000007FULL;
	uint64_t bot = merged - 100u * top;
	/* per 16-bit lane: one number below 100; / 10 as * 103 >> 10 */
	uint64_t hundreds = (bot << 16) + top;
	uint64_t tens = ((hundreds * 103u) >> 10) & 0x000F000F000F000FULL;

	return tens + ((hundreds - 10u * tens) << 8);
}

#define CTF_TEXT_ASCII_ZEROS 0x3030303030303030ULL

/* v < 10^8 on exactly 8 digits. */
static inline char *ctf_text_write_8digits(char *d, uint32_t v)
{
	uint64_t w = ctf_text_digits8(v) + CTF_TEXT_ASCII_ZEROS;

	memcpy(d, &w, 8);
	return d + 8;
}

/* 0 < v < 10^8 without leading zeros; stores 8 bytes (the extra are junk). */
static inline char *ctf_text_write_u32_short(char *d, uint32_t v)
{
	uint64_t w = ctf_text_digits8(v);
	/* the leading zero digits are the low zero bytes of w */
	unsigned int zeros = (unsigned int)__builtin_ctzll(w) / 8;

	w = (w >> (8 * zeros)) + CTF_TEXT_ASCII_ZEROS;
	memcpy(d, &w, 8);
	return d + 8 - zeros;
}

/*
 * v in decimal; may store up to 8 bytes past the digits (callers write in
 * room with slack, see CTF_TEXT_COPY_SLACK).
 */
static inline __attribute__((always_inline)) char *ctf_text_write_u64(char *d, uint64_t v)
{
	if (v < 10) {
		*d = (char)('0' + v);
		return d + 1;
	}
	if (v < 100000000u)
		return ctf_text_write_u32_short(d, (uint32_t)v);
	if (v < 10000000000000000ULL) {
		d = ctf_text_write_u32_short(d, (uint32_t)(v / 100000000u));
		return ctf_text_write_8digits(d, (uint32_t)(v % 100000000u));
	}
	d = ctf_text_write_u32_short(d, (uint32_t)(v / 10000000000000000ULL));
	v %= 10000000000000000ULL;
	d = ctf_text_write_8digits(d, (uint32_t)(v / 100000000u));
	return ctf_text_write_8digits(d, (uint32_t)(v % 100000000u));
}

static inline __attribute__((always_inline)) char *ctf_text_write_s64(char *d, int64_t v)
{
	if (v < 0) {
		*d++ = '-';
		return ctf_text_write_u64(d, (uint64_t)0 - (uint64_t)v);
	}
	return ctf_text_write_u64(d, (uint64_t)v);
}

/* v < 10^9 on exactly 9 digits. */
static inline char *ctf_text_write_nanos(char *d, uint32_t v)
{
	d[0] = (char)('0' + v / 100000000u);
	return ctf_text_write_8digits(d + 1, v % 100000000u);
}

#define CTF_TEXT_WRITEL(d, lit) (memcpy((d), (lit), sizeof(lit) - 1), (d) + sizeof(lit) - 1)

/* v on at least width digits, zero-padded (width <= 24). */
char *ctf_text_write_u64_pad(char *d, uint64_t v, unsigned int width);

/* The bytes of s (n, up to the first NUL) escaped: at most 4 bytes per byte. */
char *ctf_text_write_escaped_bytes(char *d, const char *s, uint64_t n);

/* s quoted and escaped: at most CTF_TEXT_ESCAPED_MAX(n) bytes. */
static inline char *ctf_text_write_escaped(char *d, const char *s, uint64_t n)
{
	*d++ = '"';
	d = ctf_text_write_escaped_bytes(d, s, n);
	*d++ = '"';
	return d;
}

/* An integer as its type's base says: at most CTF_TEXT_INTEGER_MAX bytes. */
char *ctf_text_write_integer(char *d, const struct ctf_integer_type *it, uint64_t v);

/*
 * Makes room for n more bytes after d (a position in b's data) and returns
 * where d is then (the buffer may have been flushed or moved).
 */
static inline char *ctf_text_room(struct ctf_text_buf *b, char *d, size_t n)
{
	size_t len = (size_t)(d - b->data);

	if (__builtin_expect(b->cap - len < n, 0)) {
		b->len = len;
		ctf_text_buf_reserve(b, n);
		return b->data + b->len;
	}
	return d;
}

#endif /* TRAX_CTF_TEXT_WRITE_H */
