/* The provider, as the lttng-ust(3) static linking method writes it. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE

#include "tp.h"
