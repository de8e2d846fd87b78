/* shm.h - shared memory regions backed by memfd, mappable by other processes. */
#ifndef TRAX_SHM_H
#define TRAX_SHM_H

#include <stddef.h>

struct trax_shm {
	int fd;
	void *addr;
	size_t size;
};

/* Creates and maps a zeroed region; returns 0 or -errno. */
int trax_shm_create(struct trax_shm *shm, const char *name, size_t size);
/* Maps a region received from its creator. */
int trax_shm_map(struct trax_shm *shm, int fd, size_t size);
void trax_shm_destroy(struct trax_shm *shm);

#endif /* TRAX_SHM_H */
