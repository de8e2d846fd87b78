/*
 * ticker.c - a traced program for the daemon tests:
 *
 *   ticker N PERIOD_US [STOPFILE] [PROG]
 *
 * emits ticker:tick with seq 0, 1, ... (and prog = PROG, default 0) every
 * PERIOD_US microseconds (0: as fast as it can), N times (0: until
 * STOPFILE exists), then prints how many it emitted and exits 0. With
 * TICKER_PAUSE=FILE it creates FILE.reached after the first N/2 events and
 * waits until FILE exists (the snapshot test takes one there).
 */
#define TRACEPOINT_DEFINE
#include "ticker_tp.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 10;
	long period = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
	const char *stop = argc > 3 ? argv[3] : NULL;
	int prog = argc > 4 ? atoi(argv[4]) : 0;
	const char *pause_file = getenv("TICKER_PAUSE");
	struct timespec ts = {period / 1000000, (period % 1000000) * 1000};
	unsigned long i;

	for (i = 0; n == 0 || i < n; i++) {
		if (stop && (i & 63) == 0 && access(stop, F_OK) == 0)
			break;
		if (pause_file && i == n / 2) {
			char reached[4096];
			FILE *f;

			snprintf(reached, sizeof(reached), "%s.reached", pause_file);
			f = fopen(reached, "w");
			if (f)
				fclose(f);
			while (access(pause_file, F_OK) != 0)
				usleep(10000);
		}
		tracepoint(ticker, tick, i, prog);
		if (period)
			nanosleep(&ts, NULL);
	}
	printf("%lu\n", i);
	return 0;
}
