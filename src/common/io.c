/*
 * io.c - writing whole buffers to file descriptors (see io.h).
 */
#include "common/io.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
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

int trax_mkdirs(const char *path, mode_t mode)
{
	char tmp[4096];
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(tmp, path, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (tmp[i] == '/' || tmp[i] == 0) {
			char c = tmp[i];

			tmp[i] = 0;
			if (mkdir(tmp, mode) < 0 && errno != EEXIST)
				return -errno;
			tmp[i] = c;
		}
	}
	return 0;
}
