/*
 * hex.c - bytes as hexadecimal text (see hex.h).
 */
#include "common/hex.h"

#include <stdlib.h>
#include <string.h>

void trax_hex_encode(const uint8_t *bytes, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 15];
	}
	out[2 * len] = 0;
}

int trax_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int trax_hex_decode(const char *text, uint8_t **out, size_t *len)
{
	size_t n = strlen(text);
	uint8_t *b;

	if (n % 2)
		return -1;
	b = malloc(n / 2 + 1);
	if (!b)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		int hi = trax_hex_digit(text[2 * i]), lo = trax_hex_digit(text[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			free(b);
			return -1;
		}
		b[i] = (uint8_t)(hi << 4 | lo);
	}
	*out = b;
	*len = n / 2;
	return 0;
}
