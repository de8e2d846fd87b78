/*
 * lttng/ust-tracer.h - in LTTng-UST, the tracer's version and ABI
 * constants; with trax, the version macros of <lttng/ust-version.h>.
 */
#ifndef TRAX_LTTNG_UST_TRACER_H
#define TRAX_LTTNG_UST_TRACER_H

/* What LTTng-UST's brings with it (its ust-utils.h and ust-arch.h). */
#include <assert.h>
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>

#include <lttng/ust-version.h>

#endif /* TRAX_LTTNG_UST_TRACER_H */
