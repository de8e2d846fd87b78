/*
 * io.c - writing whole buffers to file descriptors (see io.h).
 */
#include "common/io.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int trax_write_all(int fd, const void *buf, size_t len, bool drop_direct)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			int flags;

			if (errno == EINTR)
				continue;
			if (drop_direct && errno == EINVAL && (flags = fcntl(fd, F_GETFL)) >= 0 &&
			    (flags & O_DIRECT) && fcntl(fd, F_SETFL, flags & ~O_DIRECT) == 0)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
