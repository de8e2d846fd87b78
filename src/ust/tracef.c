/*
 * tracef.c - tracef() and tracelog(): format the message, then hand it to
 * the probe of lttng_ust_tracef:event or lttng_ust_tracelog:LEVEL. The call
 * sites' tracepoints live here (one for tracef, one per level for tracelog)
 * and are registered like any module's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ust/ust.h"

#define TRACEPOINT_CREATE_PROBES
#include "ust/tracef-provider.h"
#include "ust/tracelog-provider.h"

#include "lttng/tracef.h"
#include "trax/tracelog.h"

TRAX_EXPORT struct trax_tracepoint trax_tracef_tracepoint = {"lttng_ust_tracef:event", 0, 0, 0, 0};

#define LEVEL_TP(level) [level] = {"lttng_ust_tracelog:" #level, 0, 0, 0, 0},
TRAX_EXPORT struct trax_tracepoint trax_tracelog_tracepoints[TRACE_DEBUG + 1] = {
    LEVEL_TP(TRACE_EMERG) LEVEL_TP(TRACE_ALERT) LEVEL_TP(TRACE_CRIT) LEVEL_TP(TRACE_ERR)
	LEVEL_TP(TRACE_WARNING) LEVEL_TP(TRACE_NOTICE) LEVEL_TP(TRACE_INFO)
	    LEVEL_TP(TRACE_DEBUG_SYSTEM) LEVEL_TP(TRACE_DEBUG_PROGRAM) LEVEL_TP(TRACE_DEBUG_PROCESS)
		LEVEL_TP(TRACE_DEBUG_MODULE) LEVEL_TP(TRACE_DEBUG_UNIT)
		    LEVEL_TP(TRACE_DEBUG_FUNCTION) LEVEL_TP(TRACE_DEBUG_LINE)
			LEVEL_TP(TRACE_DEBUG)};

static struct trax_tracepoint *tracef_tps[1 + TRACE_DEBUG + 1];

void trax_tracef_register(void)
{
	int i;

	/*
	 * The providers' own constructors run after the library's start-up;
	 * registered here, their events are among those the daemon hears of
	 * first (registering twice is harmless).
	 */
	trax_provider_register(&__trax_provider_lttng_ust_tracef);
	trax_provider_register(&__trax_provider_lttng_ust_tracelog);

	tracef_tps[0] = &trax_tracef_tracepoint;
	for (i = 0; i <= TRACE_DEBUG; i++)
		tracef_tps[1 + i] = &trax_tracelog_tracepoints[i];
	trax_tracepoints_register(tracef_tps, sizeof(tracef_tps) / sizeof(tracef_tps[0]));
}

/* Formats into buf, or into a heap block when the message is longer. */
static char *format(char *buf, size_t size, unsigned int *len, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(buf, size, fmt, copy);
	va_end(copy);
	if (n < 0)
		return NULL;
	if ((size_t)n >= size) {
		char *big = malloc((size_t)n + 1);

		if (!big)
			return NULL;
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		buf = big;
	}
	*len = (unsigned int)n;
	return buf;
}

TRAX_EXPORT void _trax_vtracef(const char *fmt, va_list ap)
{
	struct trax_tracepoint *tp = &trax_tracef_tracepoint;
	void (*probe)(void *, const char *, unsigned int);
	char small[512], *msg;
	unsigned int len;

	*(void **)&probe = __atomic_load_n(&tp->probe, __ATOMIC_ACQUIRE);
	if (!probe)
		return;
	msg = format(small, sizeof(small), &len, fmt, ap);
	if (!msg)
		return;
	probe(__atomic_load_n(&tp->data, __ATOMIC_ACQUIRE), msg, len);
	if (msg != small)
		free(msg);
}

TRAX_EXPORT void _trax_tracef(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_trax_vtracef(fmt, ap);
	va_end(ap);
}

/* LTTng-UST's entry points (<lttng/tracef.h>), called by some programs. */
TRAX_EXPORT void _lttng_ust_vtracef(const char *fmt, va_list ap)
{
	_trax_vtracef(fmt, ap);
}

TRAX_EXPORT void _lttng_ust_tracef(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_trax_vtracef(fmt, ap);
	va_end(ap);
}

TRAX_EXPORT void lttng_ust__vtracef(const char *fmt, va_list ap)
{
	_trax_vtracef(fmt, ap);
}

TRAX_EXPORT void lttng_ust__tracef(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_trax_vtracef(fmt, ap);
	va_end(ap);
}

TRAX_EXPORT void _trax_vtracelog(int level, const char *file, int line, const char *func,
				 const char *fmt, va_list ap)
{
	struct trax_tracepoint *tp;
	void (*probe)(void *, const char *, int, const char *, const char *, unsigned int);
	char small[512], *msg;
	unsigned int len;

	if (level < 0 || level > TRACE_DEBUG)
		return;
	tp = &trax_tracelog_tracepoints[level];
	*(void **)&probe = __atomic_load_n(&tp->probe, __ATOMIC_ACQUIRE);
	if (!probe)
		return;
	msg = format(small, sizeof(small), &len, fmt, ap);
	if (!msg)
		return;
	probe(__atomic_load_n(&tp->data, __ATOMIC_ACQUIRE), file, line, func, msg, len);
	if (msg != small)
		free(msg);
}

TRAX_EXPORT void _trax_tracelog(int level, const char *file, int line, const char *func,
				const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_trax_vtracelog(level, file, line, func, fmt, ap);
	va_end(ap);
}
