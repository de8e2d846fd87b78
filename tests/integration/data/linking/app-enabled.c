/*
 * tracepoint_enabled() and do_tracepoint(), and the rule that the arguments of
 * a disabled tracepoint are not evaluated. Prints "enabled=E counter=C".
 */
#include <stdio.h>
#include "tp.h"

static int counter;

static int bump(void)
{
	return ++counter;
}

int main(void)
{
	int enabled = tracepoint_enabled(linkprov, counted) ? 1 : 0;

	if (tracepoint_enabled(linkprov, counted))
		do_tracepoint(linkprov, counted, bump());
	tracepoint(linkprov, counted, bump());
	tracepoint(linkprov, counted, ++counter * 100);
	tracepoint(linkprov, hello, 99, "marker");
	printf("enabled=%d counter=%d\n", enabled, counter);
	return 0;
}
