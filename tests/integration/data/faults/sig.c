/*
 * sig.c - a traced program for signals.sh: emits N faults:num events
 * (i = 0..N-1), then ends as MODE says. Usage: sig MODE N
 *   int / term    raise(SIGINT) / kill(getpid(), SIGTERM)
 *   sleep         prints "ready PID" and sleeps until killed (at most 30 s)
 *   abort         abort()
 *   segv          a write through a NULL pointer
 *   return / exit5  returns 0 from main / calls exit(5)
 *   handler       installs a SIGINT handler in main, raises SIGINT; the
 *                 handler prints and sets a flag; N more events (i = N..2N-1),
 *                 then main returns 7
 *   reraise       like handler, but the handler restores SIG_DFL and
 *                 raises SIGINT again (the process dies by SIGINT)
 *   ign           raises SIGINT (ignored by the caller), N more events, returns 0
 *   eintr         installs the SIGINT handler (no SA_RESTART) in main, prints
 *                 "ready PID", blocks in read() on an empty pipe until a
 *                 SIGINT interrupts it (EINTR; at most 5 s), prints the
 *                 result, N more events, returns 0
 * Built with -DEARLY_HANDLER, the handler is installed by a constructor of
 * priority 101 instead of main; it says on stderr whether a handler (the
 * tracer's) was installed before.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tp.h"

static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t reraise;

static void on_sigint(int sig)
{
	static const char msg[] = "handler ran\n";

	got_signal = sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(98);
	if (reraise) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

static void install_handler(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

#ifdef EARLY_HANDLER
static void __attribute__((constructor(101))) early(void)
{
	struct sigaction old;

	/* Says whether a handler (the tracer's) was there before this one. */
	if (sigaction(SIGINT, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
	    old.sa_handler == SIG_DFL)
		fprintf(stderr, "early: first handler\n");
	else
		fprintf(stderr, "early: a handler was installed before\n");
	install_handler();
}
#endif

static void emit(int from, int to)
{
	int i;

	for (i = from; i < to; i++)
		tracepoint(faults, num, i);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int n = argc > 2 ? atoi(argv[2]) : 0;

	if (argc != 3 || n < 0) {
		fprintf(stderr, "usage: sig MODE N\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	alarm(30); /* a test never hangs on this program */
	if (!strcmp(mode, "handler") || !strcmp(mode, "reraise")) {
		reraise = !strcmp(mode, "reraise");
#ifndef EARLY_HANDLER
		install_handler();
#endif
		emit(0, n);
		raise(SIGINT);
		printf("flag %d\n", (int)got_signal);
		emit(n, 2 * n);
		return 7;
	}
	if (!strcmp(mode, "eintr")) {
		int p[2];
		char c;
		ssize_t got;

#ifndef EARLY_HANDLER
		install_handler();
#endif
		if (pipe(p) < 0) {
			perror("pipe");
			return 2;
		}
		emit(0, n);
		alarm(5);
		printf("ready %d\n", (int)getpid());
		got = read(p[0], &c, 1);
		printf("read %d %s\n", (int)got, got < 0 ? strerror(errno) : "");
		emit(n, 2 * n);
		return 0;
	}
	emit(0, n);
	if (!strcmp(mode, "int")) {
		raise(SIGINT);
	} else if (!strcmp(mode, "term")) {
		kill(getpid(), SIGTERM);
	} else if (!strcmp(mode, "sleep")) {
		printf("ready %d\n", (int)getpid());
		for (;;)
			pause();
	} else if (!strcmp(mode, "abort")) {
		abort();
	} else if (!strcmp(mode, "segv")) {
		int *volatile nowhere = NULL;

		*(volatile int *)nowhere = 42;
	} else if (!strcmp(mode, "return")) {
		printf("returning\n");
		return 0;
	} else if (!strcmp(mode, "exit5")) {
		printf("exiting\n");
		exit(5);
	} else if (!strcmp(mode, "ign")) {
		raise(SIGINT);
		emit(n, 2 * n);
		printf("survived\n");
		return 0;
	} else {
		fprintf(stderr, "sig: unknown mode %s\n", mode);
		return 2;
	}
	printf("still alive after %s\n", mode);
	return 1;
}
