/*
 * ringbuf.h - lock-free ring buffer of sub-buffers (one per CPU and channel).
 *
 * A buffer is N sub-buffers of S bytes (both powers of two) in one region of
 * memory that can be shared between processes. Producers reserve records
 * with one compare-and-swap on a 64-bit write position, fill them, and
 * commit them with one atomic add on the sub-buffer's commit counter; they
 * never lock, allocate or make a system call (but to wake a sleeping
 * consumer, once per sub-buffer). The consumer takes whole sub-buffers
 * ("packets") once every byte of them is committed.
 *
 * Positions are byte counts since the buffer was created and never wrap:
 * sub-buffer index = (pos / S) % N, lap = pos / (N * S).
 *
 * Each sub-buffer starts with a header of `header_size` bytes. The producer
 * that opens a sub-buffer writes it through the `packet_open` hook and the
 * one that moves past it finishes it through `packet_close`. The two hooks
 * of one sub-buffer may run concurrently, in either order: they must write
 * disjoint fields. Accounting per
 * lap of one sub-buffer: the opener commits header_size, each record commits
 * its length, the closer commits the padding plus one. The sub-buffer is
 * complete when its counter reaches (lap + 1) * (S + 1): the extra one makes
 * completion wait for the closer even when the padding is empty.
 *
 * A record never ends exactly at the end of a sub-buffer, so a write position
 * at a sub-buffer boundary always means "closed, next one not opened yet".
 *
 * Records carry a timestamp. Its lower `ts_bits` bits are enough to decode
 * it when it is less than 2^ts_bits after the previous record of the buffer;
 * the producer then uses the short record length, else the long one (CTF's
 * compact and extended event headers). The clock is read inside the
 * reservation loop and clamped to the previous record's timestamp, which is
 * swapped together with the write position: records are in timestamp order
 * in the buffer and the short/long choice is exact.
 */
#ifndef TRAX_RINGBUF_H
#define TRAX_RINGBUF_H

#include <stddef.h>
#include <stdint.h>

#include "common/assert.h"

enum ringbuf_mode {
	RINGBUF_DISCARD = 0,   /* full: new records are dropped and counted */
	RINGBUF_OVERWRITE = 1, /* full: the oldest sub-buffer is reused */
};

struct ringbuf;

/* Writes the header of a sub-buffer being opened (seq: its number since start). */
typedef void (*ringbuf_open_fn)(struct ringbuf *rb, void *subbuf, uint64_t ts, uint64_t seq);
/* Finishes the header of a sub-buffer: content_bytes include the header. */
typedef void (*ringbuf_close_fn)(struct ringbuf *rb, void *subbuf, uint64_t ts_end,
				 uint64_t content_bytes, uint64_t discarded);

/*
 * Where a consumer sleeps: shared by all the buffers it drains. A producer
 * that closes a sub-buffer bumps seq and wakes the consumer if it waits.
 */
struct ringbuf_notify {
	uint32_t seq;
	uint32_t waiting;
};

struct ringbuf_config {
	size_t subbuf_size;	 /* power of two, at least 256 */
	unsigned int num_subbuf; /* power of two, at least 2 */
	enum ringbuf_mode mode;
	size_t header_size;   /* bytes at the start of each sub-buffer */
	unsigned int ts_bits; /* bits of a short timestamp (27 for CTF compact) */
	ringbuf_open_fn open;
	ringbuf_close_fn close;
	uint64_t (*clock)(void);       /* timestamps; NULL: trax_clock_read() */
	struct ringbuf_notify *notify; /* optional */
};

/*
 * The shared memory's layout (control block, commit counters) is private
 * to src/ringbuf (ringbuf-internal.h): consumers use consumer.h.
 */
struct ringbuf_shm;
struct ringbuf_commit;

/* log2 of the bytes between two commit counters (one per cache line). */
#define RINGBUF_COMMIT_SHIFT 6

/*
 * Process-local handle on a buffer. Its users set owner and cpu and read
 * cfg; the other fields are src/ringbuf's.
 */
struct ringbuf {
	struct ringbuf_shm *shm;       /* private */
	struct ringbuf_commit *commit; /* private: see ringbuf_commit() */
	char *data;		       /* private: the first sub-buffer */
	struct ringbuf_config cfg;
	uint64_t subbuf_mask; /* S - 1 */
	uint64_t ts_limit;    /* 2^ts_bits */
	unsigned int subbuf_shift;
	void *owner; /* free for the user (the channel) */
	int cpu;
};

/* A reserved record. */
struct ringbuf_slot {
	char *ptr;    /* first byte of the record */
	uint64_t pos; /* its position */
	uint64_t ts;  /* its timestamp */
	uint32_t len; /* its length */
	int extended; /* 1: the long length (full timestamp) was used */
};

/* Bytes of shared memory a buffer of this geometry needs. */
size_t ringbuf_shm_size(const struct ringbuf_config *cfg);
/* Checks a configuration; returns 0 or -EINVAL. */
int ringbuf_config_check(const struct ringbuf_config *cfg);
/* Initializes a new buffer in mem (zeroed, ringbuf_shm_size bytes). */
int ringbuf_create(struct ringbuf *rb, void *mem, const struct ringbuf_config *cfg);
/* Attaches to a buffer another process created. */
int ringbuf_attach(struct ringbuf *rb, void *mem, const struct ringbuf_config *cfg);

/*
 * Reserves a record of len_short bytes (len_long when the timestamp needs
 * the long form). Returns 0; -ENOBUFS when the buffer is full (discard mode,
 * or a late writer in overwrite mode); -E2BIG when the record can never fit.
 * A failed reservation is not counted: the caller may retry (blocking mode)
 * and calls ringbuf_count_lost() when it gives the record up.
 */
int ringbuf_reserve(struct ringbuf *rb, struct ringbuf_slot *slot, size_t len_short,
		    size_t len_long);

/*
 * Publishes a reserved record: inline, the producer's fast path, hence the
 * counters' stride here (RINGBUF_COMMIT_SHIFT, checked against their
 * layout in ringbuf-internal.h).
 */
static inline void ringbuf_commit(struct ringbuf *rb, uint64_t pos, uint32_t len)
{
	uint64_t idx = (pos >> rb->subbuf_shift) & (rb->cfg.num_subbuf - 1);
	uint64_t *count = (uint64_t *)((char *)rb->commit + (idx << RINGBUF_COMMIT_SHIFT));
	uint64_t before = __atomic_fetch_add(count, len, __ATOMIC_RELEASE);

	/* Never past this lap's total: the next lap cannot open before it is reached. */
	TRAX_ASSERT(before + len <= (pos / (rb->cfg.subbuf_size * rb->cfg.num_subbuf) + 1) *
					(rb->cfg.subbuf_size + 1));
	(void)before;
}

/*
 * Closes the current sub-buffer if it holds records, so that the consumer
 * can take it once its pending records are committed.
 */
void ringbuf_flush(struct ringbuf *rb);
/* Counts a record given up (too_large: it could never fit). */
void ringbuf_count_lost(struct ringbuf *rb, int too_large);

/* The consumer's side (and the layout, for src/ringbuf's own files). */
#include "ringbuf/consumer.h"
#ifdef TRAX_RINGBUF_INTERNAL
#include "ringbuf/ringbuf-internal.h"
#endif

#endif /* TRAX_RINGBUF_H */
