/*
 * Tracepoint provider for tests/integration/fields.sh: every field macro of
 * lttng-ust(3), every log level, classes/instances, an event without
 * arguments and an event with the maximum of ten arguments. The same header
 * builds against trax (-I$TRAX_SRC/include) and against LTTng-UST
 * (/usr/include/lttng), for the differential part of the test. Sequence
 * length types are all unsigned (Babeltrace 2.0.4 rejects signed ones).
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER fields

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"

#if !defined(FIELDS_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define FIELDS_TP_H

#include <lttng/tracepoint.h>
#include <endian.h>
#include <stddef.h>
#include <stdint.h>

#include "values.h"

/* Plain integers: every width and signedness, with their extremes. */
TRACEPOINT_EVENT(fields, integers,
	TP_ARGS(const struct ints *, v),
	TP_FIELDS(
		ctf_integer(int8_t, i8_min, v->i8_min)
		ctf_integer(int8_t, i8_max, v->i8_max)
		ctf_integer(uint8_t, u8_max, v->u8_max)
		ctf_integer(int16_t, i16_min, v->i16_min)
		ctf_integer(int16_t, i16_max, v->i16_max)
		ctf_integer(uint16_t, u16_max, v->u16_max)
		ctf_integer(int32_t, i32_min, v->i32_min)
		ctf_integer(int32_t, i32_max, v->i32_max)
		ctf_integer(uint32_t, u32_max, v->u32_max)
		ctf_integer(int64_t, i64_min, v->i64_min)
		ctf_integer(int64_t, i64_max, v->i64_max)
		ctf_integer(uint64_t, u64_max, v->u64_max)
		ctf_integer(int, minus_one, -1)
		ctf_integer(long, long_minus_one, -1L)
		ctf_integer(unsigned int, zero, 0)
		ctf_integer(short, short_val, -1234)
		ctf_integer(unsigned char, uchar_val, 200)
		ctf_integer(size_t, size_val, (size_t)123456789)
		/* LTTng-UST 2.13: an argument used, nothing recorded. */
		ctf_unused(v)
		ctf_unused_nowrite(v)
	)
)

/*
 * Hexadecimal, network byte order, and not-recorded integers. As with
 * LTTng-UST, the expression of a _network field is a value already in
 * network byte order (htobe*()), recorded as is and declared big endian,
 * so readers print the host value.
 */
TRACEPOINT_EVENT(fields, integers_special,
	TP_ARGS(const struct ints *, v),
	TP_FIELDS(
		ctf_integer_hex(uint8_t, hex_u8, 0xAB)
		ctf_integer_hex(int8_t, hex_i8_m1, -1)
		ctf_integer_hex(uint16_t, hex_u16, 0xBEEF)
		ctf_integer_hex(int32_t, hex_i32, 0x12345678)
		ctf_integer_hex(uint64_t, hex_u64_max, v->u64_max)
		ctf_integer_hex(int64_t, hex_i64_min, v->i64_min)
		ctf_integer_nowrite(int, hidden_int, 999)
		ctf_integer_network(uint16_t, net_u16, htobe16(0x1234))
		ctf_integer_network(int16_t, net_i16, htobe16((uint16_t)-2))
		ctf_integer_network(uint32_t, net_u32, htobe32(0xDEADBEEF))
		ctf_integer_network(int32_t, net_i32_min, htobe32((uint32_t)v->i32_min))
		ctf_integer_network(int64_t, net_i64, htobe64((uint64_t)-1234567890123LL))
		ctf_integer_network(uint64_t, net_u64, htobe64(0x0011223344556677ULL))
		ctf_integer_network(uint8_t, net_u8, 7)
		ctf_integer_network_hex(uint16_t, nethex_u16, htobe16(0xCAFE))
		ctf_integer_network_hex(uint32_t, nethex_u32, htobe32(0x01020304))
		ctf_integer_network_hex(uint64_t, nethex_u64, htobe64(0x0102030405060708ULL))
		ctf_integer_network_hex(int32_t, nethex_i32, htobe32(0xFFFFFFFEU))
		ctf_integer(int, after_special, 42)
	)
)

