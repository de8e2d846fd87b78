/*
 * test_bitfield.c - ctf_bits_read_le/be against a bit-by-bit reference, for
 * every size 1..64 and bit offsets 0..23, on random bytes; each read is
 * made from a heap block holding exactly the bytes of the field, so that a
 * read past them is caught by AddressSanitizer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "reader/bitfield.h"

static uint64_t ref_le(const uint8_t *buf, uint64_t bit, unsigned size)
{
	uint64_t v = 0;
	unsigned j;

	for (j = 0; j < size; j++) {
		uint64_t k = bit + j;

		v |= (uint64_t)((buf[k / 8] >> (k % 8)) & 1) << j;
	}
	return v;
}

static uint64_t ref_be(const uint8_t *buf, uint64_t bit, unsigned size)
{
	uint64_t v = 0;
	unsigned j;

	for (j = 0; j < size; j++) {
		uint64_t k = bit + j;

		v = (v << 1) | ((buf[k / 8] >> (7 - k % 8)) & 1);
	}
	return v;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint8_t next_byte(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint8_t)(rng >> 24);
}

int main(void)
{
	uint8_t buf[64];
	unsigned size, round;
	uint64_t bit;

	for (round = 0; round < 40; round++) {
		unsigned i;

		for (i = 0; i < sizeof(buf); i++)
			buf[i] = next_byte();
		for (size = 1; size <= 64; size++) {
			for (bit = 0; bit < 24; bit++) {
				unsigned span = ctf_bits_span((unsigned)(bit % 8), size);
				uint64_t first = bit / 8;
				/* Exactly the field's bytes, at the start of a block. */
				uint8_t *exact = malloc(span);
				uint64_t got, want, rel = bit % 8;

				memcpy(exact, buf + first, span);
				got = ctf_bits_read_le(exact, rel, size);
				want = ref_le(buf, bit, size);
				CHECK(got == want, "le size %u bit %llu: %llx, expected %llx", size,
				      (unsigned long long)bit, (unsigned long long)got,
				      (unsigned long long)want);
				got = ctf_bits_read_be(exact, rel, size);
				want = ref_be(buf, bit, size);
				CHECK(got == want, "be size %u bit %llu: %llx, expected %llx", size,
				      (unsigned long long)bit, (unsigned long long)got,
				      (unsigned long long)want);
				free(exact);
				if (failures > 20) /* enough to see what is wrong */
					return CHECK_RESULT();
			}
		}
	}
	/* Known values: the compact event header of trax (5-bit id, 27-bit ts). */
	{
		uint8_t h[4];
		uint32_t w = 7u | (123456u << 5);

		memcpy(h, &w, 4);
		CHECK(ctf_bits_read_le(h, 0, 5) == 7, "compact header id");
		CHECK(ctf_bits_read_le(h, 5, 27) == 123456, "compact header timestamp");
	}
	/* Big-endian 16-bit network value, byte aligned. */
	{
		const uint8_t be16[2] = {0x12, 0x34};

		CHECK(ctf_bits_read_be(be16, 0, 16) == 0x1234, "be16");
		CHECK(ctf_bits_read_le(be16, 0, 16) == 0x3412, "le16");
		CHECK(ctf_bits_read_be(be16, 4, 8) == 0x23, "be nibble-aligned byte");
	}
	CHECK(ctf_bits_sign_extend(0x1F, 5) == -1, "sign 5 bits");
	CHECK(ctf_bits_sign_extend(0x0F, 5) == 15, "positive 5 bits");
	CHECK(ctf_bits_sign_extend(0x8000000000000000ull, 64) == INT64_MIN, "sign 64 bits");
	CHECK(ctf_bits_sign_extend(0x1FFE, 13) == -2, "sign 13 bits");
	if (!failures)
		printf("bitfield: all reads match the reference\n");
	return CHECK_RESULT();
}
