/* Argument structures of the fields provider (tp.h). */
#ifndef FIELDS_VALUES_H
#define FIELDS_VALUES_H

#include <stdint.h>

struct ints {
	int8_t i8_min, i8_max;
	uint8_t u8_max;
	int16_t i16_min, i16_max;
	uint16_t u16_max;
	int32_t i32_min, i32_max;
	uint32_t u32_max;
	int64_t i64_min, i64_max;
	uint64_t u64_max;
};

struct arrs {
	int32_t i32[4];
	uint64_t u64[2];
	int8_t i8[3];
	uint8_t u8[4];
	int16_t i16[2];
	char text[6];     /* not null-terminated */
	char text_nul[6]; /* holds a null byte in the middle */
	/* The same kind of values in network byte order (set by app.c). */
	uint16_t n16[3];
	int32_t n32i[4];
	uint32_t n32[2];
	uint64_t n64[2];
};

#endif /* FIELDS_VALUES_H */
