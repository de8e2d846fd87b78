/*
 * ringbuf-internal.h - the layout of a buffer's shared memory, private to
 * src/ringbuf: other modules go through ringbuf.h and consumer.h, so that
 * the positions and counters are read with the right orderings in one
 * place. Only src/ringbuf's .c files (and its white-box unit test) define
 * TRAX_RINGBUF_INTERNAL before their includes.
 *
 *	struct ringbuf_shm                  control block
 *	num_subbuf x struct ringbuf_commit  commit counters, one cache line each
 *	(page-aligned) num_subbuf x S       the sub-buffers
 */
#ifndef TRAX_RINGBUF_INTERNAL
#error "ringbuf-internal.h is private to src/ringbuf: use ringbuf/ringbuf.h and ringbuf/consumer.h"
#endif
#ifndef TRAX_RINGBUF_INTERNAL_H
#define TRAX_RINGBUF_INTERNAL_H

#include <stdint.h>

#include "common/assert.h"
#include "ringbuf/ringbuf.h"

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
	/*
	 * Consumer side. Discard mode: the oldest sub-buffer not released.
	 * Overwrite mode: producers push it past the sub-buffer a new lap
	 * reuses, so it is the oldest one still in memory.
	 */
	uint64_t read_pos __attribute__((aligned(64)));
	/* Then num_subbuf commit counters (struct ringbuf_commit). */
};

struct ringbuf_commit {
	uint64_t count __attribute__((aligned(64)));
};

/* ringbuf_commit() (inline in ringbuf.h) indexes the counters by this stride. */
_Static_assert(sizeof(struct ringbuf_commit) == 1u << RINGBUF_COMMIT_SHIFT,
	       "RINGBUF_COMMIT_SHIFT is the commit counters' stride");

static inline uint64_t ringbuf_span(const struct ringbuf *rb)
{
	return rb->cfg.subbuf_size * rb->cfg.num_subbuf;
}

/* The sub-buffer holding pos, in memory. */
static inline char *ringbuf_subbuf_addr(const struct ringbuf *rb, uint64_t pos)
{
	return rb->data + ((pos & ~rb->subbuf_mask) & (ringbuf_span(rb) - 1));
}

/* The commit counter of the sub-buffer holding pos. */
static inline uint64_t *ringbuf_commit_word(const struct ringbuf *rb, uint64_t pos)
{
	return &rb->commit[(pos >> rb->subbuf_shift) & (rb->cfg.num_subbuf - 1)].count;
}

/* The value of that counter once the lap holding pos is complete. */
static inline uint64_t ringbuf_complete_count(const struct ringbuf *rb, uint64_t pos)
{
	return (pos / ringbuf_span(rb) + 1) * (rb->cfg.subbuf_size + 1);
}

static inline uint64_t ringbuf_load_write_pos(const struct ringbuf *rb)
{
	return __atomic_load_n(&rb->shm->head.write_pos, __ATOMIC_ACQUIRE);
}

static inline uint64_t ringbuf_load_read_pos(const struct ringbuf *rb)
{
	return __atomic_load_n(&rb->shm->read_pos, __ATOMIC_ACQUIRE);
}

#endif /* TRAX_RINGBUF_INTERNAL_H */
