/*
 * lttng/ust-version.h - the LTTng-UST API version trax implements, for
 * programs that test it (#if LTTNG_UST_MINOR_VERSION >= 13 ...): 2.13,
 * whose names (LTTNG_UST_TRACEPOINT_*, lttng_ust_field_*, ...) trax's
 * headers accept, besides 2.10's. Included by <lttng/tracepoint.h>, as
 * LTTng-UST's own is.
 */
#ifndef TRAX_LTTNG_UST_VERSION_H
#define TRAX_LTTNG_UST_VERSION_H

#define LTTNG_UST_MAJOR_VERSION	     2
#define LTTNG_UST_MINOR_VERSION	     13
#define LTTNG_UST_PATCHLEVEL_VERSION 0
#define LTTNG_UST_VERSION	     "2.13.0"

#endif /* TRAX_LTTNG_UST_VERSION_H */
