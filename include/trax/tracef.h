/*
 * trax/tracef.h - printf-like tracing without defining a provider.
 *
 *     tracef("x = %d", x);
 *
 * records the formatted message as the event `lttng_ust_tracef:event` (the
 * name LTTng-UST uses, so analyses keyed on it keep working), with one text
 * field `msg`. The format and arguments are not evaluated while the event is
 * not recorded.
 */
#ifndef TRAX_TRACEF_H
#define TRAX_TRACEF_H

#include <stdarg.h>
#include <trax/tracepoint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The call site of every tracef() in the process, defined by libtrax-ust. */
extern struct trax_tracepoint trax_tracef_tracepoint __attribute__((visibility("default")));

void _trax_tracef(const char *fmt, ...) __attribute__((format(printf, 1, 2)))
__attribute__((visibility("default")));
void _trax_vtracef(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)))
__attribute__((visibility("default")));

#define tracef(fmt, ...)                                                                           \
	do {                                                                                       \
		if (__builtin_expect(                                                              \
			__atomic_load_n(&trax_tracef_tracepoint.state, __ATOMIC_RELAXED), 0))      \
			_trax_tracef(fmt, ##__VA_ARGS__);                                          \
	} while (0)

#define vtracef(fmt, ap)                                                                           \
	do {                                                                                       \
		if (__builtin_expect(                                                              \
			__atomic_load_n(&trax_tracef_tracepoint.state, __ATOMIC_RELAXED), 0))      \
			_trax_vtracef(fmt, ap);                                                    \
	} while (0)

#ifdef __cplusplus
}
#endif

#endif /* TRAX_TRACEF_H */
