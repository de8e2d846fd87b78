/* rows.h - the values the filter tests' program records, one event per
 * row (tests/integration/filter_lttng.sh). */
#ifndef FLT_ROWS_H
#define FLT_ROWS_H

#include <stddef.h>
#include <stdint.h>

struct flt_row {
	int n;
	int i;
	unsigned int u;
	int8_t i8;
	uint8_t u8;
	int64_t i64;
	uint64_t u64;
	uint16_t net;
	double d;
	float f;
	const char *s;
	int32_t arr[3];
	char txt[4];
	int16_t seq[4];
	size_t seq_len;
	unsigned int stxt_len;
	int e;
	int hid;
	const char *hs;
};

static const struct flt_row flt_rows[] = {
	{0, 0, 0, 0, 0, 0, 0, 0, 0.0, 0.0f, "", {0, 0, 0}, "", {0}, 0, 0, 0, 0, ""},
	{1, 1, 1, 1, 1, 1, 1, 1, 1.0, 1.0f, "a", {1, 2, 3}, "a", {1}, 1, 1, 1, 1, "x"},
	{2, -1, 4294967295u, -1, 255, -1, UINT64_MAX, 65535, -1.0, -1.0f, "hello", {-1, -2, -3}, "abc", {-1, 2}, 2, 3, 11, -1, "hello"},
	{3, 42, 42, 42, 42, 42, 42, 42, 42.5, 42.5f, "hello world", {42, 0, 0}, "hell", {42, 42, 42, 42}, 4, 5, 20, 42, "hello*"},
	{4, -42, 100, -128, 128, INT64_MIN, (uint64_t)INT64_MAX + 1, 0x1234, 1e100, 3.5f, "Hello", {7, 8, 9}, "Hi", {3, -3}, 2, 2, 5, 7, "a*b"},
	{5, 2147483647, 2147483648u, 127, 127, INT64_MAX, (uint64_t)INT64_MAX, 0x8000, -0.0, 0.1f, "*star", {0x10, 0x20, 0x40}, "*s", {0x7fff}, 1, 1, 0, 2147483647, "\\back"},
	{6, -2147483647 - 1, 7, -7, 7, -7, 7, 7, 0.5, -0.5f, "a*b", {-7, 7, -7}, "a*b", {-7, 7, -7}, 3, 3, 10, -2147483647 - 1, "tail\\"},
	{7, 255, 256, 64, 64, 256, 256, 256, 2.0, 2.0f, "a\\b", {255, 256, 257}, "a\\b", {256}, 1, 3, 1, 255, "x*y*z"},
	{8, 16, 16, 16, 16, 1LL << 40, 1ULL << 63, 16, 1.5, 1.5f, "\xc3\xa9t\xc3\xa9", {16, 32, 64}, "\xc3\xa9", {16}, 1, 4, 15, 16, "\xc3\xa9"},
	{9, 3, 3, 3, 3, 3, 3, 3, 3.0, 3.0f, "hello*", {3, 3, 3}, "hel", {3, 3, 3}, 0, 6, 12, 3, "hell"},
	{10, -5, 5, -5, 5, -5, 5, 5, -5.25, -5.25f, "HELLO", {-5, 5, -5}, "HELL", {-5, 5}, 2, 0, 2, -5, "ab"},
	{11, 100, 200, 100, 200, 300, 400, 500, 100.0, 100.0f, "abcabc", {100, 200, 300}, "ab", {100, 200, 300, 400}, 4, 3, 100, 100, "abc"},
};

#define FLT_NR_ROWS (sizeof(flt_rows) / sizeof(flt_rows[0]))

#endif /* FLT_ROWS_H */
