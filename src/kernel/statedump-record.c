/*
 * statedump-record.c - building and sending the state dump's records, and
 * reading the files it is made from (statedump-record.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel/statedump-record.h"

/* No /proc file the dump reads is near this; a larger one is not what it should be. */
#define SD_FILE_MAX (256l << 20)

void sd_put(struct sd_ctx *c, const void *bytes, size_t n)
{
	if (c->overflow || n > sizeof(c->payload) - c->len) {
		c->overflow = true;
		return;
	}
	memcpy(c->payload + c->len, bytes, n);
	c->len += n;
}

void sd_put_str(struct sd_ctx *c, const char *s)
{
	sd_put(c, s, strlen(s) + 1);
}

int sd_emit(struct sd_ctx *c, struct kevent_class *cls)
{
	struct timespec now;
	struct kevent_record r;
	int ret;

	if (c->err || c->overflow)
		return c->err;
	clock_gettime(CLOCK_MONOTONIC, &now);
	r = (struct kevent_record){
	    .cls = cls,
	    .ts = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec,
	    .cpu = c->cpu,
	    .tid = c->tid,
	    .payload = c->payload,
	    .len = c->len,
	};
	ret = c->sink(c->arg, &r);
	if (ret < 0)
		c->err = ret;
	return c->err;
}

const char *sd_path(struct sd_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(c->path, sizeof(c->path), fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < sizeof(c->path) ? c->path : NULL;
}

long sd_read(struct sd_ctx *c, const char *path)
{
	long len = 0;
	int fd;

	if (!path || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	for (;;) {
		if ((size_t)len + 4096 + 1 > c->file_cap) {
			size_t cap = c->file_cap ? c->file_cap * 2 : 16384;
			char *p;

			if (cap > (size_t)SD_FILE_MAX || !(p = realloc(c->file, cap))) {
				len = -1;
				break;
			}
			c->file = p;
			c->file_cap = cap;
		}
		ssize_t n = read(fd, c->file + len, c->file_cap - (size_t)len - 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			len = -1;
			break;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	if (len >= 0)
		c->file[len] = '\0';
	return len;
}

long sd_readlink(const char *path, char *buf, size_t size)
{
	ssize_t n;

	if (!path || size < 2)
		return -1;
	n = readlink(path, buf, size - 1);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

int32_t *sd_numeric_entries(const char *dir, size_t *n)
{
	DIR *d = dir ? opendir(dir) : NULL;
	int32_t *v = NULL;
	size_t cap = 0;
	struct dirent *e;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		char *end;
		long id;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		errno = 0;
		id = strtol(e->d_name, &end, 10);
		if (*end || errno || id > INT32_MAX)
			continue;
		if (*n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			int32_t *nv = realloc(v, ncap * sizeof(*v));

			if (!nv)
				break; /* what was read is dumped */
			v = nv;
			cap = ncap;
		}
		v[(*n)++] = (int32_t)id;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_i32);
	return v;
}
