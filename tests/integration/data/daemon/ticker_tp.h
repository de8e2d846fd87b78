/* ticker_tp.h - the provider of the daemon tests' programs. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER ticker

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./ticker_tp.h"

#if !defined(TICKER_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define TICKER_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(ticker, tick,
		 TP_ARGS(unsigned long, seq_arg, int, prog_arg),
		 TP_FIELDS(ctf_integer(unsigned long, seq, seq_arg)
			   ctf_integer(int, prog, prog_arg)))

TRACEPOINT_EVENT(ticker, other,
		 TP_ARGS(unsigned long, seq_arg),
		 TP_FIELDS(ctf_integer(unsigned long, seq, seq_arg)))

#endif

#include <lttng/tracepoint-event.h>
