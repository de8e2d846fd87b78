/*
 * crasher.c - a traced program that dies abruptly, for daemon_faults.sh:
 *
 *   crasher N HOW [PROG] [MARKER]
 *
 * emits ticker:tick with seq 0 .. N-1 (and prog = PROG, default 0), as
 * fast as it can, prints N (on stdout, flushed), then:
 *
 *   kill     raise(SIGKILL): nothing of the process runs any more
 *   abort    abort(): SIGABRT, default action
 *   record   a crasher:blob event whose array argument points at an
 *            inaccessible page: the program faults while the probe copies
 *            it, after the record is reserved, before it is committed
 *   exit     returns from main (the control case)
 *
 * With MARKER, an atexit() handler creates that file: it must not exist
 * after a crash (no exit handler ran, so nothing but the shared buffers can
 * have saved the events).
 */
#define TRACEPOINT_DEFINE
#include "crasher_tp.h"
#include "ticker_tp.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *marker;

static void at_exit(void)
{
	int fd = open(marker, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 10, i;
	const char *how = argc > 2 ? argv[2] : "exit";
	int prog = argc > 3 ? atoi(argv[3]) : 0;
	char *page;

	marker = argc > 4 ? argv[4] : NULL;
	if (marker)
		atexit(at_exit);
	page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return 3;
	for (i = 0; i < n; i++)
		tracepoint(ticker, tick, i, prog);
	printf("%lu\n", i);
	fflush(stdout);
	if (!strcmp(how, "kill"))
		raise(SIGKILL);
	else if (!strcmp(how, "abort"))
		abort();
	else if (!strcmp(how, "record"))
		tracepoint(crasher, blob, i, page);
	else if (strcmp(how, "exit"))
		return 2;
	return 0;
}
