/* shm.h - shared memory regions backed by memfd, mappable by other processes. */
#ifndef TRAX_SHM_H
#define TRAX_SHM_H

#include <stddef.h>

struct trax_shm {
	int fd;
	void *addr;
	size_t size;
};

/*
 * Creates and maps a zeroed region; returns 0 or -errno. The memfd is
 * sealed against shrinking (F_SEAL_SHRINK, then F_SEAL_SEAL): whoever gets
 * it can never cut pages out from under the mappings of the others.
 */
int trax_shm_create(struct trax_shm *shm, const char *name, size_t size);
/*
 * Whether fd, received from another process, is a memfd sealed against
 * shrinking and at least size bytes long: 0, or -EINVAL. Mapping one that
 * is not would let its sender raise SIGBUS in our threads at will.
 */
int trax_shm_check(int fd, size_t size);
/* Maps a region received from its creator. */
int trax_shm_map(struct trax_shm *shm, int fd, size_t size);
void trax_shm_destroy(struct trax_shm *shm);

#endif /* TRAX_SHM_H */
