/*
 * Provider of headers.sh. It includes <lttng/tracepoint.h> and nothing
 * else: the programs that include it use the system headers LTTng-UST's
 * header brings with it.
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER hdrprov

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"

#if !defined(HDRPROV_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define HDRPROV_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(hdrprov, ev,
	TP_ARGS(int, n),
	TP_FIELDS(
		ctf_integer(int, n, n)
		/* Names from the headers the probes' side brings (errno.h,
		 * pthread.h, limits.h, float.h, byteswap.h, time.h). */
		ctf_integer(int, err, errno)
		ctf_integer(unsigned long, self, (unsigned long)pthread_self())
		ctf_integer(long, lmax, LONG_MAX)
		ctf_float(double, eps, DBL_EPSILON)
		ctf_integer(uint32_t, swapped, bswap_32(n))
		ctf_integer(int, clk, CLOCK_MONOTONIC)
	)
)

#endif /* HDRPROV_TP_H */

#include <lttng/tracepoint-event.h>
