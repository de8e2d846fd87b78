#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER clk
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"
#if !defined(_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define _TP_H
#include <lttng/tracepoint.h>
#include <stdint.h>
TRACEPOINT_EVENT(clk, ev, TP_ARGS(uint64_t, before), TP_FIELDS(ctf_integer(uint64_t, before, before)))
#endif
#include <lttng/tracepoint-event.h>
