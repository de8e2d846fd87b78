/* Overwrite mode, a handled SIGHUP in the middle, then a normal exit. */
#include <signal.h>
#include <stdio.h>
#include "tp.h"

static void on_hup(int sig)
{
	(void)sig;
}

int main(void)
{
	int i;

	signal(SIGHUP, on_hup);
	for (i = 0; i < 5000; i++)
		tracepoint(robust, ev, i);
	raise(SIGHUP);
	for (i = 5000; i < 5010; i++)
		tracepoint(robust, ev, i);
	return 0;
}
