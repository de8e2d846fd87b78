/*
 * A provider whose ip context is an argument of its events, named by
 * LTTNG_UST_TP_IP_PARAM in the probes' file (ipapp.c), as LTTng-UST's own
 * dlopen() wrappers do for their caller's address: api213.sh compares the
 * ip trax records with LTTng-UST 2.13's.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER ip_prov

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./ipprov.h"

#if !defined(IP_PROV_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define IP_PROV_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(ip_prov, call,
	LTTNG_UST_TP_ARGS(void *, ip, int, n),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_unused(ip)
		lttng_ust_field_integer(int, n, n)
	)
)

#endif /* IP_PROV_H */

#include <lttng/tracepoint-event.h>
