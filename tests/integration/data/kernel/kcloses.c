/*
 * kcloses.c - a program whose system calls a test can count: on CPU 0,
 * writes its tid to argv[1], then calls close(FIRST + i) for i in
 * 0..argv[2]-1 (FIRST = 1000000: no such descriptor, so each call is
 * recognisable by its argument), argv[3] calls at a time with a pause of
 * argv[4] ms between (so that a reader draining every 10 ms keeps up);
 * with argv[5], only once that file exists (the test tracks it first).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define FIRST 1000000

int main(int argc, char **argv)
{
	struct timespec pause;
	cpu_set_t cpus;
	long n, burst, ms;
	FILE *f;

	if (argc < 5)
		return 2;
	n = atol(argv[2]);
	burst = atol(argv[3]);
	ms = atol(argv[4]);
	if (n < 0 || burst < 1 || ms < 0)
		return 2;
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		return 1;
	f = fopen(argv[1], "w");
	if (!f)
		return 1;
	fprintf(f, "%ld\n", (long)syscall(SYS_gettid));
	fclose(f);
	for (int waited = 0; argc > 5 && access(argv[5], F_OK); waited++) {
		struct timespec ms1 = {0, 1000000L};

		if (waited > 30000)
			return 3;
		nanosleep(&ms1, NULL);
	}
	pause.tv_sec = ms / 1000;
	pause.tv_nsec = (ms % 1000) * 1000000L;
	for (long i = 0; i < n; i++) {
		if (i && i % burst == 0)
			nanosleep(&pause, NULL);
		close((int)(FIRST + i));
	}
	return 0;
}
