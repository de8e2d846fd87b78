/* Instantiates the bench_prov probes (see tp.h). */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "tp.h"
