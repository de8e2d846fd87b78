/*
 * Tracepoint provider used by the trax vs LTTng-UST benchmark (bench/loop.c).
 *
 * Written against the LTTng-UST provider API only, so the very same file
 * compiles against LTTng-UST's headers and against trax's (include/lttng/).
 *
 *   bench_prov:ev           the event the benchmark records
 *   bench_prov:disabled_ev  same payload, never enabled: measures the cost of
 *                           a tracepoint that is compiled in but off
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER bench_prov

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"

#if !defined(BENCH_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

TRACEPOINT_EVENT(bench_prov, ev, TP_ARGS(uint64_t, seq_arg, int, thread_arg),
		 TP_FIELDS(ctf_integer(uint64_t, seq, seq_arg)
			       ctf_integer(int, thread, thread_arg)))

TRACEPOINT_EVENT(bench_prov, disabled_ev, TP_ARGS(uint64_t, seq_arg, int, thread_arg),
		 TP_FIELDS(ctf_integer(uint64_t, seq, seq_arg)
			       ctf_integer(int, thread, thread_arg)))

#endif /* BENCH_TP_H */

#include <lttng/tracepoint-event.h>
