/*
 * text-writer.c - writer thread and O_DIRECT writes of the text output
 * (see text-writer.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "common/io.h"
#include "reader/text-writer.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/text-buf.h"

/* Direct I/O granule: file offsets, lengths and addresses are multiples of it. */
#define DIO_ALIGN ((size_t)4096)
/* One buffer filled while the others are queued or being written. */
#define NSLOTS 8
/* Below this a buffer is mostly head and tail: plain writes. */
#define MIN_CAP ((size_t)64 * 1024)

/*
 * Buffers are whole huge pages where the kernel gives them (MADV_HUGEPAGE):
 * a direct write from one is a few large segments instead of one per 4 KiB
 * page, and this guest's disk then took 1 GB in 0.36-0.40 s (2 or 4 MiB
 * writes) against 0.64-0.70 s from ordinary pages (measured alternately).
 */
#define HUGE_PAGE ((size_t)2 << 20)

struct slot {
	char *base; /* HUGE_PAGE-aligned */
	size_t size;
	void *map; /* the mapping base is in */
	size_t map_len;
};

/* Bytes handed to the writer thread. */
struct chunk {
	const char *p;
	size_t n;
	int slot;
};

struct ctf_text_writer {
	int fd;	      /* the caller's descriptor, to a regular file */
	int dfd;      /* O_DIRECT description of the same file, -1: none (the writer closes it) */
	bool append;  /* fd has O_APPEND: writes go at the end of the file */
	bool engaged; /* past the first full buffer */
	bool threaded;
	pthread_t thread;

	pthread_mutex_t mu; /* guards what follows, up to the formatter's fields */
	pthread_cond_t work, done;
	struct chunk q[NSLOTS];
	unsigned qhead, qn;
	unsigned inflight; /* chunks queued or being written */
	bool busy[NSLOTS];
	bool direct; /* dfd still in use (the formatter carries tails over) */
	bool quit;
	int error; /* the first write error; later chunks are dropped */

	/* formatter side */
	struct slot slots[NSLOTS];
	int cur;	   /* slot b->data is in */
	size_t shift;	   /* b->data - slots[cur].base */
	size_t carried;	   /* leading bytes of b->data handed over before */
	bool off_known;	   /* next_off is right (not after a flush: stderr may write) */
	uint64_t next_off; /* file offset of b->data[0] when off_known */
};

static size_t round_up(size_t n)
{
	return (n + DIO_ALIGN - 1) & ~(DIO_ALIGN - 1);
}

/*
 * Writes n bytes at the descriptor's offset (the end of the file with
 * O_APPEND) and leaves the offset after them: blocks at aligned offsets from
 * aligned memory through dfd, the rest through fd.
 */
static int write_file(struct ctf_text_writer *w, const char *p, size_t n)
{
	uint64_t off;
	size_t done = 0;
	int err = 0;

	if (w->dfd < 0)
		return -trax_write_all(w->fd, p, n, false); /* a plain write(2) of everything */
	if (w->append) {
		struct stat st;

		if (fstat(w->fd, &st))
			return errno;
		off = (uint64_t)st.st_size;
	} else {
		/*
		 * Moves the offset past the range first, atomically: whoever else
		 * writes through the description (stderr with 2>&1) writes after it,
		 * as after a write(2).
		 */
		off_t end = lseek(w->fd, (off_t)n, SEEK_CUR);

		if (end < 0)
			return errno;
		off = (uint64_t)end - n;
	}
	while (done < n) {
		const char *q = p + done;
		uint64_t o = off + done;
		size_t left = n - done, len = left, head = (DIO_ALIGN - o % DIO_ALIGN) % DIO_ALIGN;
		bool matched = w->dfd >= 0 && (uintptr_t)q % DIO_ALIGN == o % DIO_ALIGN;
		ssize_t r;

		if (matched && !head && left >= DIO_ALIGN) {
			r = pwrite(w->dfd, q, left & ~(DIO_ALIGN - 1), (off_t)o);
			if (r <= 0) {
				if (r < 0 && errno == EINTR)
					continue;
				/*
				 * Refused (EINVAL: no direct I/O here) or failed:
				 * plain writes from here on, which report a real
				 * error (ENOSPC, EIO) at the byte write(2) would.
				 */
				close(w->dfd);
				w->dfd = -1;
				continue;
			}
		} else {
			if (matched && head && head < left)
				len = head; /* up to the first aligned offset */
			/* with O_APPEND at the end of the file, which is o */
			r = pwrite(w->fd, q, len, (off_t)o);
			if (r < 0) {
				if (errno == EINTR)
					continue;
				err = errno;
				break;
			}
			if (r == 0) {
				err = EIO;
				break;
			}
		}
		done += (size_t)r;
	}
	/* pwrite() left fd's offset alone: where write(2) would have put it */
	if (done < n || w->append)
		lseek(w->fd, (off_t)(off + done), SEEK_SET);
	return err;
}

