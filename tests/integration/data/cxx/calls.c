/*
 * The call-site macros of lttng-ust(3) on the provider of fields.sh:
 * tracepoint(), tracepoint_enabled() and do_tracepoint(), their LTTng-UST
 * 2.13 names, tracef(), vtracef(), tracelog(), vtracelog() (and 2.13's
 * lttng_ust_tracef/lttng_ust_tracelog), and lttng_ust_loaded. Built as C
 * and as C++ by cxx.sh, which compares the two traces.
 */
#include "tp.h"
#include <lttng/tracef.h>
#include <lttng/tracelog.h>

int lttng_ust_loaded __attribute__((weak));

static void my_vtracef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void my_vtracelog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void my_vtracef(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtracef(fmt, ap);
	va_end(ap);
}

static void my_vtracelog(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtracelog(TRACE_NOTICE, fmt, ap);
	va_end(ap);
}

int main(void)
{
	tracepoint(fields, pair_first, 1, "tracepoint");
	if (tracepoint_enabled(fields, pair_first))
		do_tracepoint(fields, pair_first, 2, "do_tracepoint");
	lttng_ust_tracepoint(fields, pair_second, 3, "lttng_ust_tracepoint");
	if (lttng_ust_tracepoint_enabled(fields, pair_second))
		lttng_ust_do_tracepoint(fields, pair_second, 4, "lttng_ust_do_tracepoint");
	tracepoint(fields, enums_auto, 21);
	tracef("tracef %d", 5);
	my_vtracef("vtracef %s", "six");
	tracelog(TRACE_WARNING, "tracelog %d", 7);
	my_vtracelog("vtracelog %d", 8);
	lttng_ust_tracef("lttng_ust_tracef %d", 9);
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_ERR, "lttng_ust_tracelog %d", 10);
	printf("lttng_ust_loaded=%d\n", lttng_ust_loaded);
	return 0;
}
