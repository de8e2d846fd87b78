/*
 * loop MODE N THREADS
 *
 * Emits N events per thread from THREADS threads in a tight loop and prints
 * the wall-clock cost.  MODE is one of
 *
 *   enabled   tracepoint(bench_prov, ev, seq, thread)           (recorded)
 *   disabled  tracepoint(bench_prov, disabled_ev, seq, thread)  (never enabled)
 *   none      the same loop without any tracepoint (loop overhead baseline)
 *
 * Every loop body ends with an empty asm statement that takes the counter as
 * an in/out operand and clobbers memory: the compiler can neither delete the
 * loop nor hoist a tracepoint's "is it enabled?" load out of it, as it could
 * not in real code where the tracepoint sits between calls and stores.
 *
 * The threads start together on a barrier; elapsed time runs from the
 * earliest thread start to the latest thread end (CLOCK_MONOTONIC).
 * Output, one line of key=value pairs on stdout:
 *
 *   mode threads n_per_thread total elapsed_ns ns_per_event events_per_s
 *
 * ns_per_event is elapsed_ns / N: the time one thread spends per event
 * (with one thread, simply the cost of one event); events_per_s is the
 * aggregate throughput, THREADS * N / elapsed.
 *
 * LOOP_RATE=R (enabled mode) paces each thread at R events per second: it
 * never runs ahead of its schedule (it waits), and falls behind only when
 * the tracer is too slow (bench/daemon.sh searches the sustainable rate).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tp.h"

enum mode { MODE_NONE, MODE_ENABLED, MODE_DISABLED };

struct worker {
	pthread_t thread;
	int index;
	uint64_t t0, t1;
};

static enum mode mode;
static uint64_t n_per_thread;
static uint64_t rate; /* events per second per thread, 0: as fast as possible */
static pthread_barrier_t start_barrier;

/* Keeps the loop and its counter opaque to the optimiser (see above). */
#define OPAQUE(x) __asm__ __volatile__("" : "+r"(x) : : "memory")

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const int thread = w->index;
	const uint64_t n = n_per_thread;
	uint64_t i;

	pthread_barrier_wait(&start_barrier);
	w->t0 = now_ns();
	switch (mode) {
	case MODE_ENABLED:
		if (rate) {
			/* event i is due at t0 + i / rate; checked every 64 events */
			for (i = 0; i < n; i++) {
				if ((i & 63) == 0) {
					uint64_t due = (uint64_t)((double)i * 1e9 / (double)rate);
					uint64_t now = now_ns() - w->t0;

					/* ahead: sleep, leaving the CPU to the consumer */
					if (now < due) {
						struct timespec ts = {
						    (time_t)((due - now) / 1000000000u),
						    (long)((due - now) % 1000000000u)};

						nanosleep(&ts, NULL);
					}
				}
				tracepoint(bench_prov, ev, i, thread);
				OPAQUE(i);
			}
			break;
		}
		for (i = 0; i < n; i++) {
			tracepoint(bench_prov, ev, i, thread);
			OPAQUE(i);
		}
		break;
	case MODE_DISABLED:
		for (i = 0; i < n; i++) {
			tracepoint(bench_prov, disabled_ev, i, thread);
			OPAQUE(i);
		}
		break;
	case MODE_NONE:
		for (i = 0; i < n; i++)
			OPAQUE(i);
		break;
	}
	w->t1 = now_ns();
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: loop enabled|disabled|none N THREADS\n");
	exit(2);
}

static uint64_t parse_u64(const char *s)
{
	char *end;
	double d;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == 0 && *end == '\0' && end != s)
		return v;
	/* Also accept 1e9, 2e6, ... */
	d = strtod(s, &end);
	if (*end != '\0' || end == s || d < 1 || d > 1e19)
		usage();
	return (uint64_t)d;
}

int main(int argc, char **argv)
{
	struct worker *workers;
	uint64_t first_start = UINT64_MAX, last_end = 0, elapsed, total;
	long nthreads;
	int i, err;

	if (argc != 4)
		usage();
	if (strcmp(argv[1], "enabled") == 0)
		mode = MODE_ENABLED;
	else if (strcmp(argv[1], "disabled") == 0)
		mode = MODE_DISABLED;
	else if (strcmp(argv[1], "none") == 0)
		mode = MODE_NONE;
	else
		usage();
	n_per_thread = parse_u64(argv[2]);
	if (getenv("LOOP_RATE"))
		rate = parse_u64(getenv("LOOP_RATE"));
	nthreads = strtol(argv[3], NULL, 10);
	if (nthreads < 1 || nthreads > 1024)
		usage();

	workers = calloc((size_t)nthreads, sizeof(*workers));
	if (!workers) {
		perror("calloc");
		return 1;
	}
	err = pthread_barrier_init(&start_barrier, NULL, (unsigned)nthreads);
	if (err) {
		fprintf(stderr, "pthread_barrier_init: %s\n", strerror(err));
		return 1;
	}
	for (i = 0; i < nthreads; i++) {
		workers[i].index = i;
		err = pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]);
		if (err) {
			fprintf(stderr, "pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(workers[i].thread, NULL);
		if (workers[i].t0 < first_start)
			first_start = workers[i].t0;
		if (workers[i].t1 > last_end)
			last_end = workers[i].t1;
	}
	elapsed = last_end - first_start;
	if (elapsed == 0)
		elapsed = 1;
	total = n_per_thread * (uint64_t)nthreads;
	printf("mode=%s threads=%ld n_per_thread=%" PRIu64 " total=%" PRIu64 " elapsed_ns=%" PRIu64
	       " ns_per_event=%.4f events_per_s=%.0f\n",
	       argv[1], nthreads, n_per_thread, total, elapsed,
	       (double)elapsed / (double)n_per_thread, (double)total * 1e9 / (double)elapsed);
	fflush(stdout);
	pthread_barrier_destroy(&start_barrier);
	free(workers);
	return 0;
}
