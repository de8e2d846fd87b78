/*
 * fake-traxd-app MODE [ARG] - the traced program of app_register.sh, with
 * the plug provider (tests/integration/data/plugins/tp.h).
 *
 *   startup T0_NS   prints "startup_ms=N": how long after T0_NS
 *                   (CLOCK_REALTIME nanoseconds, taken by the test before
 *                   starting it) main() began, then exits.
 *   loop [T0_NS]    (prints startup_ms=N first, given T0_NS) then
 *                   emits plug:ev(0), plug:ev(1), ... one a millisecond
 *                   until SIGTERM or SIGINT, then prints
 *                   "emitted=N max_gap_ms=G usr1=main|other child=ok|...":
 *                   G is the longest time between two events (a tracer that
 *                   blocked the program would show it), usr1 tells which
 *                   thread took SIGUSR1 (the tracer's threads must never),
 *                   and on SIGUSR2 it forks a child that emits
 *                   plug:ev(1000000 + i) 200 times and exits 0 (child=ok).
 *   closefds FILE SO  as loop, but first puts FILE (opened for appending)
 *                   on every descriptor number from 3 to 63 with dup2(),
 *                   the library's among them (as a daemon that closes
 *                   everything and opens its own files would, but without a
 *                   moment where a number is free), then loads the provider
 *                   SO (its registration wakes the library's thread); at the
 *                   end it writes "N" and a newline through each number N
 *                   and prints "files=ok" when every write went through.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tp.h"

static volatile sig_atomic_t stop, fork_asked, usr1_tid;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_usr1(int sig)
{
	(void)sig;
	usr1_tid = (sig_atomic_t)syscall(SYS_gettid);
}

static void on_usr2(int sig)
{
	(void)sig;
	fork_asked = 1;
}

static long long now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static const char *run_child(void)
{
	pid_t pid = fork();
	int status, i;

	if (pid < 0)
		return "fork-failed";
	if (pid == 0) {
		for (i = 0; i < 200; i++)
			tracepoint(plug, ev, 1000000 + i);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return "wait-failed";
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "failed";
}

int main(int argc, char **argv)
{
	struct timespec ms = {0, 1000000};
	const char *child = "none";
	long long last, gap = 0;
	int n = 0, i, replaced = 0;

	if (argc == 3 && !strcmp(argv[1], "startup")) {
		printf("startup_ms=%lld\n", (now_ns(CLOCK_REALTIME) - atoll(argv[2])) / 1000000);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "closefds")) {
		int f = open(argv[2], O_RDWR | O_CREAT | O_TRUNC | O_APPEND, 0600);

		if (f < 0 || dup2(f, 900) != 900) {
			perror(argv[2]);
			return 1;
		}
		for (i = 3; i < 64; i++)
			if (dup2(900, i) != i) {
				perror("dup2");
				return 1;
			}
		replaced = 1;
		if (!dlopen(argv[3], RTLD_NOW)) {
			fprintf(stderr, "dlopen: %s\n", dlerror());
			return 1;
		}
	} else if (argc < 2 || argc > 3 || strcmp(argv[1], "loop")) {
		fprintf(stderr,
			"usage: fake-traxd-app startup T0_NS | loop [T0_NS] | closefds DIR SO\n");
		return 2;
	}
	if (argc == 3) {
		printf("startup_ms=%lld\n", (now_ns(CLOCK_REALTIME) - atoll(argv[2])) / 1000000);
		fflush(stdout);
	}
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	signal(SIGUSR1, on_usr1);
	signal(SIGUSR2, on_usr2);
	last = now_ns(CLOCK_MONOTONIC);
	while (!stop) {
		long long t;

		tracepoint(plug, ev, n);
		n++;
		if (fork_asked) {
			fork_asked = 0;
			child = run_child();
		}
		nanosleep(&ms, NULL);
		t = now_ns(CLOCK_MONOTONIC);
		if (t - last > gap)
			gap = t - last;
		last = t;
	}
	printf("emitted=%d max_gap_ms=%lld usr1=%s child=%s\n", n, gap / 1000000,
	       usr1_tid == 0	      ? "none"
	       : usr1_tid == getpid() ? "main"
				      : "other",
	       child);
	if (replaced) {
		int good = 0;

		for (i = 3; i < 64; i++) {
			char line[8];
			int len = snprintf(line, sizeof(line), "%d\n", i);

			good += write(i, line, (size_t)len) == len;
		}
		printf("files=%s\n", good == 61 ? "ok" : "failed");
	}
	return 0;
}
