/*
 * state.c - what every part of traxd shares: its state (struct traxd), its
 * log, and accepting a connection at the descriptor limit. Apart from
 * main.c so that the daemon's other files link without it (the unit tests).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon/traxd.h"

struct traxd traxd;
bool traxd_verbose;

void traxd_log(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!traxd_verbose)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "traxd[%d]: %s\n", (int)getpid(), line);
}

int traxd_accept(int listen_fd)
{
	int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC), err;

	if (fd >= 0)
		return fd;
	err = errno;
	if ((err == EMFILE || err == ENFILE) && traxd.spare_fd >= 0) {
		/* refused, but taken off the backlog: the listener does not stay readable */
		close(traxd.spare_fd);
		fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0)
			close(fd);
		traxd.spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		traxd_log("out of descriptors: a connection refused");
	}
	return -err;
}
