/*
 * kguard-work.c - the workload of kernel_syscall_guards.sh: N rounds of
 * read(40, 100 bytes), read(41, 100 bytes), read(40, 50 bytes),
 * getppid(), dup2(40, 42) and close(42), on /dev/zero at fds 40 and 41,
 * so that a filter on fd, count, ret and the thread tells the calls apart.
 * Usage: kguard-work N
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, fd = open("/dev/zero", O_RDONLY);
	char buf[100];

	if (fd < 0 || dup2(fd, 40) != 40 || dup2(fd, 41) != 41) {
		perror("kguard-work: /dev/zero");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		if (read(40, buf, 100) != 100 || read(41, buf, 100) != 100 ||
		    read(40, buf, 50) != 50) {
			perror("kguard-work: read");
			return 1;
		}
		(void)syscall(SYS_getppid);
		if (dup2(40, 42) != 42 || close(42)) {
			perror("kguard-work: dup2");
			return 1;
		}
	}
	return 0;
}
