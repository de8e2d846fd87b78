/*
 * opts_other_tp.h - a second provider for daemon_options.sh, whose name
 * begins like the first one's: 'opts:*' must not match it, -a must.
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER opts_other

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./opts_other_tp.h"

#if !defined(OPTS_OTHER_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define OPTS_OTHER_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(opts_other, event,
		 TP_ARGS(int, run_arg, int, thread_arg, unsigned long, seq_arg),
		 TP_FIELDS(ctf_integer(int, run, run_arg)
			   ctf_integer(int, thread, thread_arg)
			   ctf_integer(unsigned long, seq, seq_arg)))

#endif

#include <lttng/tracepoint-event.h>
