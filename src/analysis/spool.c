/*
 * spool.c - records kept in bounded memory, spilled to disk as sorted
 * runs and merged back (spool.h).
 *
 * Adding: records go to a buffer that grows up to the cap; a full buffer
 * is sorted (an index array, qsort_r with the position as the last key:
 * stable) and appended to the temporary file as one run. Reading: with
 * nothing spilled, the buffer itself (through the sorted index); else the
 * buffer is spilled as a last run, freed, and the runs are merged by a
 * binary heap of cursors, each reading its run through a buffer of its
 * share of the cap (ties go to the earlier run: stable).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/spool.h"

#define DEFAULT_CAP ((size_t)32 << 20)
#define STAGE_BYTES ((size_t)64 << 10) /* what a spill writes at a time */

static size_t cap_override;

struct run {
	uint64_t start, n; /* in records, in the file */
};

struct cursor {
	uint64_t pos, end; /* records of its run not yet read into buf: [pos, end) */
	char *buf;
	size_t have, at; /* records in buf, the next one */
};

struct an_spool {
	size_t sz;
	an_spool_cmp cmp;
	size_t cap_recs; /* records the memory buffer holds at the most */
	size_t cap_bytes;
	char *buf;
	uint32_t *idx; /* sorted spools: buf's order */
	size_t n, alloc;
	uint64_t count;
	int fd;
	uint64_t file_recs;
	struct run *runs;
	size_t nruns, runcap;
	int reading;
	struct cursor *cur; /* reading spilled runs: one per run */
	size_t *heap, nheap;
	size_t next_run; /* unsorted: the run being read */
	size_t mem_at;	 /* reading from memory: the next position */
	int pending;	 /* sorted, spilled: heap[0]'s record was returned */
	char err[160];
};

size_t an_spool_cap(void)
{
	const char *e = getenv("TRAX_ANALYZE_MEM");
	char *end;
	unsigned long long v;

	if (cap_override)
		return cap_override;
	if (!e || !*e)
		return DEFAULT_CAP;
	errno = 0;
	v = strtoull(e, &end, 10);
	if (errno || end == e)
		return DEFAULT_CAP;
	switch (*end) {
	case 'k':
	case 'K':
		v <<= 10;
		break;
	case 'm':
	case 'M':
		v <<= 20;
		break;
	case 'g':
	case 'G':
		v <<= 30;
		break;
	default:
		break;
	}
	return v ? (size_t)v : DEFAULT_CAP;
}

void an_spool_set_cap(size_t bytes)
{
	cap_override = bytes;
}

static int fail(struct an_spool *s, const char *what, int err)
{
	if (!s->err[0])
		snprintf(s->err, sizeof(s->err), "%s: %s", what, strerror(err));
	return -1;
}

struct an_spool *an_spool_new(size_t recsize, an_spool_cmp cmp)
{
	struct an_spool *s = calloc(1, sizeof(*s));
	size_t per;

	if (!s || !recsize) {
		free(s);
		return NULL;
	}
	s->sz = recsize;
	s->cmp = cmp;
	s->fd = -1;
	s->cap_bytes = an_spool_cap();
	per = recsize + (cmp ? sizeof(uint32_t) : 0);
	s->cap_recs = s->cap_bytes / per;
	if (s->cap_recs < 2)
		s->cap_recs = 2;
	if (s->cap_recs > UINT32_MAX)
		s->cap_recs = UINT32_MAX;
	return s;
}

static void free_cursors(struct an_spool *s)
{
	if (s->cur)
		for (size_t i = 0; i < s->nruns; i++)
			free(s->cur[i].buf);
	free(s->cur);
	free(s->heap);
	s->cur = NULL;
	s->heap = NULL;
	s->nheap = 0;
}

void an_spool_free(struct an_spool *s)
{
	if (!s)
		return;
	free_cursors(s);
	free(s->buf);
	free(s->idx);
	free(s->runs);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

uint64_t an_spool_count(const struct an_spool *s)
{
	return s->count;
}

size_t an_spool_runs(const struct an_spool *s)
{
	return s->nruns;
}

const char *an_spool_error(const struct an_spool *s)
{
	return s->err;
}

static int open_tmp(struct an_spool *s)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];

	if (!dir || !*dir)
		dir = "/tmp";
