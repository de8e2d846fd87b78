/*
 * kwake.c - a workload that is woken a known number of times: writes its
 * tid to argv[1], then sleeps argv[2] times for argv[3] microseconds
 * (each sleep ends with a wakeup and a switch back to it). With argv[4],
 * it first waits for a line on that FIFO.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char line[16];
	FILE *f;
	long n, us;

	if (argc < 4)
		return 2;
	n = atol(argv[2]);
	us = atol(argv[3]);
	if (argc > 4) {
		FILE *go = fopen(argv[4], "r");

		if (!go || !fgets(line, sizeof(line), go))
			return 1;
		fclose(go);
	}
	f = fopen(argv[1], "w");
	if (!f)
		return 1;
	fprintf(f, "%ld\n", (long)syscall(SYS_gettid));
	if (fclose(f))
		return 1;
	for (long i = 0; i < n; i++) {
		struct timespec ts = {us / 1000000, (us % 1000000) * 1000};

		nanosleep(&ts, NULL);
	}
	return 0;
}
