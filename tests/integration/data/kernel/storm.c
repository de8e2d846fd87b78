/*
 * storm.c - system calls as fast as they go: one thread per CPU, each
 * calling getppid() in a loop for argv[1] seconds, pinned to its CPU.
 * Prints the total number of calls made (each is one syscall_entry and
 * one syscall_exit for a tracer recording getppid).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double seconds;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *storm(void *arg)
{
	long cpu = (long)arg;
	unsigned long long *count = malloc(sizeof(*count));
	cpu_set_t set;
	double end = now() + seconds;

	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	*count = 0;
	while (now() < end) {
		for (int i = 0; i < 256; i++)
			syscall(SYS_getppid);
		*count += 256;
	}
	return count;
}

int main(int argc, char **argv)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long total = 0;
	pthread_t th[256];

	seconds = argc > 1 ? atof(argv[1]) : 1.0;
	if (n > 256)
		n = 256;
	for (long i = 0; i < n; i++)
		pthread_create(&th[i], NULL, storm, (void *)i);
	for (long i = 0; i < n; i++) {
		void *r;

		pthread_join(th[i], &r);
		total += *(unsigned long long *)r;
		free(r);
	}
	printf("%llu\n", total);
	return 0;
}
