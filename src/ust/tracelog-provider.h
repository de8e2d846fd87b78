/* tracelog-provider.h - one event per log level: lttng_ust_tracelog:TRACE_ERR, ... */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER lttng_ust_tracelog
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "ust/tracelog-provider.h"

#if !defined(TRAX_TRACELOG_PROVIDER_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define TRAX_TRACELOG_PROVIDER_H

#include <trax/tracepoint.h>

TRACEPOINT_EVENT_CLASS(lttng_ust_tracelog, tlclass,
		       TP_ARGS(const char *, file, int, line, const char *, func, const char *, msg,
			       unsigned int, len),
		       TP_FIELDS(ctf_integer(int, line, line) ctf_string(file, file)
				     ctf_string(func, func)
					 ctf_sequence_text(char, msg, msg, unsigned int, len)))

#define TRAX_TRACELOG_LEVEL(level)                                                                 \
	TRACEPOINT_EVENT_INSTANCE(lttng_ust_tracelog, tlclass, level,                              \
				  TP_ARGS(const char *, file, int, line, const char *, func,       \
					  const char *, msg, unsigned int, len))                   \
	TRACEPOINT_LOGLEVEL(lttng_ust_tracelog, level, level)

TRAX_TRACELOG_LEVEL(TRACE_EMERG)
TRAX_TRACELOG_LEVEL(TRACE_ALERT)
TRAX_TRACELOG_LEVEL(TRACE_CRIT)
TRAX_TRACELOG_LEVEL(TRACE_ERR)
TRAX_TRACELOG_LEVEL(TRACE_WARNING)
TRAX_TRACELOG_LEVEL(TRACE_NOTICE)
TRAX_TRACELOG_LEVEL(TRACE_INFO)
TRAX_TRACELOG_LEVEL(TRACE_DEBUG_SYSTEM)
TRAX_TRACELOG_LEVEL(TRACE_DEBUG_PROGRAM)
TRAX_TRACELOG_LEVEL(TRACE_DEBUG_PROCESS)
TRAX_TRACELOG_LEVEL(TRACE_DEBUG_MODULE)
TRAX_TRACELOG_LEVEL(TRACE_DEBUG_UNIT)
TRAX_TRACELOG_LEVEL(TRACE_DEBUG_FUNCTION)
TRAX_TRACELOG_LEVEL(TRACE_DEBUG_LINE)
TRAX_TRACELOG_LEVEL(TRACE_DEBUG)

#undef TRAX_TRACELOG_LEVEL
#endif

#include <trax/tracepoint-event.h>