/* Floating point numbers, float and double. */
TRACEPOINT_EVENT(fields, floats,
	TP_ARGS(float, f, double, d),
	TP_FIELDS(
		ctf_float(float, f_arg, f)
		ctf_float(float, f_neg, -0.25f)
		ctf_float(float, f_large, 3.0e38f)
		ctf_float(float, f_small, 1.5e-38f)
		ctf_float(float, f_zero, 0.0f)
		ctf_float_nowrite(float, f_hidden, 123.0f)
		ctf_float(double, d_arg, d)
		ctf_float(double, d_neg, -3.14)
		ctf_float(double, d_large, 1.0e300)
		ctf_float(double, d_small, -2.5e-300)
		ctf_float(double, d_third, 1.0 / 3.0)
		ctf_float_nowrite(double, d_hidden, 456.0)
		ctf_integer(int, after_floats, 7)
	)
)

/* Null-terminated strings. */
TRACEPOINT_EVENT(fields, strings,
	TP_ARGS(const char *, s, const char *, utf8),
	TP_FIELDS(
		ctf_string(s_arg, s)
		ctf_string(s_empty, "")
		ctf_string(s_utf8, utf8)
		ctf_string_nowrite(s_hidden, "not recorded")
		ctf_string(s_quote, "tab\there \"quoted\"")
		ctf_integer(uint8_t, after_strings, 5)
	)
)

/* A NULL string pointer: recorded as "(null)". */
TRACEPOINT_EVENT(fields, null_string,
	TP_ARGS(const char *, s),
	TP_FIELDS(
		ctf_string(s_null, s)
		ctf_integer(int, after_null, 1)
	)
)

/* Every array variant. */
TRACEPOINT_EVENT(fields, arrays,
	TP_ARGS(const struct arrs *, a),
	TP_FIELDS(
		ctf_array(int32_t, a_i32, a->i32, 4)
		ctf_array(uint64_t, a_u64, a->u64, 2)
		ctf_array(int8_t, a_i8, a->i8, 3)
		ctf_array_nowrite(int32_t, a_hidden, a->i32, 4)
		ctf_array_hex(uint8_t, a_hex_u8, a->u8, 4)
		ctf_array_hex(int16_t, a_hex_i16, a->i16, 2)
		ctf_array_nowrite_hex(uint8_t, a_hidden_hex, a->u8, 4)
		ctf_array_network(uint16_t, a_net_u16, a->n16, 3)
		ctf_array_network(int32_t, a_net_i32, a->n32i, 4)
		ctf_array_network_nowrite(uint16_t, a_hidden_net, a->n16, 3)
		ctf_array_network_hex(uint32_t, a_nethex_u32, a->n32, 2)
		ctf_array_network_hex(uint64_t, a_nethex_u64, a->n64, 2)
		ctf_array_network_nowrite_hex(uint32_t, a_hidden_nethex, a->n32, 2)
		ctf_array_text(char, a_text, a->text, 6)
		ctf_array_text(char, a_text_nul, a->text_nul, 6)
		ctf_array_text_nowrite(char, a_hidden_text, a->text, 6)
		ctf_integer(int, after_arrays, 3)
	)
)

/* Every sequence variant, with unsigned length types of every width. */
TRACEPOINT_EVENT(fields, sequences,
	TP_ARGS(const struct arrs *, a, unsigned int, n),
	TP_FIELDS(
		ctf_sequence(int32_t, s_i32, a->i32, uint8_t, n)
		ctf_sequence(uint64_t, s_u64, a->u64, size_t, 2)
		ctf_sequence_nowrite(int32_t, s_hidden, a->i32, uint8_t, n)
		ctf_sequence_hex(uint8_t, s_hex_u8, a->u8, uint16_t, 4)
		ctf_sequence_nowrite_hex(uint8_t, s_hidden_hex, a->u8, uint16_t, 4)
		ctf_sequence_network(uint16_t, s_net_u16, a->n16, uint32_t, 3)
		ctf_sequence_network_nowrite(uint16_t, s_hidden_net, a->n16, uint32_t, 3)
		ctf_sequence_network_hex(uint32_t, s_nethex_u32, a->n32, uint64_t, 2)
		ctf_sequence_network_nowrite_hex(uint32_t, s_hidden_nethex, a->n32, uint64_t, 2)
		ctf_sequence_text(char, s_text, a->text, unsigned int, 5)
		ctf_sequence_text_nowrite(char, s_hidden_text, a->text, unsigned int, 5)
		ctf_sequence(int32_t, s_empty, a->i32, uint32_t, 0)
		ctf_sequence_text(char, s_empty_text, a->text, uint8_t, 0)
		ctf_integer(int, after_sequences, 4)
	)
)

