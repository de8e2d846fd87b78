/*
 * lttng/ust-tracer.h - in LTTng-UST, the tracer's version and ABI
 * constants; with trax, the version macros of <lttng/ust-version.h>.
 */
#ifndef TRAX_LTTNG_UST_TRACER_H
#define TRAX_LTTNG_UST_TRACER_H

#include <lttng/ust-version.h>

#endif /* TRAX_LTTNG_UST_TRACER_H */
