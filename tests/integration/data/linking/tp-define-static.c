/* The tracepoints defined in the application, the provider's probes
 * elsewhere (an archive, a shared object linked with the program): the
 * lttng-ust(3) layout with TRACEPOINT_DEFINE apart from TRACEPOINT_CREATE_PROBES. */
#define TRACEPOINT_DEFINE

#include "tp.h"
