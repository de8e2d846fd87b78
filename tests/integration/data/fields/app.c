/*
 * Fires every event of the fields provider once, in a fixed order, with
 * known values (tests/integration/fields.sh checks each printed value).
 */
#include <endian.h>
#include <stdint.h>
#include <stdlib.h>

#include "tp.h"

int main(void)
{
	static const struct ints v = {
		INT8_MIN, INT8_MAX, UINT8_MAX,
		INT16_MIN, INT16_MAX, UINT16_MAX,
		INT32_MIN, INT32_MAX, UINT32_MAX,
		INT64_MIN, INT64_MAX, UINT64_MAX,
	};
	static struct arrs a = {
		{ -1, 0, INT32_MAX, INT32_MIN },
		{ 0, UINT64_MAX },
		{ -128, 0, 127 },
		{ 0x00, 0x0F, 0xA0, 0xFF },
		{ -1, 0x1234 },
		{ 'a', 'b', 'c', 'd', 'e', 'f' },
		{ 'h', 'i', '\0', 'x', 'y', 'z' },
		{ 0 }, { 0 }, { 0 }, { 0 }, /* set below */
	};
	static const int pair[2] = { -7, 8 };

	/* Network byte order copies, for the _network arrays and sequences. */
	a.n16[0] = htobe16(0x0102);
	a.n16[1] = htobe16(0xFFFE);
	a.n16[2] = htobe16(0x00FF);
	a.n32i[0] = (int32_t)htobe32((uint32_t)-1);
	a.n32i[1] = (int32_t)htobe32(0x01020304);
	a.n32i[2] = (int32_t)htobe32((uint32_t)INT32_MAX);
	a.n32i[3] = (int32_t)htobe32((uint32_t)INT32_MIN);
	a.n32[0] = htobe32(0xDEADBEEF);
	a.n32[1] = htobe32(0x00000001);
	a.n64[0] = htobe64(0x0102030405060708ULL);
	a.n64[1] = htobe64(UINT64_MAX - 1);

	tracepoint(fields, integers, &v);
	tracepoint(fields, integers_special, &v);
	tracepoint(fields, floats, 1.5f, 2.718281828459045);
	tracepoint(fields, strings, "hello world", "h\xc3\xa9llo w\xc3\xb6rld \xe2\x9c\x93");
	tracepoint(fields, null_string, NULL);
	tracepoint(fields, arrays, &a);
	tracepoint(fields, sequences, &a, 3);
	tracepoint(fields, enums, -50, 220);
	tracepoint(fields, enums_auto, 21);
	tracepoint(fields, pair_first, 10, "first");
	tracepoint(fields, pair_second, -20, "second");
	tracepoint(fields, empty);
	tracepoint(fields, ten_args, -8, 65535, -123456, UINT64_MAX - 1,
		   0.5f, -1.0e-10, "tenth", 'Z', -9L, pair);
	tracepoint(fields, lvl_emerg, 0);
	tracepoint(fields, lvl_alert, 1);
	tracepoint(fields, lvl_crit, 2);
	tracepoint(fields, lvl_err, 3);
	tracepoint(fields, lvl_warning, 4);
	tracepoint(fields, lvl_notice, 5);
	tracepoint(fields, lvl_info, 6);
	tracepoint(fields, lvl_debug_system, 7);
	tracepoint(fields, lvl_debug_program, 8);
	tracepoint(fields, lvl_debug_process, 9);
	tracepoint(fields, lvl_debug_module, 10);
	tracepoint(fields, lvl_debug_unit, 11);
	tracepoint(fields, lvl_debug_function, 12);
	tracepoint(fields, lvl_debug_line, 13);
	tracepoint(fields, lvl_debug, 14);
	tracepoint(fields, lvl_default, 13);
	return EXIT_SUCCESS;
}