#ifdef O_TMPFILE
	s->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (s->fd >= 0)
		return 0;
#endif
	/* (file systems without O_TMPFILE) */
	snprintf(path, sizeof(path), "%s/trax-spool-XXXXXX", dir);
	s->fd = mkostemp(path, O_CLOEXEC);
	if (s->fd < 0)
		return fail(s, "cannot create a temporary file", errno);
	unlink(path);
	return 0;
}

static int write_all(struct an_spool *s, const char *p, size_t len)
{
	while (len) {
		ssize_t w = write(s->fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return fail(s, "cannot write the temporary file", w < 0 ? errno : ENOSPC);
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static int by_index(const void *a, const void *b, void *ctx)
{
	const struct an_spool *s = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = s->cmp(s->buf + (size_t)x * s->sz, s->buf + (size_t)y * s->sz);

	return c ? c : (x > y) - (x < y);
}

static void sort_buffer(struct an_spool *s)
{
	if (!s->cmp || !s->n)
		return;
	for (size_t i = 0; i < s->n; i++)
		s->idx[i] = (uint32_t)i;
	qsort_r(s->idx, s->n, sizeof(*s->idx), by_index, s);
}

/* The buffer (sorted) appended to the file as a run. */
static int spill(struct an_spool *s)
{
	char *stage = NULL;
	size_t per = STAGE_BYTES / s->sz, k = 0;
	int rc = 0;

	if (!s->n)
		return 0;
	if (s->fd < 0 && open_tmp(s))
		return -1;
	if (s->nruns == s->runcap) {
		size_t c = s->runcap ? s->runcap * 2 : 16;
		struct run *v = realloc(s->runs, c * sizeof(*v));

		if (!v)
			return fail(s, "out of memory", ENOMEM);
		s->runs = v;
		s->runcap = c;
	}
	if (!s->cmp) {
		rc = write_all(s, s->buf, s->n * s->sz);
	} else {
		if (!per)
			per = 1;
		if (!(stage = malloc(per * s->sz)))
			return fail(s, "out of memory", ENOMEM);
		sort_buffer(s);
		for (size_t i = 0; i < s->n && !rc; i++) {
			memcpy(stage + k * s->sz, s->buf + (size_t)s->idx[i] * s->sz, s->sz);
			if (++k == per || i + 1 == s->n) {
				rc = write_all(s, stage, k * s->sz);
				k = 0;
			}
		}
		free(stage);
	}
	if (rc)
		return -1;
	s->runs[s->nruns].start = s->file_recs;
	s->runs[s->nruns].n = s->n;
	s->nruns++;
	s->file_recs += s->n;
	s->n = 0;
	return 0;
}

int an_spool_add(struct an_spool *s, const void *rec)
{
	if (s->err[0])
		return -1;
	if (s->reading)
		return fail(s, "record added while reading", EINVAL);
	if (s->n == s->alloc) {
		if (s->alloc == s->cap_recs) {
			if (spill(s))
				return -1;
		} else {
			size_t c = s->alloc ? s->alloc * 2 : 256;
			char *b;

			if (c > s->cap_recs)
				c = s->cap_recs;
			if (!(b = realloc(s->buf, c * s->sz)))
				return fail(s, "out of memory", ENOMEM);
			s->buf = b;
			if (s->cmp) {
				uint32_t *x = realloc(s->idx, c * sizeof(*x));

				if (!x)
					return fail(s, "out of memory", ENOMEM);
				s->idx = x;
			}
			s->alloc = c;
		}
	}
	memcpy(s->buf + s->n * s->sz, rec, s->sz);
	s->n++;
	s->count++;
	return 0;
}

/* Reads the next records of c's run into its buffer: 1, 0 at the run's end, -1 on error. */
static int refill(struct an_spool *s, struct cursor *c, size_t bufrecs)
{
	size_t want, got = 0;
	char *p = c->buf;

	c->at = c->have = 0;
	if (c->pos == c->end)
		return 0;
	want = c->end - c->pos < bufrecs ? (size_t)(c->end - c->pos) : bufrecs;
	while (got < want * s->sz) {
		ssize_t r =
		    pread(s->fd, p + got, want * s->sz - got, (off_t)(c->pos * s->sz + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return fail(s, "cannot read the temporary file back", r < 0 ? errno : EIO);
		got += (size_t)r;
	}
	c->pos += want;
	c->have = want;
	return 1;
}

static size_t cursor_recs(const struct an_spool *s)
{
	size_t per = s->cap_bytes / (s->nruns ? s->nruns : 1) / s->sz;

	return per ? per : 1;
}

static const void *peek(const struct an_spool *s, size_t i)
{
	return s->cur[i].buf + s->cur[i].at * s->sz;
}

/* heap[a] before heap[b]: its record first, or as one and from an earlier run */
static int before(const struct an_spool *s, size_t a, size_t b)
{
	int c = s->cmp(peek(s, s->heap[a]), peek(s, s->heap[b]));

	return c ? c < 0 : s->heap[a] < s->heap[b];
}

static void heap_down(struct an_spool *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i, t;

		if (l < s->nheap && before(s, l, m))
			m = l;
		if (r < s->nheap && before(s, r, m))
			m = r;
		if (m == i)
			return;
		t = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = t;
		i = m;
	}
}

int an_spool_rewind(struct an_spool *s)
{
	size_t per;

	if (s->err[0])
		return -1;
	if (!s->reading) {
		s->reading = 1;
		/* spilled: the rest is a run too, and the memory goes to the cursors */
		if (s->nruns && spill(s))
			return -1;
		if (s->nruns) {
			free(s->buf);
			free(s->idx);
			s->buf = NULL;
			s->idx = NULL;
			s->alloc = 0;
		} else {
			sort_buffer(s);
		}
	}
	s->mem_at = 0;
	s->next_run = 0;
	if (!s->nruns)
		return 0;
	per = cursor_recs(s);
	if (!s->cur) {
		if (!(s->cur = calloc(s->nruns, sizeof(*s->cur))) ||
		    !(s->heap = malloc(s->nruns * sizeof(*s->heap))))
			return fail(s, "out of memory", ENOMEM);
		for (size_t i = 0; i < s->nruns; i++)
			if (!(s->cur[i].buf = malloc(per * s->sz)))
				return fail(s, "out of memory", ENOMEM);
	}
	s->nheap = 0;
	s->pending = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		s->cur[i].pos = s->runs[i].start;
		s->cur[i].end = s->runs[i].start + s->runs[i].n;
		s->cur[i].have = s->cur[i].at = 0;
		/* unsorted: read run after run, as next() comes to them */
		if (!s->cmp)
			continue;
		if (refill(s, &s->cur[i], per) < 0)
			return -1;
		s->heap[s->nheap++] = i;
	}
	if (s->cmp)
		for (size_t i = s->nheap / 2; i-- > 0;)
			heap_down(s, i);
	return 0;
}

static const void *next_unsorted(struct an_spool *s, size_t per)
{
	while (s->next_run < s->nruns) {
		struct cursor *c = &s->cur[s->next_run];

		if (c->at < c->have)
			return c->buf + c->at++ * s->sz;
		switch (refill(s, c, per)) {
		case 1:
			break;
		case 0:
			s->next_run++;
			break;
		default:
			return NULL;
		}
	}
	return NULL;
}

const void *an_spool_next(struct an_spool *s)
{
	struct cursor *c;
	size_t per, top;

	if (s->err[0] || !s->reading)
		return NULL;
	if (!s->nruns) {
		if (s->mem_at == s->n)
			return NULL;
		if (s->cmp)
			return s->buf + (size_t)s->idx[s->mem_at++] * s->sz;
		return s->buf + s->mem_at++ * s->sz;
	}
	per = cursor_recs(s);
	if (!s->cmp)
		return next_unsorted(s, per);
	if (!s->nheap)
		return NULL;
	/* the cursor last returned from moves past its record now (it stayed valid until here) */
	if (s->pending) {
		s->pending = 0;
		c = &s->cur[s->heap[0]];
		if (++c->at == c->have) {
			int r = refill(s, c, per);

			if (r < 0)
				return NULL;
			if (!r)
				s->heap[0] = s->heap[--s->nheap];
		}
		if (s->nheap)
			heap_down(s, 0);
	}
	if (!s->nheap)
		return NULL;
	top = s->heap[0];
	s->pending = 1;
	return peek(s, top);
}
