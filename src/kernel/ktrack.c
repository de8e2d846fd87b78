/*
 * ktrack.c - the uid and gid trackers on tracepoints (ktrack.h): a scan
 * of /proc/PID/task/TID/status for set_event_pid, and a per-reader cache
 * of each thread's ids for the check at conversion.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/ktrack.h"

struct idset {
	bool on; /* false: every id */
	int *ids;
	unsigned int n;
};

struct ktrack {
	char proc[256];
	pthread_mutex_t lock;
	struct idset sets[2]; /* KTRACK_UID, KTRACK_GID */
	int *pids;
	unsigned int npids;
	bool active; /* sets[0].on || sets[1].on (read without the lock) */
};

/* A thread's ids as last read, in a direct-mapped table (a collision re-reads). */
#define CACHE_SLOTS 4096
struct ktrack_cache {
	struct {
		int32_t tid;
		bool known; /* /proc had it */
		uint32_t uid, gid;
		uint64_t ts; /* trace time of the read */
	} e[CACHE_SLOTS];
};

struct ktrack *ktrack_new(const char *proc)
{
	struct ktrack *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	snprintf(t->proc, sizeof(t->proc), "%s", proc);
	pthread_mutex_init(&t->lock, NULL);
	return t;
}

void ktrack_free(struct ktrack *t)
{
	if (!t)
		return;
	free(t->sets[0].ids);
	free(t->sets[1].ids);
	free(t->pids);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

void ktrack_cache_free(struct ktrack_cache *c)
{
	free(c);
}

static bool in_set(const struct idset *s, uint32_t id)
{
	if (!s->on)
		return true;
	for (unsigned int i = 0; i < s->n; i++)
		if ((uint32_t)s->ids[i] == id)
			return true;
	return false;
}

int ktrack_change(struct ktrack *t, int kind, bool add, const int *ids, unsigned int n, bool all,
		  int *bad)
{
	struct idset *s;
	int r = 0;

	if (kind != KTRACK_UID && kind != KTRACK_GID)
		return -EINVAL;
	pthread_mutex_lock(&t->lock);
	s = &t->sets[kind];
	if (all) {
		/* track --all: every id; untrack --all: none */
		s->on = !add;
		s->n = 0;
	} else if (add) {
		unsigned int keep = s->on ? s->n : 0;
		int *grown = realloc(s->ids, (keep + n + 1) * sizeof(int));

		if (!grown) {
			r = -ENOMEM;
			goto out;
		}
		s->ids = grown;
		s->n = keep; /* from "every id": just these */
		s->on = true;
		for (unsigned int i = 0; i < n; i++)
			if (!in_set(s, (uint32_t)ids[i]))
				s->ids[s->n++] = ids[i];
	} else {
		for (unsigned int i = 0; i < n; i++) {
			unsigned int k;

			for (k = 0; s->on && k < s->n && s->ids[k] != ids[i]; k++)
				;
			if (!s->on || k == s->n) {
				if (bad)
					*bad = ids[i];
				r = -ENOENT;
				goto out;
			}
			s->ids[k] = s->ids[--s->n];
		}
	}
out:
	__atomic_store_n(&t->active, t->sets[0].on || t->sets[1].on, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&t->lock);
	return r;
}

bool ktrack_get(struct ktrack *t, int kind, int **ids, unsigned int *n)
{
	bool on;

	*ids = NULL;
	*n = 0;
	pthread_mutex_lock(&t->lock);
	on = t->sets[kind].on;
	if (on && t->sets[kind].n) {
		*ids = malloc(t->sets[kind].n * sizeof(int));
		if (*ids) {
			memcpy(*ids, t->sets[kind].ids, t->sets[kind].n * sizeof(int));
			*n = t->sets[kind].n;
		}
	}
	pthread_mutex_unlock(&t->lock);
	return on;
}

int ktrack_set_pids(struct ktrack *t, const int *pids, unsigned int npids)
{
	int *copy = NULL;

	if (npids) {
		copy = malloc(npids * sizeof(int));
		if (!copy)
			return -ENOMEM;
		memcpy(copy, pids, npids * sizeof(int));
	}
	pthread_mutex_lock(&t->lock);
	free(t->pids);
	t->pids = copy;
	t->npids = npids;
	pthread_mutex_unlock(&t->lock);
	return 0;
}

bool ktrack_active(const struct ktrack *t)
{
	return __atomic_load_n(&t->active, __ATOMIC_ACQUIRE);
}

/* The real uid and gid of a thread from its status file. 0, or -1 (gone, unreadable). */
static int ids_read(const char *path, uint32_t *uid, uint32_t *gid)
{
	char buf[4096], *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int found = 0;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "Uid:\t1000\t1000\t1000\t1000": real, effective, saved, fs */
	if ((p = strstr(buf, "\nUid:")) && sscanf(p + 5, "%u", uid) == 1)
		found++;
	if ((p = strstr(buf, "\nGid:")) && sscanf(p + 5, "%u", gid) == 1)
		found++;
	return found == 2 ? 0 : -1;
}

/* Whether ids pass the sets (locked). */
static bool ids_pass(const struct ktrack *t, uint32_t uid, uint32_t gid)
{
	return in_set(&t->sets[KTRACK_UID], uid) && in_set(&t->sets[KTRACK_GID], gid);
}

static bool pid_allowed(const struct ktrack *t, int pid)
{
	if (!t->npids)
		return true;
	for (unsigned int i = 0; i < t->npids; i++)
		if (t->pids[i] == pid)
			return true;
	return false;
}

static int numeric(const char *s)
{
	int v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/* Appends " TID" to a growing text. 0, or -ENOMEM. */
static int text_add(char **text, size_t *len, size_t *cap, int tid)
{
	if (*len + 16 > *cap) {
		size_t nc = *cap ? *cap * 2 : 4096;
		char *n = realloc(*text, nc);

		if (!n)
			return -ENOMEM;
		*text = n;
		*cap = nc;
	}
	*len += (size_t)snprintf(*text + *len, *cap - *len, "%s%d", *len ? " " : "", tid);
	return 0;
}

/* "TID TID ...": the live threads that pass (locked). NULL when out of memory. */
static char *scan(const struct ktrack *t)
{
	char path[512], *text = NULL;
	size_t len = 0, cap = 0;
	struct dirent *pe, *te;
	DIR *pd = opendir(t->proc), *td;

	if (text_add(&text, &len, &cap, 0)) /* the idle tasks (uid 0), and never an empty list */
		goto fail;
	if (!pd)
		return text;
	while ((pe = readdir(pd))) {
		int pid = numeric(pe->d_name);

		if (pid <= 0 || !pid_allowed(t, pid))
			continue;
		snprintf(path, sizeof(path), "%s/%d/task", t->proc, pid);
		if (!(td = opendir(path)))
			continue;
		while ((te = readdir(td))) {
			int tid = numeric(te->d_name);
			uint32_t uid, gid;

			if (tid <= 0)
				continue;
			snprintf(path, sizeof(path), "%s/%d/task/%d/status", t->proc, pid, tid);
			if (ids_read(path, &uid, &gid) || !ids_pass(t, uid, gid))
				continue;
			if (text_add(&text, &len, &cap, tid)) {
				closedir(td);
				goto fail;
			}
		}
		closedir(td);
	}
	closedir(pd);
	pd = NULL;
	/* a whole line: appended lists stay apart */
	if (len + 2 > cap) {
		char *n = realloc(text, len + 2);

		if (!n)
			goto fail;
		text = n;
	}
	text[len++] = '\n';
	text[len] = '\0';
	return text;
fail:
	if (pd)
		closedir(pd);
	free(text);
	return NULL;
}

/*
 * Adds the pids of text to the instance's set_event_pid (O_APPEND): the
 * kernel builds the new list aside. Rewriting the file (a truncating open)
 * empties the list first, and this kernel records any thread's events for
 * a while after (checked: execs of unlisted processes recorded during
 * rewrites every 50 ms, none during appends).
 */
static int pids_append(const struct tracefs_instance *in, const char *text)
{
	char path[600];
	size_t len = strlen(text), off = 0;
	int fd, r = 0;

	snprintf(path, sizeof(path), "%s/set_event_pid", in->path);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)n;
	}
	close(fd);
	return r;
}

