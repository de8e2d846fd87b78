/*
 * kthreads.c - the thread cache of the kernel domain's contexts (see
 * kthreads.h): an open-addressing table of tids, read from
 * /proc/TID/stat and /proc/TID/status.
 */
#include "kernel/kthreads.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KTHREADS_SLOTS 65536u /* a power of two; entries are reused when full */

struct kthreads {
	char proc[256];
	struct kthread_info *slots;
};

struct kthreads *kthreads_new(const char *proc)
{
	struct kthreads *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->slots = calloc(KTHREADS_SLOTS, sizeof(*c->slots));
	if (!c->slots) {
		free(c);
		return NULL;
	}
	snprintf(c->proc, sizeof(c->proc), "%s", proc ? proc : "/proc");
	return c;
}

void kthreads_free(struct kthreads *c)
{
	if (!c)
		return;
	free(c->slots);
	free(c);
}

static long read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* The last number of a "Key:\tA\tB..." line of status (the innermost namespace's). */
static int status_last(const char *status, const char *key, int32_t *out)
{
	const char *p = strstr(status, key), *end;
	long v;
	char *e;
	int got = 0;

	if (!p)
		return 0;
	p += strlen(key);
	end = strchr(p, '\n');
	if (!end)
		end = p + strlen(p);
	while (p < end) {
		v = strtol(p, &e, 10);
		if (e == p)
			break;
		*out = (int32_t)v;
		got = 1;
		p = e;
	}
	return got;
}

static void read_thread(struct kthreads *c, struct kthread_info *t)
{
	char path[320], buf[4096];
	const char *open_paren, *close_paren;
	long prio = 0, nice = 0, ppid = -1;
	size_t len;
	int field;
	char *p, *e;

	snprintf(path, sizeof(path), "%s/%d/stat", c->proc, t->tid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return;
	/* "tid (comm) state ppid ...": the name may hold spaces and parentheses */
	open_paren = strchr(buf, '(');
	close_paren = strrchr(buf, ')');
	if (!open_paren || !close_paren || close_paren < open_paren)
		return;
	len = (size_t)(close_paren - open_paren - 1);
	memset(t->comm, 0, sizeof(t->comm));
	memcpy(t->comm, open_paren + 1, len < sizeof(t->comm) ? len : sizeof(t->comm) - 1);
	p = (char *)close_paren + 2;
	/* field 3 is the state; 4 ppid; 18 priority; 19 nice */
	for (field = 3; *p && field <= 19; field++) {
		while (*p == ' ')
			p++;
		if (field == 3) {
			p++;
			continue;
		}
		long v = strtol(p, &e, 10);

		if (e == p)
			return;
		if (field == 4)
			ppid = v;
		else if (field == 18)
			prio = v;
		else if (field == 19)
			nice = v;
		p = e;
	}
	t->ppid = (int32_t)ppid;
	/* /proc's priority is the kernel's prio - 100, which is what LTTng records */
	t->prio = (int32_t)prio;
	t->nice = (int32_t)nice;
	t->pid = t->tid;
	t->vpid = t->tid;
	t->vtid = t->tid;
	snprintf(path, sizeof(path), "%s/%d/status", c->proc, t->tid);
	if (read_file(path, buf, sizeof(buf)) > 0) {
		status_last(buf, "Tgid:", &t->pid);
		t->vpid = t->pid;
		status_last(buf, "NStgid:", &t->vpid);
		status_last(buf, "NSpid:", &t->vtid);
	}
	t->known = 1;
}

const struct kthread_info *kthreads_get(struct kthreads *c, int32_t tid, uint64_t ts)
{
	uint32_t h = ((uint32_t)tid * 2654435761u) & (KTHREADS_SLOTS - 1);
	struct kthread_info *t, *free_slot = NULL;

	for (unsigned int probe = 0; probe < 8; probe++) {
		t = &c->slots[(h + probe) & (KTHREADS_SLOTS - 1)];
		if (t->read_ts && t->tid == tid) {
			if (ts - t->read_ts >= KTHREADS_REFRESH_NS && ts > t->read_ts) {
				t->read_ts = ts;
				read_thread(c, t);
			}
			return t;
		}
		if (!t->read_ts) {
			free_slot = t;
			break;
		}
	}
	/* a new entry (or the first slot of its run, reused) */
	t = free_slot ? free_slot : &c->slots[h];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = t->ppid = t->vpid = t->vtid = -1;
	t->read_ts = ts ? ts : 1;
	if (tid == 0) {
		/* the idle task: no /proc entry */
		t->pid = t->ppid = t->vpid = t->vtid = 0;
		t->prio = 20;
		memcpy(t->comm, "swapper", 8);
		t->known = 1;
		return t;
	}
	/* gone already: it stays unknown (-1) until the next refresh tries again */
	read_thread(c, t);
	return t;
}
