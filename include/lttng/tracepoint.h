/*
 * lttng/tracepoint.h - LTTng-UST compatibility: programs written for LTTng-UST
 * include this file unchanged and get trax's implementation, <trax/tracepoint.h>.
 */
#include <trax/tracepoint.h>

/* lttng_ust_loaded: LTTng-UST's name for trax_ust_loaded (set by the library). */
#ifndef TRAX_LTTNG_COMPAT_LOADED
#define TRAX_LTTNG_COMPAT_LOADED
#ifdef __cplusplus
extern "C"
#else
extern
#endif
    int lttng_ust_loaded __attribute__((weak));
#endif
