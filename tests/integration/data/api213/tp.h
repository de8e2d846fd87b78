/* A provider written with LTTng-UST 2.13's names (lttng-ust(3) of 2.13). */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER new_prov

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./tp.h"

#if !defined(NEW_PROV_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define NEW_PROV_TP_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_ENUM(new_prov, color,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("RED", 0)
		lttng_ust_field_enum_range("OTHER", 1, 9)))

LTTNG_UST_TRACEPOINT_EVENT(new_prov, ev,
	LTTNG_UST_TP_ARGS(int, n, const char *, s),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, n, n)
		lttng_ust_field_integer_hex(unsigned int, h, n * 16)
		lttng_ust_field_string(s, s)
		lttng_ust_field_sequence(unsigned char, bytes, s, unsigned int, 3)
		lttng_ust_field_enum(new_prov, color, int, color, n)))

LTTNG_UST_TRACEPOINT_LOGLEVEL(new_prov, ev, LTTNG_UST_TRACEPOINT_LOGLEVEL_NOTICE)

#endif

#include <lttng/tracepoint-event.h>
