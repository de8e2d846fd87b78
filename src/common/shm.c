/* shm.c - memfd-backed shared memory. */
#include "common/shm.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int trax_shm_create(struct trax_shm *shm, const char *name, size_t size)
{
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	int err;

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)size) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	err = trax_shm_map(shm, fd, size);
	if (err)
		close(fd);
	return err;
}

int trax_shm_check(int fd, size_t size)
{
	struct stat st;
	int seals = fcntl(fd, F_GET_SEALS);

	if (seals < 0 || !(seals & F_SEAL_SHRINK) || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < 0 || (uint64_t)st.st_size < size)
		return -EINVAL;
	return 0;
}

int trax_shm_map(struct trax_shm *shm, int fd, size_t size)
{
	/*
	 * Populated now: a page fault on first touch would otherwise land on
	 * a producer's fast path (a kernel entry every 4 KiB of records).
	 */
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);

	if (p == MAP_FAILED)
		return -errno;
	shm->fd = fd;
	shm->addr = p;
	shm->size = size;
	return 0;
}

void trax_shm_destroy(struct trax_shm *shm)
{
	if (shm->addr)
		munmap(shm->addr, shm->size);
	if (shm->fd >= 0)
		close(shm->fd);
	shm->addr = NULL;
	shm->fd = -1;
}
