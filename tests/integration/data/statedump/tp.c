/* tp.c - the probes of the sdtest provider (linked into the program). */
#define TRACEPOINT_CREATE_PROBES
#include "tp.h"
