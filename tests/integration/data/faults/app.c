/*
 * app.c - a traced program for faults.sh. Usage: app MODE [ARGS]
 *   exit N STATUS  N faults:num events (i = 0..N-1), prints lines, returns STATUS
 *   null           faults:str with a NULL string, then normal events
 *   seq            sequences too large or with a negative length, between
 *                  normal events (see below)
 *   fill N STATUS  N faults:blob events of ~200 bytes each, returns STATUS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tp.h"

static int do_exit(int n, int status)
{
	int i;

	for (i = 0; i < n; i++)
		tracepoint(faults, num, i);
	for (i = 0; i < 3; i++)
		printf("line %d of %d\n", i, n);
	printf("status %d\n", status);
	return status;
}

static int do_null(void)
{
	const char *volatile nothing = NULL;

	tracepoint(faults, str, nothing, 1);
	tracepoint(faults, str, "after", 2);
	tracepoint(faults, num, 3);
	printf("null done\n");
	return 0;
}

static int do_seq(void)
{
	size_t big_len = (size_t)1 << 20;
	int *big = calloc(big_len, sizeof(int));
	int small[3] = {11, 22, 33};
	volatile int minus_one = -1, minus_big = -1000000;

	if (!big) {
		perror("calloc");
		return 99;
	}
	big[0] = 1;
	big[big_len - 1] = 2;
	/* 4 MiB of payload: larger than any sub-buffer used by the tests. */
	tracepoint(faults, seq, big, (int)big_len, 1);
	tracepoint(faults, num, 2);
	/* Negative lengths for a signed length type. */
	tracepoint(faults, seq, small, minus_one, 3);
	tracepoint(faults, num, 4);
	tracepoint(faults, seq, small, minus_big, 5);
	tracepoint(faults, num, 6);
	/* A sequence that fits, to show sequences do work. */
	tracepoint(faults, seq, small, 3, 7);
	/* Too large again, with an unsigned length type. */
	tracepoint(faults, useq, big, big_len, 8);
	tracepoint(faults, num, 9);
	free(big);
	printf("seq done\n");
	return 0;
}

static int do_fill(int n, int status)
{
	char text[201];
	struct timespec pause = {0, 1000000};
	int i;

	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = 0;
	for (i = 0; i < n; i++) {
		tracepoint(faults, blob, i, text);
		/* Let the consumer keep up: the disk, not the buffers, should fill. */
		if (i % 50 == 49)
			nanosleep(&pause, NULL);
	}
	printf("fill done %d\n", n);
	return status;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "exit") && argc == 4)
		return do_exit(atoi(argv[2]), atoi(argv[3]));
	if (!strcmp(mode, "null"))
		return do_null();
	if (!strcmp(mode, "seq"))
		return do_seq();
	if (!strcmp(mode, "fill") && argc == 4)
		return do_fill(atoi(argv[2]), atoi(argv[3]));
	fprintf(stderr, "usage: app exit N STATUS | null | seq | fill N STATUS\n");
	return 2;
}
