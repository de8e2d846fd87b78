/*
 * tracef()/vtracef() and tracelog()/vtracelog(). Built against trax and, for
 * comparison, against LTTng-UST 2.13, whose legacy tracelog() cannot take the
 * TRACE_xxx names (its ## pastes the unexpanded macro name) and which has no
 * vtracef()/vtracelog() aliases: the TLOG/VTLOG/VTRACEF shims pick the 2.13
 * spellings there. Every call stays on one line so that __LINE__ is the same.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <lttng/tracef.h>
#include <lttng/tracelog.h>

#ifdef lttng_ust_tracelog
#define TLOG(lvl, ...) lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_##lvl, __VA_ARGS__)
#define VTLOG(lvl, fmt, ap) lttng_ust_vtracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_##lvl, fmt, ap)
#define VTRACEF(fmt, ap) lttng_ust_vtracef(fmt, ap)
#else
#define TLOG(lvl, ...) tracelog(TRACE_##lvl, __VA_ARGS__)
#define VTLOG(lvl, fmt, ap) vtracelog(TRACE_##lvl, fmt, ap)
#define VTRACEF(fmt, ap) vtracef(fmt, ap)
#endif

static void my_vtracef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void my_vtracelog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void my_vtracef(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	VTRACEF(fmt, ap);
	va_end(ap);
}

static void my_vtracelog(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	VTLOG(NOTICE, fmt, ap);
	va_end(ap);
}

/* n characters 'a'..'z' repeated, NUL-terminated. */
static char *pattern(char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = (char)('a' + i % 26);
	buf[n] = '\0';
	return buf;
}

int main(void)
{
	static char big[5001];

	tracef("hello %d %s", 42, "world");
	my_vtracef("v %s=%.3f [%5d]", "pi", 3.14159, 17);
	tracef("%s", "");
	tracef("long:%s:end", pattern(big, 700));
	tracef("%s", pattern(big, 5000));
	TLOG(WARNING, "warn %d of %d", 7, 9);
	TLOG(ERR, "error: %s", "disk full");
	TLOG(INFO, "info %x", 255U);
	TLOG(DEBUG, "debug %c", 'z');
	TLOG(EMERG, "emerg");
	TLOG(DEBUG_LINE, "line %ld", -5L);
	my_vtracelog("vlog %s %d", "notice", 3);
	TLOG(CRIT, "long:%s", pattern(big, 1000));
	puts("done");
	return 0;
}
