/*
 * kernel_syscalls.c - what the BPF system call probes (src/kernel/syscalls.c)
 * cost the traced program: ns per getppid() (and per openat+close of
 * /etc/hostname, which copies a string) with the probes detached, and
 * attached with every call recorded and a thread consuming the buffers,
 * with only other calls recorded, and with a pid filter that excludes the
 * caller. Each figure is the best of five runs. Root only.
 *
 *	build/bench/bench_kernel_syscalls [calls]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kernel/syscalls.h"

static const char *root = "/sys/kernel/tracing";
static atomic_bool stop;
static atomic_ulong handed;

static int null_sink(void *arg, const struct kevent_record *r)
{
	(void)arg;
	(void)r;
	atomic_fetch_add_explicit(&handed, 1, memory_order_relaxed);
	return 0;
}

static void *consumer(void *arg)
{
	struct ksyscalls *s = arg;

	while (!atomic_load(&stop)) {
		ksyscalls_consume(s, null_sink, NULL);
		usleep(1000);
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ns per call of the loop, the best of five runs. */
static double measure(long calls, int opens)
{
	double best = 1e30;

	for (int run = 0; run < 5; run++) {
		double t0 = now(), t;

		for (long i = 0; i < calls; i++) {
			if (opens)
				close((int)syscall(SYS_openat, AT_FDCWD, "/etc/hostname", O_RDONLY,
						   0));
			else
				syscall(SYS_getppid);
		}
		t = (now() - t0) / calls;
		if (t < best)
			best = t;
	}
	return best;
}

/* The loops with the probes recording pattern (NULL: not attached), pids filtering. */
static void scenario(const char *what, const char *pattern, int filter_out, long calls)
{
	struct ksyscalls *s = NULL;
	pthread_t th;
	char err[256];
	uint64_t lost = 0;
	double g, o;

	if (pattern) {
		int other = getppid();

		s = ksyscalls_new(root, err, sizeof(err));
		if (!s || ksyscalls_enable(s, pattern, true, true) <= 0 ||
		    (filter_out && ksyscalls_set_pids(s, &other, 1)) ||
		    ksyscalls_start(s, 4u << 20, err, sizeof(err))) {
			fprintf(stderr, "bench_kernel_syscalls: %s\n", err);
			exit(1);
		}
		atomic_store(&stop, false);
		atomic_store(&handed, 0);
		pthread_create(&th, NULL, consumer, s);
	}
	g = measure(calls, 0);
	o = measure(calls / 4, 1);
	if (s) {
		atomic_store(&stop, true);
		pthread_join(th, NULL);
		ksyscalls_stop(s);
		ksyscalls_consume(s, null_sink, NULL);
		for (int c = 0; c < 1024; c++)
			lost += ksyscalls_lost(s, c);
		ksyscalls_free(s);
	}
	printf("%-44s getppid %7.1f ns   openat+close %7.1f ns   records %lu lost %llu\n", what, g,
	       o, atomic_load(&handed), (unsigned long long)lost);
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 1000000;

	scenario("probes detached", NULL, 0, calls);
	scenario("all calls recorded (\"*\")", "*", 0, calls);
	scenario("other calls recorded (\"pipe2\")", "pipe2", 0, calls);
	scenario("all calls, pid filter excluding the caller", "*", 1, calls);
	return 0;
}