/* Called with mu held: c written (or dropped after an error). */
static void chunk_done(struct ctf_text_writer *w, const struct chunk *c, int err)
{
	if (err && !w->error)
		w->error = err;
	w->direct = w->dfd >= 0;
	w->busy[c->slot] = false;
	w->inflight--;
	pthread_cond_broadcast(&w->done);
}

static void *writer_main(void *arg)
{
	struct ctf_text_writer *w = arg;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->qn && !w->quit)
			pthread_cond_wait(&w->work, &w->mu);
		if (!w->qn)
			break;
		struct chunk c = w->q[w->qhead];
		int err = w->error;

		w->qhead = (w->qhead + 1) % NSLOTS;
		w->qn--;
		pthread_mutex_unlock(&w->mu);
		if (!err)
			err = write_file(w, c.p, c.n);
		pthread_mutex_lock(&w->mu);
		chunk_done(w, &c, err);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* A buffer of at least size bytes, a whole number of huge pages. */
static int alloc_slot(struct slot *s, size_t size)
{
	size_t len = (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	char *m =
	    mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return -1;
	s->map = m;
	s->map_len = len + HUGE_PAGE;
	s->base = (char *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	s->size = len;
	madvise(s->base, len, MADV_HUGEPAGE); /* without it (no THP): ordinary pages */
	return 0;
}

static void free_slot(struct slot *s)
{
	if (s->map)
		munmap(s->map, s->map_len);
	s->map = NULL;
	s->base = NULL;
}

/* The offset the next write(2) would write at (the formatter's side, writer idle). */
static uint64_t current_offset(const struct ctf_text_writer *w)
{
	if (w->append) {
		struct stat st;

		return fstat(w->fd, &st) ? 0 : (uint64_t)st.st_size;
	}
	off_t o = lseek(w->fd, 0, SEEK_CUR);

	return o < 0 ? 0 : (uint64_t)o;
}

/*
 * Whether a writer pays off: a regular file (through the page cache, writes
 * cost as much as formatting). Not a terminal (a full buffer is written at
 * once, as before), a pipe or /dev/null: measured, a thread made
 * `trax view | wc -l` no faster.
 */
static bool wanted(const struct stat *st, int flags)
{
	/* read-only or O_DIRECT already: write(2) as before, with its errors */
	if ((flags & O_ACCMODE) == O_RDONLY || (flags & O_DIRECT))
		return false;
	return S_ISREG(st->st_mode);
}

/* fd's file is also stderr's (2>&1, or 2>> on the same file). */
static bool same_file_as_stderr(int fd)
{
	struct stat o, e;

	return fd != STDERR_FILENO && !fstat(fd, &o) && !fstat(STDERR_FILENO, &e) &&
	       e.st_dev == o.st_dev && e.st_ino == o.st_ino;
}

int ctf_text_writer_start(struct ctf_text_buf *b, size_t cap)
{
	struct ctf_text_writer *w;
	struct stat st;
	int flags;

	if (cap < MIN_CAP || fstat(b->fd, &st) || (flags = fcntl(b->fd, F_GETFL)) < 0 ||
	    !wanted(&st, flags))
		return -1;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -1;
	w->fd = b->fd;
	w->dfd = -1;
	w->append = (flags & O_APPEND) != 0;
	/* room for any shift of the data within the first block */
	if (alloc_slot(&w->slots[0], round_up(cap) + DIO_ALIGN)) {
		free(w);
		return -1;
	}
	/* the other slots come with the thread, if the text outgrows one */
	for (int i = 1; i < NSLOTS; i++)
		w->busy[i] = true;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->work, NULL);
	pthread_cond_init(&w->done, NULL);
	/* so that the first buffer starts on a block if the text outgrows it */
	w->shift = current_offset(w) % DIO_ALIGN;
	b->data = w->slots[0].base + w->shift;
	b->len = 0;
	b->cap = w->slots[0].size - w->shift;
	b->w = w;
	return 0;
}

/*
 * At the first full buffer: the writer thread, the other buffers, O_DIRECT.
 * Short texts (most runs) stay with one write(2) at the end, which returns
 * before the disk has it. Whatever cannot be had is done without.
 */
static void engage(struct ctf_text_writer *w)
{
	w->engaged = true;
	/*
	 * Appending: another writer of the same file (stderr with 2>&1) would
	 * write at the end while a direct write is under way there.
	 */
	if (!(w->append && same_file_as_stderr(w->fd))) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/self/fd/%d", w->fd);
		w->dfd = open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);
		w->direct = w->dfd >= 0;
	}
	for (int i = 1; i < NSLOTS; i++)
		if (!alloc_slot(&w->slots[i], w->slots[0].size))
			w->busy[i] = false;
	/* no thread: the same writes, done in ctf_text_writer_submit() */
	w->threaded = !pthread_create(&w->thread, NULL, writer_main, w);
}

