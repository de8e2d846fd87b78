/*
 * ksleep.c - a thread whose states `trax analyze flow` must find: writes
 * its tid to argv[1], waits for a line on the FIFO argv[2], then sleeps
 * argv[3] times argv[4] ms (nanosleep: blocked in clock_nanosleep), then
 * spins on the CPU for argv[5] ms, and exits.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	char line[16];
	FILE *f;
	int n;
	long ms, spin;
	long long end;
	volatile unsigned long x = 0;

	if (argc < 6)
		return 2;
	n = atoi(argv[3]);
	ms = atol(argv[4]);
	spin = atol(argv[5]);
	if (!(f = fopen(argv[1], "w")) || fprintf(f, "%d\n", (int)gettid()) < 0 || fclose(f))
		return 1;
	if (!(f = fopen(argv[2], "r")) || !fgets(line, sizeof(line), f))
		return 1;
	fclose(f);
	for (int i = 0; i < n; i++) {
		struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

		nanosleep(&ts, NULL);
	}
	end = now_ns() + spin * 1000000LL;
	while (now_ns() < end)
		x++;
	return 0;
}
