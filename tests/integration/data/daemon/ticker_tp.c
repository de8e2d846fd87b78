/* ticker_tp.c - the ticker provider's probes. */
#define TRACEPOINT_CREATE_PROBES
#include "ticker_tp.h"
