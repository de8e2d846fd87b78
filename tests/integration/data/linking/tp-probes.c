/* The provider without TRACEPOINT_DEFINE (probes only), for a shared object
 * whose tracepoints the application defines in tp-define.c. */
#define TRACEPOINT_CREATE_PROBES

#include "tp.h"
