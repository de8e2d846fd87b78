/* Emits N events, each carrying CLOCK_MONOTONIC read just before the call,
 * and prints the value read just after, so the test can bound the event's
 * timestamp between the two. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "tp.h"

static uint64_t mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, i;
	int pause_us = argc > 2 ? atoi(argv[2]) : 1000;

	for (i = 0; i < n; i++) {
		uint64_t before = mono(), after;

		tracepoint(clk, ev, before);
		after = mono();
		printf("%llu %llu\n", (unsigned long long)before, (unsigned long long)after);
		usleep((useconds_t)pause_us);
	}
	return 0;
}
