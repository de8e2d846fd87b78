/*
 * io.h - writing whole buffers to file descriptors.
 */
#ifndef TRAX_COMMON_IO_H
#define TRAX_COMMON_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Writes all len bytes of buf to fd, going on after short writes and
 * EINTR: 0, or -errno (-EIO when write(2) returns 0). With
 * drop_direct, a write that O_DIRECT makes fail with EINVAL (a file system
 * or an offset that refuses it) clears O_DIRECT on fd and is tried again.
 */
int trax_write_all(int fd, const void *buf, size_t len, bool drop_direct);

/* Makes path and its missing parents with mode. 0, or -errno. */
int trax_mkdirs(const char *path, mode_t mode);

#endif /* TRAX_COMMON_IO_H */
