#define TRACEPOINT_CREATE_PROBES
#include "tp.h"
