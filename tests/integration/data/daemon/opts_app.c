/*
 * opts_app.c - the traced program of daemon_options.sh:
 *
 *   opts_app RUN ROUNDS [THREADS]
 *
 * THREADS threads (default 2, at most 8) each emit ROUNDS rounds; round
 * SEQ of thread T emits, in this order, opts:emerg, opts:crit,
 * opts:warning, opts:notice, opts:info, opts:noisy, opts:debug,
 * opts:nolevel and opts_other:event, all with (run = RUN, thread = T,
 * seq = SEQ). It prints what the trace's context fields can be checked
 * against, then what it emitted:
 *
 *   pid PID
 *   emit ADDRESS                              (of the function that emits)
 *   thread T tid TID pthread PTHREAD_SELF     (one line per thread)
 *   emitted N                                 (tracepoint calls in all)
 *
 * Environment: OPTS_GATE=FILE: create FILE.ready, then wait for FILE before
 * the threads start emitting; OPTS_HOLD=FILE: once they are done, create
 * FILE.ready and wait for FILE before exiting; OPTS_PACE=K: sleep 1 ms
 * after every K rounds; OPTS_PIN=1: every thread on the CPU where the
 * program starts (each CPU has its own buffers: the test knows which).
 */
#define _GNU_SOURCE
#define TRACEPOINT_DEFINE
#include "opts_tp.h"
#include "opts_other_tp.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int run;
static unsigned long rounds, pace;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void touch(const char *path, const char *suffix)
{
	char name[4096];
	FILE *f;

	snprintf(name, sizeof(name), "%s%s", path, suffix);
	f = fopen(name, "w");
	if (f)
		fclose(f);
}

static void wait_for(const char *path)
{
	touch(path, ".ready");
	while (access(path, F_OK) != 0)
		usleep(5000);
}

static void *emit(void *arg)
{
	int t = (int)(long)arg;
	struct timespec ms = {0, 1000000};
	int pair[2] = {run, t};
	unsigned long i;

	pthread_mutex_lock(&out_lock);
	printf("thread %d tid %d pthread %lu\n", t, (int)gettid(), (unsigned long)pthread_self());
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	for (i = 0; i < rounds; i++) {
		tracepoint(opts, emerg, run, t, i);
		tracepoint(opts, crit, run, t, i);
		tracepoint(opts, warning, run, t, i);
		tracepoint(opts, notice, run, t, i);
		tracepoint(opts, info, run, t, i);
		tracepoint(opts, noisy, run, t, i);
		tracepoint(opts, debug, run, t, i);
		tracepoint(opts, nolevel, run, t, i, pair);
		tracepoint(opts_other, event, run, t, i);
		if (pace && (i + 1) % pace == 0)
			nanosleep(&ms, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 3 ? atoi(argv[3]) : 2;
	const char *gate = getenv("OPTS_GATE"), *hold = getenv("OPTS_HOLD");
	pthread_t th[8];
	int i;

	if (argc < 3 || nthreads < 1 || nthreads > 8) {
		fprintf(stderr, "usage: opts_app RUN ROUNDS [THREADS]\n");
		return 2;
	}
	run = atoi(argv[1]);
	rounds = strtoul(argv[2], NULL, 10);
	pace = getenv("OPTS_PACE") ? strtoul(getenv("OPTS_PACE"), NULL, 10) : 0;
	if (getenv("OPTS_PIN")) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(sched_getcpu(), &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("sched_setaffinity");
			return 1;
		}
	}
	printf("pid %d\nemit %p\n", (int)getpid(), (void *)emit);
	fflush(stdout);
	if (gate)
		wait_for(gate);
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&th[i], NULL, emit, (void *)(long)i)) {
			perror("pthread_create");
			return 1;
		}
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	printf("emitted %lu\n", rounds * 9 * (unsigned long)nthreads);
	fflush(stdout);
	if (hold)
		wait_for(hold);
	return 0;
}
