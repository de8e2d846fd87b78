#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER plug
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"
#if !defined(PLUG_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define PLUG_TP_H
#include <lttng/tracepoint.h>
TRACEPOINT_EVENT(plug, ev, TP_ARGS(int, n), TP_FIELDS(ctf_integer(int, n, n)))
#endif
#include <lttng/tracepoint-event.h>
