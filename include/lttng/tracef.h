/*
 * lttng/tracef.h - LTTng-UST compatibility: programs written for LTTng-UST
 * include this file unchanged and get trax's implementation, <trax/tracef.h>.
 */
#include <lttng/tracepoint.h>
#include <trax/tracef.h>

/* LTTng-UST 2.13's names. */
#ifndef lttng_ust_tracef
#define lttng_ust_tracef  tracef
#define lttng_ust_vtracef vtracef
#endif

/*
 * The functions LTTng-UST's tracef()/vtracef() call (2.10: _lttng_ust_tracef,
 * 2.13: lttng_ust__tracef), which some programs call directly: they record
 * the message when lttng_ust_tracef:event is enabled.
 */
#ifndef TRAX_LTTNG_TRACEF_FUNCTIONS
#define TRAX_LTTNG_TRACEF_FUNCTIONS
#ifdef __cplusplus
extern "C" {
#endif
void _lttng_ust_tracef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void _lttng_ust_vtracef(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
void lttng_ust__tracef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lttng_ust__vtracef(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
#ifdef __cplusplus
}
#endif
#endif
