/*
 * kprog32.c - 32-bit system calls from a 64-bit program (int $0x80: the
 * kernel runs them as a 32-bit program's, TS_COMPAT): openat of the file
 * named by argv[2] (copied below 4 GiB, where 32-bit pointers reach),
 * read of 5 bytes, close, getpid. Writes its tid and the descriptor to
 * argv[1] ("TID FD"). For kernel_compat.sh.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static long call32(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c)
			 : "memory", "r8", "r9", "r10", "r11");
	return ret;
}

int main(int argc, char **argv)
{
	char *mem;
	long fd, n, pid;
	FILE *f;

	if (argc != 3 || strlen(argv[2]) >= 2048)
		return 2;
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		   -1, 0);
	if (mem == MAP_FAILED)
		return 3;
	strcpy(mem, argv[2]);
	fd = call32(295, AT_FDCWD, (long)(unsigned long)mem, O_RDONLY); /* i386 openat */
	n = call32(3, fd, (long)(unsigned long)mem + 2048, 5);		 /* read */
	call32(6, fd, 0, 0);						 /* close */
	pid = call32(20, 0, 0, 0);					 /* getpid */
	if (fd < 0 || n != 5 || pid != getpid())
		return 4;
	f = fopen(argv[1], "w");
	if (!f)
		return 5;
	fprintf(f, "%ld %ld\n", (long)syscall(SYS_gettid), fd);
	return fclose(f) ? 6 : 0;
}
