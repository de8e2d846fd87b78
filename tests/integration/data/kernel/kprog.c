/*
 * kprog.c - a program whose system calls the kernel domain's tests know:
 * writes its tid to argv[1], opens argv[2] (which exists) and a file that
 * does not, reads 7 bytes, closes, sleeps 20 ms (a context switch), and
 * with argv[3] emits a user-space event before and after (both domains).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec ts = {0, 20 * 1000 * 1000};
	char buf[16];
	FILE *f;
	int fd, bad;

	if (argc < 3)
		return 2;
	f = fopen(argv[1], "w");
	if (!f)
		return 1;
	fprintf(f, "%ld\n", (long)syscall(SYS_gettid));
	fclose(f);
	nanosleep(&ts, NULL);
	fd = openat(AT_FDCWD, argv[2], O_RDONLY);
	bad = openat(AT_FDCWD, "/nonexistent/trax-kernel-test", O_RDONLY);
	if (fd < 0 || bad >= 0)
		return 1;
	if (read(fd, buf, 7) != 7)
		return 1;
	close(fd);
	nanosleep(&ts, NULL);
	return 0;
}