TRACEPOINT_ENUM(fields, signed_enum,
	TP_ENUM_VALUES(
		ctf_enum_value("ZERO", 0)
		ctf_enum_value("ONE", 1)
		ctf_enum_value("MINUS_ONE", -1)
		ctf_enum_range("NEGATIVES", -100, -10)
		ctf_enum_range("HUNDREDS", 100, 199)
		ctf_enum_value("BIG", 100000)
	)
)

TRACEPOINT_ENUM(fields, unsigned_enum,
	TP_ENUM_VALUES(
		ctf_enum_value("RED", 0)
		ctf_enum_value("GREEN", 1)
		ctf_enum_value("BLUE", 2)
		ctf_enum_range("HIGH", 200, 250)
	)
)

/*
 * Values written as their own type reads them, whatever the container: a
 * negative range in an unsigned enumeration, an unsigned value past INT64_MAX.
 */
TRACEPOINT_ENUM(fields, mixed_enum,
	TP_ENUM_VALUES(
		ctf_enum_range("NEGATIVE", -10, -5)
		ctf_enum_value("SEVEN", 7)
		ctf_enum_range("TOP", 0xFFFFFFFFFFFFFF00ULL, 0xFFFFFFFFFFFFFFFFULL)
	)
)

/* Enumerations: values, ranges, unmapped values, both signednesses. */
TRACEPOINT_EVENT(fields, enums,
	TP_ARGS(int, neg, unsigned int, u),
	TP_FIELDS(
		ctf_enum(fields, signed_enum, int, e_zero, 0)
		ctf_enum(fields, signed_enum, int, e_minus_one, -1)
		ctf_enum(fields, signed_enum, int, e_neg_range, neg)
		ctf_enum(fields, signed_enum, long, e_hundreds, 150)
		ctf_enum(fields, signed_enum, int32_t, e_big, 100000)
		ctf_enum(fields, signed_enum, int16_t, e_unmapped, -5)
		ctf_enum(fields, signed_enum, int8_t, e_range_end, -10)
		ctf_enum_nowrite(fields, signed_enum, int, e_hidden, 1)
		ctf_enum(fields, unsigned_enum, uint8_t, u_blue, 2)
		ctf_enum(fields, unsigned_enum, unsigned int, u_high, u)
		ctf_enum(fields, unsigned_enum, uint64_t, u_unmapped, 251)
		ctf_enum(fields, unsigned_enum, uint16_t, u_range_start, 200)
		ctf_enum_nowrite(fields, unsigned_enum, uint8_t, u_hidden, 0)
		ctf_enum(fields, mixed_enum, uint64_t, m_seven, 7)
		ctf_enum(fields, mixed_enum, uint64_t, m_top, 0xFFFFFFFFFFFFFFF0ULL)
		ctf_integer(int, after_enums, 6)
	)
)

/*
 * ctf_enum_auto(): an entry is the value after the previous entry's end, the
 * first one 0 (LTTng-UST 2.9 and later).
 */
TRACEPOINT_ENUM(fields, auto_enum,
	TP_ENUM_VALUES(
		ctf_enum_auto("FIRST")
		ctf_enum_value("ONE", 1)
		ctf_enum_auto("TWO")
		ctf_enum_range("TEN_TO_TWENTY", 10, 20)
		ctf_enum_auto("TWENTY_ONE")
		ctf_enum_value("MINUS_FIVE", -5)
		ctf_enum_auto("MINUS_FOUR")
		ctf_enum_auto("MINUS_THREE")
	)
)

TRACEPOINT_ENUM(fields, auto_unsigned,
	TP_ENUM_VALUES(
		ctf_enum_auto("A")
		ctf_enum_auto("B")
		ctf_enum_range("C", 5, 9)
		ctf_enum_auto("D")
	)
)