int ktrack_apply(struct ktrack *t, struct tracefs_instance *in, bool add_only)
{
	char *text;
	int r;

	pthread_mutex_lock(&t->lock);
	if (!t->active) {
		int *pids = NULL;
		unsigned int npids = t->npids;

		if (npids && (pids = malloc(npids * sizeof(int))))
			memcpy(pids, t->pids, npids * sizeof(int));
		pthread_mutex_unlock(&t->lock);
		if (npids && !pids)
			return -ENOMEM;
		tracefs_write(in, "options/event-fork", "0");
		r = tracefs_set_pids(in, pids, npids);
		free(pids);
		return r;
	}
	text = scan(t);
	pthread_mutex_unlock(&t->lock);
	if (!text)
		return -ENOMEM;
	/* children of the threads found, between two scans */
	tracefs_write(in, "options/event-fork", "1");
	r = add_only ? pids_append(in, text) : tracefs_write(in, "set_event_pid", text);
	free(text);
	return r;
}

bool ktrack_pass(struct ktrack *t, struct ktrack_cache **cache, int32_t tid, uint64_t ts)
{
	struct ktrack_cache *c = *cache;
	unsigned int slot;
	bool pass;

	if (!ktrack_active(t))
		return true;
	if (!c && !(c = *cache = calloc(1, sizeof(*c))))
		return true;
	slot = (uint32_t)tid % CACHE_SLOTS;
	if (c->e[slot].tid != tid || !c->e[slot].ts || ts - c->e[slot].ts >= KTRACK_SCAN_NS ||
	    ts < c->e[slot].ts) {
		char path[300];

		c->e[slot].tid = tid;
		c->e[slot].ts = ts ? ts : 1;
		c->e[slot].uid = c->e[slot].gid = 0; /* tid 0: the idle tasks run as root */
		c->e[slot].known = true;
		if (tid > 0) {
			snprintf(path, sizeof(path), "%s/%d/status", t->proc, tid);
			c->e[slot].known = ids_read(path, &c->e[slot].uid, &c->e[slot].gid) == 0;
		}
	}
	if (!c->e[slot].known)
		return true;
	pthread_mutex_lock(&t->lock);
	pass = ids_pass(t, c->e[slot].uid, c->e[slot].gid);
	pthread_mutex_unlock(&t->lock);
	return pass;
}
