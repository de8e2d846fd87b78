/*
 * kwork.c - a workload whose numbers the analyses must find: writes its
 * tid to argv[1], then opens, reads 64 bytes of and closes argv[2]
 * argv[3] times, then spins on the CPU for argv[4] ms, and writes the CPU
 * time it used (ms, from getrusage) to argv[1] after its tid. With
 * argv[5], it first waits for a line on that FIFO (its pid can then be
 * tracked before it starts).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	char buf[64];
	volatile unsigned long spin = 0;
	double end;
	FILE *f;

	if (argc < 5)
		return 2;
	if (argc > 5) {
		FILE *go = fopen(argv[5], "r");

		if (!go || !fgets(buf, sizeof(buf), go))
			return 1;
		fclose(go);
	}
	for (int i = 0; i < atoi(argv[3]); i++) {
		int fd = open(argv[2], O_RDONLY);

		if (fd < 0 || read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			return 1;
		close(fd);
	}
	end = now_ms() + atof(argv[4]);
	while (now_ms() < end)
		spin++;
	getrusage(RUSAGE_SELF, &ru);
	f = fopen(argv[1], "w");
	if (!f)
		return 1;
	fprintf(f, "%ld %.3f\n", (long)syscall(SYS_gettid),
		(double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3);
	fclose(f);
	return 0;
}
