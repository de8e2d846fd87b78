/* crasher_tp.h - the provider of crasher.c (daemon_faults.sh). */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER crasher

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./crasher_tp.h"

#if !defined(CRASHER_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define CRASHER_TP_H

#include <lttng/tracepoint.h>

/*
 * The array is copied after the record is reserved: a bad pointer makes
 * the program fault in the middle of the record, which stays reserved
 * and never committed.
 */
TRACEPOINT_EVENT(crasher, blob,
		 TP_ARGS(unsigned long, seq_arg, const char *, data),
		 TP_FIELDS(ctf_integer(unsigned long, seq, seq_arg)
			   ctf_array_text(char, data, data, 64)))

#endif

#include <lttng/tracepoint-event.h>
