#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER ctxtest
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"
#if !defined(CTXTEST_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define CTXTEST_TP_H
#include <lttng/tracepoint.h>
TRACEPOINT_EVENT(ctxtest, ev, TP_ARGS(int, n), TP_FIELDS(ctf_integer(int, n, n)))
#endif
#include <lttng/tracepoint-event.h>
