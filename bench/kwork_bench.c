/*
 * kwork_bench - the kernel-domain benchmark's workloads (bench/kernel.sh):
 * a fixed amount of work whose kernel events are known in advance, timed
 * from the inside so that a tracer's start and stop are not counted.
 *
 *   kwork_bench pingpong N [CPU]
 *       Two threads, both pinned to CPU (default 0), pass one byte back
 *       and forth through two pipes N times. Each round trip blocks and
 *       wakes each thread once: 2 sched_switch, 2 sched_waking and
 *       2 sched_wakeup events, and nothing else of the scheduler's.
 *
 *   kwork_bench syscalls N [RATE]
 *       One thread per online CPU, pinned to it, each doing N iterations of
 *       getppid() then read() of 64 bytes from /dev/zero: 2 system calls,
 *       4 events (entry and exit) per iteration for a tracer recording
 *       getppid and read. With RATE, each thread keeps to RATE iterations
 *       per second: it sleeps when ahead of its schedule (leaving the CPU
 *       to the tracer's readers) and only falls behind when the tracer
 *       slows it down.
 *
 * The threads start together on a barrier; the time runs from the earliest
 * start to the latest end (CLOCK_MONOTONIC). One line on stdout:
 *
 *   mode=M threads=T n=N elapsed_ns=E ns_per_op=X ops_per_s=Y tids=A,B...
 *
 * where an op is one round trip (pingpong: elapsed / N) or one system call
 * (syscalls: elapsed / 2N, what one thread pays per call), and ops_per_s
 * counts all threads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 256

struct worker {
	pthread_t thread;
	int index, cpu;
	pid_t tid;
	uint64_t t0, t1;
	int rfd, wfd; /* pingpong: the pipe ends this thread reads and writes */
	int failed;
};

static uint64_t n_ops;
static uint64_t rate; /* syscalls: iterations per second per thread, 0: unpaced */
static int zero_fd;
static pthread_barrier_t start_barrier;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
}

/* Waits until iteration i is due (t0 + i / rate). */
static void keep_pace(const struct worker *w, uint64_t i)
{
	uint64_t due = (uint64_t)((double)i * 1e9 / (double)rate);
	uint64_t now = now_ns() - w->t0;

	if (now < due) {
		struct timespec ts = {(time_t)((due - now) / 1000000000u),
				      (long)((due - now) % 1000000000u)};

		nanosleep(&ts, NULL);
	}
}

static void *syscalls_main(void *arg)
{
	struct worker *w = arg;
	char buf[64];

	pin(w->cpu);
	w->tid = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&start_barrier);
	w->t0 = now_ns();
	for (uint64_t i = 0; i < n_ops; i++) {
		/* pacing checks the clock every 16 iterations: a vDSO call, no event */
		if (rate && (i & 15) == 0)
			keep_pace(w, i);
		syscall(SYS_getppid);
		if (read(zero_fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			w->failed = 1;
	}
	w->t1 = now_ns();
	return NULL;
}

static void *pingpong_main(void *arg)
{
	struct worker *w = arg;
	char c = 0;

	pin(w->cpu);
	w->tid = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&start_barrier);
	w->t0 = now_ns();
	for (uint64_t i = 0; i < n_ops; i++) {
		/* thread 0 serves first; each then waits for the other's byte */
		if (w->index == 0 && write(w->wfd, &c, 1) != 1)
			w->failed = 1;
		if (read(w->rfd, &c, 1) != 1)
			w->failed = 1;
		if (w->index == 1 && write(w->wfd, &c, 1) != 1)
			w->failed = 1;
	}
	w->t1 = now_ns();
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: kwork_bench pingpong N [CPU] | syscalls N [RATE]\n");
	exit(2);
}

static uint64_t parse_u64(const char *s)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end); /* 200000 and 2e5 alike */
	if (errno || *end != '\0' || end == s || d < 0 || d > 1e19)
		usage();
	return (uint64_t)d;
}

int main(int argc, char **argv)
{
	static struct worker workers[MAX_THREADS];
	void *(*body)(void *);
	uint64_t first = UINT64_MAX, last = 0, elapsed, ops;
	int nthreads, failed = 0, err;
	bool pingpong;

	if (argc < 3 || argc > 4)
		usage();
	pingpong = strcmp(argv[1], "pingpong") == 0;
	if (!pingpong && strcmp(argv[1], "syscalls") != 0)
		usage();
	n_ops = parse_u64(argv[2]);
	if (n_ops == 0)
		usage();
	if (pingpong) {
		int ab[2], ba[2], cpu = argc == 4 ? (int)parse_u64(argv[3]) : 0;

		if (pipe(ab) || pipe(ba)) {
			perror("pipe");
			return 1;
		}
		nthreads = 2;
		workers[0] = (struct worker){.index = 0, .cpu = cpu, .rfd = ba[0], .wfd = ab[1]};
		workers[1] = (struct worker){.index = 1, .cpu = cpu, .rfd = ab[0], .wfd = ba[1]};
		body = pingpong_main;
	} else {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		rate = argc == 4 ? parse_u64(argv[3]) : 0;
		zero_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
		if (zero_fd < 0) {
			perror("/dev/zero");
			return 1;
		}
		nthreads = n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
		for (int i = 0; i < nthreads; i++)
			workers[i] = (struct worker){.index = i, .cpu = i};
		body = syscalls_main;
	}
	err = pthread_barrier_init(&start_barrier, NULL, (unsigned)nthreads);
	for (int i = 0; !err && i < nthreads; i++)
		err = pthread_create(&workers[i].thread, NULL, body, &workers[i]);
	if (err) {
		fprintf(stderr, "kwork_bench: %s\n", strerror(err));
		return 1;
	}
	for (int i = 0; i < nthreads; i++) {
		pthread_join(workers[i].thread, NULL);
		first = workers[i].t0 < first ? workers[i].t0 : first;
		last = workers[i].t1 > last ? workers[i].t1 : last;
		failed |= workers[i].failed;
	}
	if (failed) {
		fprintf(stderr, "kwork_bench: a read or write came short\n");
		return 1;
	}
	elapsed = last > first ? last - first : 1;
	ops = pingpong ? n_ops : 2 * n_ops; /* per thread */
	printf("mode=%s threads=%d n=%" PRIu64 " elapsed_ns=%" PRIu64
	       " ns_per_op=%.1f ops_per_s=%.0f",
	       argv[1], nthreads, n_ops, elapsed, (double)elapsed / (double)ops,
	       (double)(pingpong ? ops : ops * (uint64_t)nthreads) * 1e9 / (double)elapsed);
	for (int i = 0; i < nthreads; i++)
		printf("%s%d", i ? "," : " tids=", (int)workers[i].tid);
	printf("\n");
	return 0;
}
