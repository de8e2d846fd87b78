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

/* Control block, at the start of the shared region. */
struct ringbuf_shm {
	uint64_t magic;
	uint64_t subbuf_size;
	uint64_t num_subbuf;
	uint64_t mode;
	/*
	 * Producer side, on its own cache line. The write position and the
	 * timestamp of the record that ends there change together (one
	 * 16-byte CAS on x86-64), so every record's timestamp can be clamped
	 * to its predecessor's: timestamps never go back in a buffer, whatever
	 * the clock or the preemption.
	 */
	struct ringbuf_head {
		uint64_t write_pos;
		uint64_t last_ts;
	} head __attribute__((aligned(64)));
	uint64_t discarded; /* records dropped since creation */
	uint64_t too_large; /* of which: larger than a sub-buffer */
	/* Consumer side. */
	uint64_t read_pos __attribute__((aligned(64)));
	/* Then num_subbuf commit counters, one per cache line. */
};

struct ringbuf_commit {
	uint64_t count __attribute__((aligned(64)));
};

/* Process-local handle on a buffer. */
struct ringbuf {
	struct ringbuf_shm *shm;
	struct ringbuf_commit *commit;
	char *data;
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

/* Publishes a reserved record. */
static inline void ringbuf_commit(struct ringbuf *rb, uint64_t pos, uint32_t len)
{
	uint64_t idx = (pos >> rb->subbuf_shift) & (rb->cfg.num_subbuf - 1);

	__atomic_fetch_add(&rb->commit[idx].count, len, __ATOMIC_RELEASE);
}

/* Consumer: the oldest unread sub-buffer if it is complete (0), else -1. */
int ringbuf_get_subbuf(struct ringbuf *rb, uint64_t *pos, void **subbuf);
/* Consumer: releases the sub-buffer returned by ringbuf_get_subbuf. */
void ringbuf_put_subbuf(struct ringbuf *rb, uint64_t pos);
/* Is the sub-buffer at pos complete (all records and the close committed)? */
int ringbuf_subbuf_complete(struct ringbuf *rb, uint64_t pos);
/*
 * Closes the current sub-buffer if it holds records, so that the consumer
 * can take it once its pending records are committed.
 */
void ringbuf_flush(struct ringbuf *rb);
/*
 * Repairs the sub-buffer at pos when a producer died in it: the record it
 * had reserved is never committed, so the sub-buffer never completes and
 * the consumer would wait on it for ever. If the sub-buffer is closed
 * (the write position is past it), incomplete, and its counter still holds
 * `seen` (a value the caller read a while ago: nothing was committed
 * since), the counter is set to complete. Returns the bytes that were never
 * committed (the dead records' lengths), 0 when nothing was done. The
 * records in those bytes are garbage: the caller must not read them as
 * records. Only for writers known dead: a live one that commits later
 * would complete the next lap of this sub-buffer too early.
 */
uint64_t ringbuf_force_complete(struct ringbuf *rb, uint64_t pos, uint64_t seen);
/* The commit counter of the sub-buffer at pos (see ringbuf_force_complete). */
uint64_t ringbuf_commit_count(struct ringbuf *rb, uint64_t pos);
/* Counts a record given up (too_large: it could never fit). */
void ringbuf_count_lost(struct ringbuf *rb, int too_large);
/* Records dropped since creation. */
uint64_t ringbuf_discarded(struct ringbuf *rb);

#endif /* TRAX_RINGBUF_H */
