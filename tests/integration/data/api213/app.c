#include <endian.h>
#include <stdio.h>
#include <lttng/tracef.h>
#include <lttng/tracelog.h>
#include "tp.h"

static void my_vtracef(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lttng_ust_vtracef(fmt, ap);
	va_end(ap);
}

static void my_vtracelog(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lttng_ust_vtracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO, fmt, ap);
	va_end(ap);
}

int main(void)
{
	struct new_prov_values v = {
		-7, 0xBEEFu, 2.5, "text", { -1, 2, -300 }, { 0x00, 0x0F, 0xA0, 0xFF },
		{ 0, 0 }, { 0, 0 }, { 'a', 'b', 'c', 'd' },
	};

	v.n16[0] = htobe16(0xCAFE);
	v.n16[1] = htobe16(0x0102);
	v.n32[0] = htobe32(0xDEADBEEF);
	v.n32[1] = htobe32(7);
	lttng_ust_tracepoint(new_prov, ev, 0, "abc");
	if (lttng_ust_tracepoint_enabled(new_prov, ev))
		lttng_ust_do_tracepoint(new_prov, ev, 5, "xyz");
	lttng_ust_tracepoint(new_prov, ev, 10, "ten");
	lttng_ust_tracepoint(new_prov, every_field, &v);
	lttng_ust_tracepoint(new_prov, l_emerg, 0);
	lttng_ust_tracepoint(new_prov, l_alert, 1);
	lttng_ust_tracepoint(new_prov, l_crit, 2);
	lttng_ust_tracepoint(new_prov, l_err, 3);
	lttng_ust_tracepoint(new_prov, l_warning, 4);
	lttng_ust_tracepoint(new_prov, l_notice, 5);
	lttng_ust_tracepoint(new_prov, l_info, 6);
	lttng_ust_tracepoint(new_prov, l_debug_system, 7);
	lttng_ust_tracepoint(new_prov, l_debug_program, 8);
	lttng_ust_tracepoint(new_prov, l_debug_process, 9);
	lttng_ust_tracepoint(new_prov, l_debug_module, 10);
	lttng_ust_tracepoint(new_prov, l_debug_unit, 11);
	lttng_ust_tracepoint(new_prov, l_debug_function, 12);
	lttng_ust_tracepoint(new_prov, l_debug_line, 13);
	lttng_ust_tracepoint(new_prov, l_debug, 14);
	lttng_ust_tracef("tracef %d", 42);
	my_vtracef("vtracef %s", "x");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_ERR, "tracelog %s", "err");
	my_vtracelog("vtracelog %d", 6);
	puts("done");
	return 0;
}
