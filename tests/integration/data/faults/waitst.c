/*
 * waitst.c - runs a program and prints how it ended, from its wait status:
 * "exited N" or "killed by signal N". Usage: waitst [-i] PROG [ARGS]
 * The child starts with SIGINT, SIGTERM and SIGQUIT at their default action
 * (as a foreground job would), or with SIGINT ignored when -i is given.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int ignore_int = 0, status;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "-i")) {
		ignore_int = 1;
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: waitst [-i] PROG [ARGS]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0) {
		sigset_t none;

		signal(SIGINT, ignore_int ? SIG_IGN : SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execv(argv[1], argv + 1);
		perror("execv");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid) {
		perror("waitpid");
		return 2;
	}
	fflush(stdout);
	if (WIFEXITED(status))
		printf("exited %d\n", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf("killed by signal %d\n", WTERMSIG(status));
	else
		printf("status 0x%x\n", status);
	return 0;
}
