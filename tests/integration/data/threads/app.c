/*
 * app THREADS N [CPU]: THREADS threads each emit N events thr:ev
 * (idx = thread index, seq = 0..N-1) in a tight loop, started together.
 * With CPU (a number, or "first": the first CPU this process may run on),
 * every thread is pinned to that CPU first (so all events go to one per-CPU
 * buffer, in emission order). Prints "emitted TOTAL" and exits 7 (a
 * status of its own, so that the test sees the tracer left it unchanged).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tp.h"

static uint64_t n;
static int cpu = -1;
static pthread_barrier_t start;

static void *run(void *arg)
{
	uint32_t idx = (uint32_t)(uintptr_t)arg;
	uint64_t i;

	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("sched_setaffinity");
			exit(2);
		}
	}
	pthread_barrier_wait(&start);
	for (i = 0; i < n; i++)
		tracepoint(thr, ev, idx, i);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads, t;
	pthread_t *tids;

	if (argc < 3) {
		fprintf(stderr, "usage: app THREADS N [CPU]\n");
		return 2;
	}
	threads = atoi(argv[1]);
	n = strtoull(argv[2], NULL, 10);
	if (argc > 3 && !strcmp(argv[3], "first")) {
		cpu_set_t set;

		if (sched_getaffinity(0, sizeof(set), &set))
			return 2;
		for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
			;
		printf("cpu %d\n", cpu);
	} else if (argc > 3) {
		cpu = atoi(argv[3]);
	}
	tids = calloc((size_t)threads, sizeof(*tids));
	if (!tids || threads < 1 || pthread_barrier_init(&start, NULL, (unsigned)threads))
		return 2;
	for (t = 0; t < threads; t++)
		if (pthread_create(&tids[t], NULL, run, (void *)(uintptr_t)t))
			return 2;
	for (t = 0; t < threads; t++)
		pthread_join(tids[t], NULL);
	printf("emitted %llu\n", (unsigned long long)n * (unsigned long long)threads);
	return 7;
}
