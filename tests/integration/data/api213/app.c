#include <stdio.h>
#include <lttng/tracef.h>
#include <lttng/tracelog.h>
#include "tp.h"

int main(void)
{
	lttng_ust_tracepoint(new_prov, ev, 0, "abc");
	if (lttng_ust_tracepoint_enabled(new_prov, ev))
		lttng_ust_do_tracepoint(new_prov, ev, 5, "xyz");
	lttng_ust_tracef("tracef %d", 42);
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_ERR, "tracelog %s", "err");
	puts("done");
	return 0;
}