/* Auto-numbered enumerations, and a model.emf.uri in the metadata. */
TRACEPOINT_EVENT(fields, enums_auto,
	TP_ARGS(int, v),
	TP_FIELDS(
		ctf_enum(fields, auto_enum, int, a_first, 0)
		ctf_enum(fields, auto_enum, int, a_two, 2)
		ctf_enum(fields, auto_enum, int, a_twenty_one, v)
		ctf_enum(fields, auto_enum, int, a_range, 15)
		ctf_enum(fields, auto_enum, int, a_minus_four, -4)
		ctf_enum(fields, auto_enum, int, a_minus_three, -3)
		ctf_enum(fields, auto_enum, int, a_unmapped, 3)
		ctf_enum(fields, auto_unsigned, uint16_t, u_b, 1)
		ctf_enum(fields, auto_unsigned, uint16_t, u_d, 10)
	)
)
TRACEPOINT_MODEL_EMF_URI(fields, enums_auto, "http://example.com/model.emf#enums_auto")

/* A class with two instances. */
TRACEPOINT_EVENT_CLASS(fields, pair_class,
	TP_ARGS(int, x, const char *, label),
	TP_FIELDS(
		ctf_integer(int, x, x)
		ctf_integer(int, x_times_two, x * 2)
		ctf_string(label, label)
	)
)

TRACEPOINT_EVENT_INSTANCE(fields, pair_class, pair_first,
	TP_ARGS(int, x, const char *, label))

TRACEPOINT_EVENT_INSTANCE(fields, pair_class, pair_second,
	TP_ARGS(int, x, const char *, label))
TRACEPOINT_MODEL_EMF_URI(fields, pair_second, "file:///models/pair.emf")
TRACEPOINT_LOGLEVEL(fields, pair_second, TRACE_INFO)

/* No argument, no field. */
TRACEPOINT_EVENT(fields, empty,
	TP_ARGS(),
	TP_FIELDS()
)

/* The maximum number of arguments: ten. */
TRACEPOINT_EVENT(fields, ten_args,
	TP_ARGS(int8_t, a1, uint16_t, a2, int32_t, a3, uint64_t, a4,
		float, a5, double, a6, const char *, a7, char, a8,
		long, a9, const int *, a10),
	TP_FIELDS(
		ctf_integer(int8_t, a1, a1)
		ctf_integer(uint16_t, a2, a2)
		ctf_integer(int32_t, a3, a3)
		ctf_integer(uint64_t, a4, a4)
		ctf_float(float, a5, a5)
		ctf_float(double, a6, a6)
		ctf_string(a7, a7)
		ctf_integer(char, a8, a8)
		ctf_integer(long, a9, a9)
		ctf_array(int, a10, a10, 2)
	)
)

/* One event per log level, as instances of one class. */
TRACEPOINT_EVENT_CLASS(fields, level_class,
	TP_ARGS(int, level),
	TP_FIELDS(ctf_integer(int, level, level))
)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_emerg, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_emerg, TRACE_EMERG)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_alert, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_alert, TRACE_ALERT)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_crit, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_crit, TRACE_CRIT)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_err, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_err, TRACE_ERR)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_warning, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_warning, TRACE_WARNING)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_notice, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_notice, TRACE_NOTICE)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_info, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_info, TRACE_INFO)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_debug_system, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_debug_system, TRACE_DEBUG_SYSTEM)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_debug_program, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_debug_program, TRACE_DEBUG_PROGRAM)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_debug_process, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_debug_process, TRACE_DEBUG_PROCESS)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_debug_module, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_debug_module, TRACE_DEBUG_MODULE)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_debug_unit, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_debug_unit, TRACE_DEBUG_UNIT)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_debug_function, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_debug_function, TRACE_DEBUG_FUNCTION)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_debug_line, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_debug_line, TRACE_DEBUG_LINE)

TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_debug, TP_ARGS(int, level))
TRACEPOINT_LOGLEVEL(fields, lvl_debug, TRACE_DEBUG)

/* The same class, without TRACEPOINT_LOGLEVEL: TRACE_DEBUG_LINE (13). */
TRACEPOINT_EVENT_INSTANCE(fields, level_class, lvl_default, TP_ARGS(int, level))

#endif /* FIELDS_TP_H */

#include <lttng/tracepoint-event.h>
