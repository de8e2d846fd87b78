/*
 * lttng/tracelog.h - LTTng-UST compatibility: programs written for LTTng-UST
 * include this file unchanged and get trax's implementation, <trax/tracelog.h>.
 */
#include <lttng/tracepoint.h>
#include <trax/tracelog.h>

/* LTTng-UST 2.13's names. */
#ifndef lttng_ust_tracelog
#define lttng_ust_tracelog  tracelog
#define lttng_ust_vtracelog vtracelog
#endif
