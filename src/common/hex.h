/*
 * hex.h - bytes as hexadecimal text, for binary values in the key=value
 * messages of traxd's protocol (filter bytecode).
 */
#ifndef TRAX_COMMON_HEX_H
#define TRAX_COMMON_HEX_H

#include <stddef.h>
#include <stdint.h>

/* The value of a hexadecimal digit (either case), -1 for another character. */
int trax_hex_digit(int c);
/* Writes 2 * len lowercase digits and a NUL to out (2 * len + 1 bytes). */
void trax_hex_encode(const uint8_t *bytes, size_t len, char *out);
/*
 * Decodes an even number of hexadecimal digits (either case) into *out
 * (malloc'd, *len bytes). 0, or -1 for anything else (or no memory).
 */
int trax_hex_decode(const char *text, uint8_t **out, size_t *len);

#endif /* TRAX_COMMON_HEX_H */
