/*
 * kfpush-work.c - context switches of known threads: two pairs of threads
 * on CPU 0, each pair passing a byte back and forth through two pipes
 * argv[1] times: "kfp-ping"/"kfp-pong" (the switches a filter keeps), then
 * "noise-a"/"noise-b" (those it rejects). Every pass is a switch from one
 * thread of a pair to the other, or through the idle task.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

struct side {
	const char *name;
	int in, out;
	long rounds;
	int first; /* sends first */
};

static void *run(void *arg)
{
	struct side *s = arg;
	cpu_set_t cpus;
	char c = 'x';

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	prctl(PR_SET_NAME, s->name);
	for (long i = 0; i < s->rounds; i++) {
		if (s->first && write(s->out, &c, 1) != 1)
			exit(1);
		if (read(s->in, &c, 1) != 1)
			exit(1);
		if (!s->first && write(s->out, &c, 1) != 1)
			exit(1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static const char *names[4] = {"kfp-ping", "kfp-pong", "noise-a", "noise-b"};
	struct side sides[4];
	pthread_t th[4];
	long rounds = argc > 1 ? atol(argv[1]) : 1000;

	for (int pair = 0; pair < 2; pair++) {
		int ab[2], ba[2];

		if (pipe(ab) || pipe(ba))
			return 1;
		sides[2 * pair] = (struct side){names[2 * pair], ba[0], ab[1], rounds, 1};
		sides[2 * pair + 1] = (struct side){names[2 * pair + 1], ab[0], ba[1], rounds, 0};
	}
	/* one pair after the other: no switch between the pairs */
	for (int pair = 0; pair < 2; pair++) {
		for (int i = 2 * pair; i < 2 * pair + 2; i++)
			if (pthread_create(&th[i], NULL, run, &sides[i]))
				return 1;
		for (int i = 2 * pair; i < 2 * pair + 2; i++)
			pthread_join(th[i], NULL);
	}
	return 0;
}
