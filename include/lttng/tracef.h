/*
 * lttng/tracef.h - LTTng-UST compatibility: programs written for LTTng-UST
 * include this file unchanged and get trax's implementation, <trax/tracef.h>.
 */
#include <trax/tracef.h>
