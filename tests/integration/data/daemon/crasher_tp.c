/* crasher_tp.c - the crasher provider's probes. */
#define TRACEPOINT_CREATE_PROBES
#include "crasher_tp.h"
