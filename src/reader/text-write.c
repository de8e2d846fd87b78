/*
 * text-write.c - the writers of text-write.h that are not inline.
 */
#include "reader/text-write.h"

#include <stdbool.h>

/* v on at least width digits: see text-write.h. */
char *ctf_text_write_u64_pad(char *d, uint64_t v, unsigned int width)
{
	char buf[40], *e = ctf_text_write_u64(buf, v);
	unsigned int n = (unsigned int)(e - buf);

	while (n < width) {
		*d++ = '0';
		width--;
	}
	memcpy(d, buf, n);
	return d + n;
}

/*
 * How each byte of a string is printed: 0: as is; ESC_END (for NUL): the
 * string ends; 'x': as \xNN; any other letter: a backslash and the letter.
 */
#define ESC_END 1
static const unsigned char escape_of[256] = {
    [0] = ESC_END, [1 ... 6] = 'x', [7] = 'a',	 [8] = 'b',	    [9] = 't',	 [10] = 'n',
    [11] = 'v',	   [12] = 'f',	    [13] = 'r',	 [14 ... 26] = 'x', [27] = 'e',	 [28 ... 31] = 'x',
    ['"'] = '"',   ['\''] = '\'',   ['?'] = '?', ['\\'] = '\\',	    [127] = 'x',
};

#define BYTES_OF(c) (0x0101010101010101ULL * (c))
/* Bytes of x below n (n <= 128) / equal to c: nonzero when there is one. */
#define HAS_LESS(x, n) (((x)-BYTES_OF(n)) & ~(x)&BYTES_OF(0x80))
#define HAS_BYTE(x, c) HAS_LESS((x) ^ BYTES_OF(c), 1)

/* Whether one of 8 bytes is printed escaped (or is a NUL). */
static inline bool any_escaped(uint64_t x)
{
	return HAS_LESS(x, 0x20) | HAS_BYTE(x, 0x7f) | HAS_BYTE(x, '"') | HAS_BYTE(x, '\'') |
	       HAS_BYTE(x, '?') | HAS_BYTE(x, '\\');
}

char *ctf_text_write_escaped_bytes(char *d, const char *s, uint64_t n)
{
	static const char lower_hex[] = "0123456789abcdef";
	uint64_t i = 0;

	for (;;) {
		/* most strings have no byte to escape: 8 at a time while so */
		while (n - i >= 8) {
			uint64_t x;

			memcpy(&x, s + i, 8);
			if (any_escaped(x))
				break;
			memcpy(d, &x, 8);
			d += 8;
			i += 8;
		}
		if (i == n)
			return d;
		/* byte by byte up to the next 8-byte boundary of s + i */
		for (uint64_t end = n - i >= 8 ? i + 8 : n; i < end; i++) {
			unsigned char c = (unsigned char)s[i];
			unsigned char e = escape_of[c];

			if (__builtin_expect(e == 0, 1)) {
				*d++ = (char)c;
			} else if (e == ESC_END) {
				return d;
			} else if (e == 'x') {
				d[0] = '\\';
				d[1] = 'x';
				d[2] = lower_hex[c >> 4];
				d[3] = lower_hex[c & 15];
				d += 4;
			} else {
				d[0] = '\\';
				d[1] = (char)e;
				d += 2;
			}
		}
		if (i == n)
			return d;
	}
}

char *ctf_text_write_integer(char *d, const struct ctf_integer_type *it, uint64_t v)
{
	static const char upper_hex[] = "0123456789ABCDEF";
	unsigned int size = it->size, n;

	switch (it->base) {
	case 2:
		d = CTF_TEXT_WRITEL(d, "0b");
		if (size < 64)
			v <<= 64 - size;
		for (unsigned int i = 0; i < size; i++) {
			d[i] = (v & (1ULL << 63)) ? '1' : '0';
			v <<= 1;
		}
		return d + size;
	case 8:
		if (it->is_signed && size < 64) {
			unsigned int r = ((size - 1) / 3 + 1) * 3;

			if (r < 64)
				v &= ((uint64_t)1 << r) - 1;
		}
		/* a leading 0, then the digits (zero is "00") */
		*d++ = '0';
		n = v ? (66 - (unsigned int)__builtin_clzll(v)) / 3 : 1;
		for (unsigned int i = n; i-- > 0; v >>= 3)
			d[i] = (char)('0' + (v & 7));
		return d + n;
	case 16:
		if (it->is_signed && size < 64) {
			unsigned int r = ((size - 1) / 4 + 1) * 4;

			if (r < 64)
				v &= ((uint64_t)1 << r) - 1;
		}
		d = CTF_TEXT_WRITEL(d, "0x");
		n = v ? (67 - (unsigned int)__builtin_clzll(v)) / 4 : 1;
		for (unsigned int i = n; i-- > 0; v >>= 4)
			d[i] = upper_hex[v & 15];
		return d + n;
	default:
		if (it->is_signed)
			return ctf_text_write_s64(d, (int64_t)v);
		return ctf_text_write_u64(d, v);
	}
}
