/*
 * Includes a provider header only, with _LGPL_SOURCE defined (lttng-ust(3):
 * LTTng-UST's RCU read side inlined): LTTng-UST's <lttng/tracepoint.h> then
 * also brings pthread.h (so sched.h and time.h) with its RCU header.
 */
#define _LGPL_SOURCE
#include "tp.h"
#include "uses.h"

static void *lgpl_thread(void *arg)
{
	sched_yield();
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t thread;
	struct timespec ts;
	void *ret = NULL;

	if (pthread_create(&thread, NULL, lgpl_thread, NULL) || pthread_join(thread, &ret) ||
	    clock_gettime(CLOCK_MONOTONIC, &ts) || pthread_self() == 0)
		abort();
	tracepoint(hdrprov, ev, argc);
	return uses_std_names(argc, argv);
}
