#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER robust
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"
#if !defined(ROBUST_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define ROBUST_TP_H
#include <lttng/tracepoint.h>
TRACEPOINT_EVENT(robust, ev, TP_ARGS(int, n), TP_FIELDS(ctf_integer(int, n, n)))
#endif
#include <lttng/tracepoint-event.h>
