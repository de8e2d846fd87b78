/*
 * lttng/tracef.h - LTTng-UST compatibility: programs written for LTTng-UST
 * include this file unchanged and get trax's implementation, <trax/tracef.h>.
 */
#include <lttng/tracepoint.h>
#include <trax/tracef.h>

/* LTTng-UST 2.13's names. */
#ifndef lttng_ust_tracef
#define lttng_ust_tracef  tracef
#define lttng_ust_vtracef vtracef
#endif
