/*
 * lttng-ust(3): "Define the lttng_ust_loaded weak symbol globally", set by the
 * tracer's constructor. Prints its value. Without -DUSE_TP the program uses
 * no tracepoint (it is then linked without libtrax-ust, or with it forced).
 */
#include <stdio.h>
#include <lttng/tracepoint.h>
#ifdef USE_TP
#include "tp.h"
#endif

int lttng_ust_loaded __attribute__((weak));

int main(void)
{
#ifdef USE_TP
	tracepoint(linkprov, hello, 7, "weak");
#endif
	printf("%d\n", lttng_ust_loaded);
	return 0;
}
