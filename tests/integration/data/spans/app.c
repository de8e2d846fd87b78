/*
 * app N: spans of known lengths, busy-waiting on CLOCK_MONOTONIC (the
 * clock of the trace) between spn:enter and spn:exit, so that every span
 * lasts at least its length and, unless the thread is preempted, barely
 * more. Two threads, one after the other:
 *   thread 1: N spans of 2 ms (ids 100 + i);
 *   thread 2: N spans of 5 ms (ids 200 + i), each holding, 2 ms after its
 *             start, a nested span of 1 ms (ids 300 + i).
 * Prints the two threads' tids ("tids T1 T2").
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "tp.h"

static int n;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void busy(long long ns)
{
	long long end = now_ns() + ns;

	while (now_ns() < end)
		;
}

static void *one(void *arg)
{
	*(pid_t *)arg = gettid();
	for (int i = 0; i < n; i++) {
		tracepoint(spn, enter, 100 + i);
		busy(2000000);
		tracepoint(spn, exit, 100 + i);
		usleep(1000);
	}
	return NULL;
}

static void *two(void *arg)
{
	*(pid_t *)arg = gettid();
	for (int i = 0; i < n; i++) {
		tracepoint(spn, enter, 200 + i);
		busy(2000000);
		tracepoint(spn, enter, 300 + i);
		busy(1000000);
		tracepoint(spn, exit, 300 + i);
		busy(2000000);
		tracepoint(spn, exit, 200 + i);
		usleep(1000);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	pid_t t1 = 0, t2 = 0;

	n = argc > 1 ? atoi(argv[1]) : 5;
	if (pthread_create(&t, NULL, one, &t1) || pthread_join(t, NULL))
		return 1;
	if (pthread_create(&t, NULL, two, &t2) || pthread_join(t, NULL))
		return 1;
	printf("tids %d %d\n", (int)t1, (int)t2);
	return 0;
}
