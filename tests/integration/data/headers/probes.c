/* The probes of hdrprov: only the provider header is included. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "tp.h"
#include "uses.h"
