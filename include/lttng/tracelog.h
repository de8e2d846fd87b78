/*
 * lttng/tracelog.h - LTTng-UST compatibility: programs written for LTTng-UST
 * include this file unchanged and get trax's implementation, <trax/tracelog.h>.
 */
#include <trax/tracelog.h>
