#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER spn
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"
#if !defined(_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define _TP_H
#include <lttng/tracepoint.h>
#include <stdint.h>
/* A span of work begins and ends; id names it (unique in the run). */
TRACEPOINT_EVENT(spn, enter, TP_ARGS(uint32_t, id), TP_FIELDS(ctf_integer(uint32_t, id, id)))
TRACEPOINT_EVENT(spn, exit, TP_ARGS(uint32_t, id), TP_FIELDS(ctf_integer(uint32_t, id, id)))
#endif
#include <lttng/tracepoint-event.h>
