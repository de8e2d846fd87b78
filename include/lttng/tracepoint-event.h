/*
 * lttng/tracepoint-event.h - LTTng-UST compatibility: programs written for LTTng-UST
 * include this file unchanged and get trax's implementation, <trax/tracepoint-event.h>.
 */
#include <trax/tracepoint-event.h>
