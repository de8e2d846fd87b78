/* Loads a provider with dlopen, traces, closes it, then dies by SIGTERM
 * with the default action: the process must die by SIGTERM (not by a
 * crash in the tracer) and the events must be in the trace. */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include "tp.h"

int main(int argc, char **argv)
{
	void *h = dlopen(argv[1], RTLD_NOW);
	int i;

	(void)argc;
	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	for (i = 0; i < 100; i++)
		tracepoint(robust, ev, i);
	dlclose(h);
	usleep(250000); /* the consumer writes metadata meanwhile */
	for (i = 100; i < 110; i++)
		tracepoint(robust, ev, i);
	raise(SIGTERM);
	return 0;
}
