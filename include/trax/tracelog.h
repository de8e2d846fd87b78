/*
 * trax/tracelog.h - tracef() with a log level and the source location.
 *
 *     tracelog(TRACE_WARNING, "retry %d of %d", i, n);
 *
 * records the event `lttng_ust_tracelog:TRACE_WARNING` (one event per log
 * level, named as in LTTng-UST) with the fields `file`, `line`, `func` and
 * `msg`, at that log level. Nothing is evaluated while the event is not
 * recorded.
 */
#ifndef TRAX_TRACELOG_H
#define TRAX_TRACELOG_H

#include <stdarg.h>
#include <trax/tracepoint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The call sites of tracelog(), one per log level, defined by libtrax-ust. */
extern struct trax_tracepoint trax_tracelog_tracepoints[TRACE_DEBUG + 1]
    __attribute__((visibility("default")));

void _trax_tracelog(int level, const char *file, int line, const char *func, const char *fmt, ...)
    __attribute__((format(printf, 5, 6))) __attribute__((visibility("default")));
void _trax_vtracelog(int level, const char *file, int line, const char *func, const char *fmt,
		     va_list ap) __attribute__((format(printf, 5, 0)))
__attribute__((visibility("default")));

#define tracelog(level, fmt, ...)                                                                  \
	do {                                                                                       \
		if (__builtin_expect((unsigned int)(level) <= TRACE_DEBUG &&                       \
					 __atomic_load_n(&trax_tracelog_tracepoints[level].state,  \
							 __ATOMIC_RELAXED),                        \
				     0))                                                           \
			_trax_tracelog(level, __FILE__, __LINE__, __func__, fmt, ##__VA_ARGS__);   \
	} while (0)

#define vtracelog(level, fmt, ap)                                                                  \
	do {                                                                                       \
		if (__builtin_expect((unsigned int)(level) <= TRACE_DEBUG &&                       \
					 __atomic_load_n(&trax_tracelog_tracepoints[level].state,  \
							 __ATOMIC_RELAXED),                        \
				     0))                                                           \
			_trax_vtracelog(level, __FILE__, __LINE__, __func__, fmt, ap);             \
	} while (0)

#ifdef __cplusplus
}
#endif

#endif /* TRAX_TRACELOG_H */
