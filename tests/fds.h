/*
 * fds.h - the descriptors a test leaves open: the number open below 256,
 * taken before and after what must close everything it opened.
 */
#ifndef TRAX_TESTS_FDS_H
#define TRAX_TESTS_FDS_H

#include <fcntl.h>

static inline int count_open_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 256; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

#endif /* TRAX_TESTS_FDS_H */
