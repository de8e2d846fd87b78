/*
 * bitfield.h - reading CTF integers of any bit size (1 to 64) at any bit
 * offset, in either byte order.
 *
 * CTF numbers the bits of a little-endian stream from the least significant
 * bit of each byte, and those of a big-endian stream from the most
 * significant one: a field of `size` bits at bit offset `bit` is, for little
 * endian, bits [bit, bit + size) of the stream read as one little-endian
 * number; for big endian, the same bits of the stream read as one big-endian
 * number, counted from the top.
 *
 * The caller guarantees that the bytes holding the field are readable:
 * ceil((bit % 8 + size) / 8) bytes from buf + bit / 8. Nothing past them is
 * read.
 */
#ifndef TRAX_CTF_BITFIELD_H
#define TRAX_CTF_BITFIELD_H

#include <stdint.h>
#include <string.h>

/* Bytes spanned by `size` bits starting at bit `shift` (0..7) of a byte. */
static inline unsigned ctf_bits_span(unsigned shift, unsigned size)
{
	return (shift + size + 7) / 8;
}

static inline uint64_t ctf_bits_mask(unsigned size)
{
	return size >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << size) - 1);
}

/* Little-endian field of `size` bits at bit offset `bit` of buf. */
static inline uint64_t ctf_bits_read_le(const uint8_t *buf, uint64_t bit, unsigned size)
{
	const uint8_t *p = buf + (bit >> 3);
	unsigned shift = (unsigned)(bit & 7), n = ctf_bits_span(shift, size), i;
	uint64_t lo = 0;

	if (shift == 0 && (size == 8 || size == 16 || size == 32 || size == 64)) {
		uint64_t v = 0;

		memcpy(&v, p, size / 8); /* x86-64 and every CTF host we build on: LE */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = __builtin_bswap64(v) >> (64 - size);
#endif
		return v;
	}
	/* Up to 9 bytes: the first 8 in lo, the ninth only for its top bits. */
	for (i = 0; i < n && i < 8; i++)
		lo |= (uint64_t)p[i] << (8 * i);
	lo >>= shift;
	if (n == 9)
		lo |= (uint64_t)p[8] << (64 - shift);
	return lo & ctf_bits_mask(size);
}

/* Big-endian field of `size` bits at bit offset `bit` of buf. */
static inline uint64_t ctf_bits_read_be(const uint8_t *buf, uint64_t bit, unsigned size)
{
	const uint8_t *p = buf + (bit >> 3);
	unsigned shift = (unsigned)(bit & 7), n = ctf_bits_span(shift, size), i;
	unsigned __int128 acc = 0;

	if (shift == 0 && (size == 8 || size == 16 || size == 32 || size == 64)) {
		uint64_t v = 0;

		memcpy(&v, p, size / 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		v = __builtin_bswap64(v) >> (64 - size);
#endif
		return v;
	}
	for (i = 0; i < n; i++)
		acc = (acc << 8) | p[i];
	/* The field ends n * 8 - shift - size bits above the bottom of acc. */
	return (uint64_t)(acc >> (n * 8 - shift - size)) & ctf_bits_mask(size);
}

/* Sign-extends the low `size` bits of v. */
static inline int64_t ctf_bits_sign_extend(uint64_t v, unsigned size)
{
	if (size >= 64)
		return (int64_t)v;
	if (v & ((uint64_t)1 << (size - 1)))
		v |= ~ctf_bits_mask(size);
	return (int64_t)v;
}

#endif /* TRAX_CTF_BITFIELD_H */
