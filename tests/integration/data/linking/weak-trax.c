/* Same as weak-lttng.c with trax's own name, trax_ust_loaded. */
#include <stdio.h>
#include <trax/tracepoint.h>
#ifdef USE_TP
#include "tp.h"
#endif

int trax_ust_loaded __attribute__((weak));

int main(void)
{
#ifdef USE_TP
	tracepoint(linkprov, hello, 8, "weak");
#endif
	printf("%d\n", trax_ust_loaded);
	return 0;
}
