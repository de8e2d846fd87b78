/*
 * tracef-provider.h - the providers behind tracef() and tracelog(), with
 * LTTng-UST's event names and fields so that analyses keyed on them work.
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER lttng_ust_tracef
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "ust/tracef-provider.h"

#if !defined(TRAX_TRACEF_PROVIDER_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define TRAX_TRACEF_PROVIDER_H

#include <trax/tracepoint.h>

TRACEPOINT_EVENT(lttng_ust_tracef, event, TP_ARGS(const char *, msg, unsigned int, len),
		 TP_FIELDS(ctf_sequence_text(char, msg, msg, unsigned int, len)))
TRACEPOINT_LOGLEVEL(lttng_ust_tracef, event, TRACE_DEBUG)

#endif

#include <trax/tracepoint-event.h>
