#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER thr
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"
#if !defined(_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define _TP_H
#include <lttng/tracepoint.h>
#include <stdint.h>
/* One numbered event: which thread, and its sequence number in that thread. */
TRACEPOINT_EVENT(thr, ev, TP_ARGS(uint32_t, idx, uint64_t, seq),
		 TP_FIELDS(ctf_integer(uint32_t, idx, idx) ctf_integer(uint64_t, seq, seq)))
#endif
#include <lttng/tracepoint-event.h>
