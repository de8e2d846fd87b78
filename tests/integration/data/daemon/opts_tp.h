/*
 * opts_tp.h - the provider of daemon_options.sh: one event per log level
 * that the tests of --loglevel, --loglevel-only and --exclude tell apart
 * (two at TRACE_INFO, one without TRACEPOINT_LOGLEVEL, which LTTng-UST
 * counts as TRACE_DEBUG_LINE), all with the same (run, thread, seq).
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER opts

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./opts_tp.h"

#if !defined(OPTS_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define OPTS_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT_CLASS(opts, cls,
		       TP_ARGS(int, run_arg, int, thread_arg, unsigned long, seq_arg),
		       TP_FIELDS(ctf_integer(int, run, run_arg)
				 ctf_integer(int, thread, thread_arg)
				 ctf_integer(unsigned long, seq, seq_arg)))

TRACEPOINT_EVENT_INSTANCE(opts, cls, emerg,
			  TP_ARGS(int, run_arg, int, thread_arg, unsigned long, seq_arg))
TRACEPOINT_LOGLEVEL(opts, emerg, TRACE_EMERG)

TRACEPOINT_EVENT_INSTANCE(opts, cls, crit,
			  TP_ARGS(int, run_arg, int, thread_arg, unsigned long, seq_arg))
TRACEPOINT_LOGLEVEL(opts, crit, TRACE_CRIT)

TRACEPOINT_EVENT_INSTANCE(opts, cls, warning,
			  TP_ARGS(int, run_arg, int, thread_arg, unsigned long, seq_arg))
TRACEPOINT_LOGLEVEL(opts, warning, TRACE_WARNING)

TRACEPOINT_EVENT_INSTANCE(opts, cls, notice,
			  TP_ARGS(int, run_arg, int, thread_arg, unsigned long, seq_arg))
TRACEPOINT_LOGLEVEL(opts, notice, TRACE_NOTICE)

TRACEPOINT_EVENT_INSTANCE(opts, cls, info,
			  TP_ARGS(int, run_arg, int, thread_arg, unsigned long, seq_arg))
TRACEPOINT_LOGLEVEL(opts, info, TRACE_INFO)

TRACEPOINT_EVENT_INSTANCE(opts, cls, noisy,
			  TP_ARGS(int, run_arg, int, thread_arg, unsigned long, seq_arg))
TRACEPOINT_LOGLEVEL(opts, noisy, TRACE_INFO)

TRACEPOINT_EVENT_INSTANCE(opts, cls, debug,
			  TP_ARGS(int, run_arg, int, thread_arg, unsigned long, seq_arg))
TRACEPOINT_LOGLEVEL(opts, debug, TRACE_DEBUG)

/* no TRACEPOINT_LOGLEVEL; more kinds of fields for `trax list -u -f` */
TRACEPOINT_EVENT(opts, nolevel,
		 TP_ARGS(int, run_arg, int, thread_arg, unsigned long, seq_arg,
			 const int *, pair_arg),
		 TP_FIELDS(ctf_integer(int, run, run_arg)
			   ctf_integer(int, thread, thread_arg)
			   ctf_integer(unsigned long, seq, seq_arg)
			   ctf_integer_hex(unsigned int, mask, 0xbeef)
			   ctf_float(double, ratio, seq_arg / 2.0)
			   ctf_string(text, "no level")
			   ctf_array(int, pair, pair_arg, 2)
			   ctf_sequence(int, some, pair_arg, size_t, 1)
			   ctf_array_text(char, word, "abcd", 4)
			   ctf_sequence_text(char, letters, "xyz", unsigned int, 3)))

#endif

#include <lttng/tracepoint-event.h>
