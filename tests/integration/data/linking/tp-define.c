/* lttng-ust(3), dynamic loading: the application defines the tracepoints and
 * finds the provider (and the tracer) at run time. */
#define TRACEPOINT_DEFINE
#define TRACEPOINT_PROBE_DYNAMIC_LINKAGE

#include "tp.h"