void ctf_text_writer_submit(struct ctf_text_buf *b, bool sync)
{
	struct ctf_text_writer *w = b->w;
	size_t n = b->len, keep = 0;
	uint64_t start = 0;
	struct chunk c;
	int next;

	if (!sync && !w->engaged)
		engage(w);
	pthread_mutex_lock(&w->mu);
	if (!sync && w->direct) {
		/*
		 * The bytes after the last block boundary wait for the next
		 * buffer, which then starts on a boundary: one direct write per
		 * buffer, no unaligned write in between.
		 */
		if (!w->off_known) {
			/* after a flush nothing is queued: the offset is settled */
			w->next_off = current_offset(w);
			w->off_known = true;
		}
		keep = (size_t)((w->next_off + n) % DIO_ALIGN);
		if (keep >= n)
			keep = 0;
		w->next_off += n - keep;
		start = w->next_off;
	}
	if (n > keep) {
		c.p = b->data;
		c.n = n - keep;
		c.slot = w->cur;
		w->busy[w->cur] = true;
		w->inflight++;
		if (w->threaded) {
			w->q[(w->qhead + w->qn) % NSLOTS] = c;
			w->qn++;
			pthread_cond_signal(&w->work);
		} else {
			int err = w->error;

			if (!err)
				err = write_file(w, c.p, c.n);
			chunk_done(w, &c, err);
		}
		for (;;) {
			for (next = 0; next < NSLOTS && w->busy[next]; next++)
				;
			if (next < NSLOTS)
				break;
			pthread_cond_wait(&w->done, &w->mu);
		}
	} else {
		next = w->cur; /* nothing handed over: the same buffer */
	}
	if (sync) {
		while (w->inflight)
			pthread_cond_wait(&w->done, &w->mu);
		/* stderr may be written to the same file before the next bytes */
		w->off_known = false;
	}
	if (w->error && !b->error)
		b->error = w->error;
	bool direct = w->direct;
	pthread_mutex_unlock(&w->mu);

	const char *tail = b->data + n - keep;
	size_t shift;

	if (sync && (direct || !w->engaged))
		shift = current_offset(w) % DIO_ALIGN; /* a guess: checked when written */
	else if (direct)
		shift = (size_t)(start % DIO_ALIGN);
	else
		shift = 0;
	if (next == w->cur)
		memmove(w->slots[next].base + shift, tail, keep);
	else
		memcpy(w->slots[next].base + shift, tail, keep);
	w->cur = next;
	w->shift = shift;
	w->carried = keep;
	b->data = w->slots[next].base + shift;
	b->len = keep;
	b->cap = w->slots[next].size - shift;
}

void ctf_text_writer_grow(struct ctf_text_buf *b, size_t n)
{
	struct ctf_text_writer *w = b->w;
	struct slot *s = &w->slots[w->cur], g;

	if (b->cap - b->len >= n)
		return;
	if (alloc_slot(&g, round_up(w->shift + b->len + n) + DIO_ALIGN)) {
		fprintf(stderr, "trax: out of memory\n");
		exit(1);
	}
	memcpy(g.base + w->shift, b->data, b->len);
	free_slot(s);
	*s = g;
	b->data = s->base + w->shift;
	b->cap = s->size - w->shift;
}

void ctf_text_writer_stop(struct ctf_text_buf *b)
{
	struct ctf_text_writer *w = b->w;

	/* bytes carried over were handed over: they are written, not the rest */
	b->len = w->carried;
	ctf_text_writer_submit(b, true);
	if (w->threaded) {
		pthread_mutex_lock(&w->mu);
		w->quit = true;
		pthread_cond_signal(&w->work);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->thread, NULL);
	}
	if (w->dfd >= 0)
		close(w->dfd);
	pthread_cond_destroy(&w->done);
	pthread_cond_destroy(&w->work);
	pthread_mutex_destroy(&w->mu);
	for (int i = 0; i < NSLOTS; i++)
		free_slot(&w->slots[i]); /* nothing if never allocated */
	free(w);
	b->w = NULL;
	b->data = NULL;
	b->len = b->cap = 0;
}
