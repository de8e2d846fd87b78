/* Provider for the fault and signal tests (faults.sh, signals.sh). */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER faults

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"

#if !defined(FAULTS_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define FAULTS_TP_H

#include <lttng/tracepoint.h>

/* A numbered event. */
TRACEPOINT_EVENT(faults, num,
	TP_ARGS(int, i),
	TP_FIELDS(ctf_integer(int, i, i)))

/* A string that may be NULL, and a number. */
TRACEPOINT_EVENT(faults, str,
	TP_ARGS(const char *, s, int, i),
	TP_FIELDS(
		ctf_string(s, s)
		ctf_integer(int, i, i)))

/* A sequence of ints with a signed length. */
TRACEPOINT_EVENT(faults, seq,
	TP_ARGS(const int *, p, int, len, int, i),
	TP_FIELDS(
		ctf_integer(int, i, i)
		ctf_sequence(int, v, p, int, len)))

/* A sequence of ints with an unsigned (size_t) length. */
TRACEPOINT_EVENT(faults, useq,
	TP_ARGS(const int *, p, size_t, len, int, i),
	TP_FIELDS(
		ctf_integer(int, i, i)
		ctf_sequence(int, v, p, size_t, len)))

/* A bulky event, to fill buffers and disks. */
TRACEPOINT_EVENT(faults, blob,
	TP_ARGS(int, i, const char *, text),
	TP_FIELDS(
		ctf_integer(int, i, i)
		ctf_string(text, text)))

#endif /* FAULTS_TP_H */

#include <lttng/tracepoint-event.h>
