/* tp.h - provider of the statedump test: one event, emitted from the program
 * and from its shared library. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER sdtest
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"

#if !defined(SDTEST_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define SDTEST_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(sdtest, where,
	TP_ARGS(const char *, from, int, n),
	TP_FIELDS(ctf_string(from, from) ctf_integer(int, n, n)))

#endif

#include <lttng/tracepoint-event.h>
