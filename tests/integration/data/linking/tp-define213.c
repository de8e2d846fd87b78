/* tp-define.c with LTTng-UST 2.13's spellings of the switches. */
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_PROBE_DYNAMIC_LINKAGE

#include "tp.h"
