#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER spn
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"
#if !defined(_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define _TP_H
#include <lttng/tracepoint.h>
#include <stdint.h>
/* A request (outer span) made of steps (inner spans), and a queue length. */
TRACEPOINT_EVENT(spn, request_begin, TP_ARGS(uint32_t, id), TP_FIELDS(ctf_integer(uint32_t, id, id)))
TRACEPOINT_EVENT(spn, request_end, TP_ARGS(uint32_t, id), TP_FIELDS(ctf_integer(uint32_t, id, id)))
TRACEPOINT_EVENT(spn, step_enter, TP_ARGS(uint32_t, step), TP_FIELDS(ctf_integer(uint32_t, step, step)))
TRACEPOINT_EVENT(spn, step_exit,
		 TP_ARGS(uint32_t, step, int64_t, result, const char *, what),
		 TP_FIELDS(ctf_integer(uint32_t, step, step) ctf_integer(int64_t, result, result)
			       ctf_string(what, what)))
TRACEPOINT_EVENT(spn, queue, TP_ARGS(int32_t, len, double, load),
		 TP_FIELDS(ctf_integer(int32_t, len, len) ctf_float(double, load, load)))
#endif
#include <lttng/tracepoint-event.h>
