/*
 * app N [serial]: two threads named worker-0 and worker-1 (at once, or
 * one after the other) each make N requests
 * (spn:request_begin/end), each of three steps (spn:step_enter/exit, a
 * system call inside), and report a queue length (spn:queue) after each.
 * The strings of step_exit need escaping in JSON (quote, backslash, tab,
 * UTF-8).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "tp.h"

static unsigned n;

static void *run(void *arg)
{
	unsigned idx = (unsigned)(uintptr_t)arg;
	char name[16];

	snprintf(name, sizeof(name), "worker-%u", idx);
	pthread_setname_np(pthread_self(), name);
	for (unsigned i = 0; i < n; i++) {
		tracepoint(spn, request_begin, idx * 1000000 + i);
		for (unsigned s = 0; s < 3; s++) {
			tracepoint(spn, step_enter, s);
			tracepoint(spn, step_exit, s, (int64_t)getppid() - (int64_t)s,
				   s == 1 ? "a \"quoted\"\\ \t tab, caf\xc3\xa9" : "ok");
		}
		tracepoint(spn, request_end, idx * 1000000 + i);
		tracepoint(spn, queue, (int32_t)(i % 7) - 3, i * 0.5);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	n = argc > 1 ? (unsigned)atoi(argv[1]) : 100;
	if (argc > 2) {
		/* "serial": one thread after the other (a trace without thread
		 * contexts cannot tell their spans apart when they overlap) */
		for (uintptr_t i = 0; i < 2; i++) {
			if (pthread_create(&t[i], NULL, run, (void *)i))
				return 2;
			pthread_join(t[i], NULL);
		}
	} else {
		for (uintptr_t i = 0; i < 2; i++)
			if (pthread_create(&t[i], NULL, run, (void *)i))
				return 2;
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	}
	printf("done %u\n", 2 * n * 11);
	return 0;
}
