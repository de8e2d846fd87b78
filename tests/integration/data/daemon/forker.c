/*
 * forker.c - a traced program that forks, for daemon_fork.sh:
 *
 *   forker N CHILDREN
 *
 * emits N ticker:tick events (prog 0), then forks CHILDREN children, one
 * after the other, child k emitting N events with prog k and exiting; once
 * they are all done, emits N more (prog 0). Prints its pid and each
 * child's, "pid PROG PID" per line.
 */
#define TRACEPOINT_DEFINE
#include "ticker_tp.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void emit(unsigned long n, int prog)
{
	for (unsigned long i = 0; i < n; i++)
		tracepoint(ticker, tick, i, prog);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 10;
	int children = argc > 2 ? atoi(argv[2]) : 2;

	printf("pid 0 %d\n", (int)getpid());
	fflush(stdout);
	emit(n, 0);
	for (int k = 1; k <= children; k++) {
		pid_t pid = fork();
		int status;

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			printf("pid %d %d\n", k, (int)getpid());
			fflush(stdout);
			emit(n, k);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			fprintf(stderr, "child %d failed\n", k);
			return 1;
		}
	}
	emit(n, 0);
	return 0;
}
