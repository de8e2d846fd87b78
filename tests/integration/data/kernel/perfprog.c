/*
 * perfprog.c - the workload of kernel_perf.sh: on CPU 0, a getpid, then
 * N new pages touched (N page faults at least), then a getpid, then a
 * short sleep (sched_switch events); then, with a third argument K, K
 * signals SIGURG (ignored) sent to itself (K signal_generate events).
 * Writes its tid to argv[1].
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 200, page = sysconf(_SC_PAGESIZE);
	cpu_set_t set;
	FILE *f;
	char *p;

	if (argc < 3)
		return 2;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return perror("sched_setaffinity"), 1;
	p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return perror("mmap"), 1;
	f = fopen(argv[1], "w");
	if (!f)
		return perror(argv[1]), 1;
	fprintf(f, "%ld\n", (long)syscall(SYS_gettid));
	fclose(f);
	syscall(SYS_getpid);
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
	syscall(SYS_getpid);
	usleep(20000);
	for (long i = 0, k = argc > 3 ? atol(argv[3]) : 0; i < k; i++)
		kill(getpid(), SIGURG);
	return 0;
}
