/*
 * Second provider "otherprov" of the linking test.
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER otherprov

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp2.h"

#if !defined(OTHERPROV_TP2_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define OTHERPROV_TP2_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(
	otherprov,
	ping,
	TP_ARGS(unsigned long, id, double, ratio),
	TP_FIELDS(
		ctf_integer_hex(unsigned long, id, id)
		ctf_float(double, ratio, ratio)
	)
)

#endif /* OTHERPROV_TP2_H */

#include <lttng/tracepoint-event.h>
