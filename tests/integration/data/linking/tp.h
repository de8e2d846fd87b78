/*
 * Provider "linkprov" of the linking test (lttng-ust(3) header layout).
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER linkprov

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"

#if !defined(LINKPROV_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define LINKPROV_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(
	linkprov,
	hello,
	TP_ARGS(int, n, const char *, s),
	TP_FIELDS(
		ctf_integer(int, n, n)
		ctf_string(s, s)
	)
)

TRACEPOINT_EVENT(
	linkprov,
	counted,
	TP_ARGS(int, v),
	TP_FIELDS(
		ctf_integer(int, v, v)
	)
)

#endif /* LINKPROV_TP_H */

#include <lttng/tracepoint-event.h>
