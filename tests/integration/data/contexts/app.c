/* Emits one event from main and one from a named thread; prints the values
 * the contexts must show: pid, main tid, thread tid, pthread ids, and the
 * address range of the function holding the second call site. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "tp.h"

static void __attribute__((noinline)) emit_here(int n)
{
	tracepoint(ctxtest, ev, n);
}

static void *worker(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "ctx-worker", 0, 0, 0);
	printf("thread tid=%d pthread=%lu\n", gettid(), (unsigned long)pthread_self());
	tracepoint(ctxtest, ev, 2);
	return NULL;
}

int main(void)
{
	pthread_t t;

	printf("pid=%d tid=%d pthread=%lu\n", getpid(), gettid(), (unsigned long)pthread_self());
	printf("emit_here=%p\n", (void *)emit_here);
	emit_here(1);
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	return 0;
}
