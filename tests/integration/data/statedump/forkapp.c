/*
 * forkapp.c - program of the statedump test that forks: the child is an
 * application of its own (a new registration, as LTTng-UST's child is with
 * liblttng-ust-fork.so), which records its own state dump into a started
 * session. Prints the child's pid.
 */
#define TRACEPOINT_DEFINE
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tp.h"

int main(void)
{
	int status;
	pid_t pid;

	tracepoint(sdtest, where, "parent", 1);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		tracepoint(sdtest, where, "child", 2);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 2;
	printf("child %d\n", (int)pid);
	return 0;
}
