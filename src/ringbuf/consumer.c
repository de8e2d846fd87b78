/*
 * consumer.c - the consumer's side of a ring buffer (see consumer.h for
 * the rules; the comments here explain the orderings).
 */
#define TRAX_RINGBUF_INTERNAL
#include "ringbuf/consumer.h"

#include <errno.h>
#include <string.h>
#include <time.h>

/* How often ringbuf_settle looks again. */
#define SETTLE_POLL_NS 200000

int ringbuf_subbuf_complete(struct ringbuf *rb, uint64_t pos)
{
	return __atomic_load_n(ringbuf_commit_word(rb, pos), __ATOMIC_ACQUIRE) ==
	       ringbuf_complete_count(rb, pos);
}

uint64_t ringbuf_commit_count(struct ringbuf *rb, uint64_t pos)
{
	return __atomic_load_n(ringbuf_commit_word(rb, pos), __ATOMIC_ACQUIRE);
}

int ringbuf_get_subbuf(struct ringbuf *rb, uint64_t *pos, void **subbuf)
{
	uint64_t r = ringbuf_load_read_pos(rb);

	if (!ringbuf_subbuf_complete(rb, r))
		return -1;
	/* Complete means closed: the reader never passes the writer. */
	TRAX_ASSERT(r + rb->cfg.subbuf_size <= ringbuf_load_write_pos(rb));
	*pos = r;
	*subbuf = ringbuf_subbuf_addr(rb, r);
	return 0;
}

void ringbuf_put_subbuf(struct ringbuf *rb, uint64_t pos)
{
	uint64_t expected = pos;

	/* Discard mode: nobody reuses a sub-buffer before it is released. */
	TRAX_ASSERT(rb->cfg.mode != RINGBUF_DISCARD || ringbuf_subbuf_complete(rb, pos));
	/* In overwrite mode a producer may have pushed read_pos already. */
	__atomic_compare_exchange_n(&rb->shm->read_pos, &expected, pos + rb->cfg.subbuf_size, 0,
				    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

int ringbuf_drain(struct ringbuf *rb, ringbuf_packet_fn fn, void *arg,
		  struct ringbuf_drain_stats *stats)
{
	uint64_t pos;
	void *sb;
	int ret = 0;

	while (!ret && ringbuf_get_subbuf(rb, &pos, &sb) == 0) {
		stats->packets++;
		ret = fn(arg, sb);
		ringbuf_put_subbuf(rb, pos);
	}
	return ret;
}

/*
 * Copies the sub-buffer at pos (complete) into bounce: 1 when the copy is
 * that lap's content, 0 when a producer reopened the sub-buffer for its
 * next lap meanwhile (the copy may be torn). A producer moves the write
 * position past pos + span before it writes there: seen after the copy,
 * it tells.
 */
static int copy_subbuf(struct ringbuf *rb, uint64_t pos, void *bounce)
{
	memcpy(bounce, ringbuf_subbuf_addr(rb, pos), rb->cfg.subbuf_size);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return ringbuf_load_write_pos(rb) <= pos + ringbuf_span(rb);
}

/* The start of the oldest sub-buffer in memory when the write position is w. */
static uint64_t oldest_in_memory(struct ringbuf *rb, uint64_t w)
{
	uint64_t end = (w + rb->subbuf_mask) & ~rb->subbuf_mask, span = ringbuf_span(rb);

	return end > span ? end - span : 0;
}

/*
 * The walk of consumer.h's rule, from *next up to closed_end (the start of
 * the open sub-buffer, or the write position when none is open).
 */
static int walk(struct ringbuf *rb, uint64_t *next, uint64_t closed_end, void *bounce,
		unsigned int flags, ringbuf_packet_fn fn, void *arg,
		struct ringbuf_drain_stats *stats)
{
	const uint64_t S = rb->cfg.subbuf_size;
	uint64_t pos;
	int ret = 0;

	for (pos = *next; !ret && pos < closed_end; pos += S) {
		if (!ringbuf_subbuf_complete(rb, pos)) {
			if (!(flags & RINGBUF_DRAIN_SETTLED))
				break; /* may still complete: the next drain */
			stats->lost++;
			continue;
		}
		if (!copy_subbuf(rb, pos, bounce)) {
			stats->lost++;
			continue;
		}
		stats->packets++;
		ret = fn(arg, bounce);
	}
	*next = pos;
	return ret;
}

int ringbuf_drain_overwrite(struct ringbuf *rb, uint64_t *next, void *bounce, unsigned int flags,
			    ringbuf_packet_fn fn, void *arg, struct ringbuf_drain_stats *stats)
{
	uint64_t w = ringbuf_load_write_pos(rb), oldest = oldest_in_memory(rb, w);

	/* The cursor never passes the writer. */
	TRAX_ASSERT(*next <= ((w + rb->subbuf_mask) & ~rb->subbuf_mask));
	if (*next < oldest) {
		/* Overwritten before they could be read. */
		stats->lost += (oldest - *next) / rb->cfg.subbuf_size;
		*next = oldest;
	}
	return walk(rb, next, w & ~rb->subbuf_mask, bounce, flags, fn, arg, stats);
}

int ringbuf_snapshot(struct ringbuf *rb, void *bounce, ringbuf_packet_fn fn, void *arg,
		     struct ringbuf_drain_stats *stats)
{
	uint64_t w = ringbuf_load_write_pos(rb), pos = oldest_in_memory(rb, w);

	return walk(rb, &pos, w & ~rb->subbuf_mask, bounce, RINGBUF_DRAIN_SETTLED, fn, arg, stats);
}

unsigned int ringbuf_pending(struct ringbuf *rb)
{
	/* read_pos first: then w is at least as new, and the window valid. */
	uint64_t r = ringbuf_load_read_pos(rb), w = ringbuf_load_write_pos(rb);
	uint64_t oldest = oldest_in_memory(rb, w), closed_end = w & ~rb->subbuf_mask;
	unsigned int pending = 0;

	TRAX_ASSERT(r <= w);
	for (uint64_t pos = r > oldest ? r : oldest; pos < closed_end; pos += rb->cfg.subbuf_size)
		pending |= ringbuf_subbuf_complete(rb, pos) ? RINGBUF_PENDING_PACKETS
							    : RINGBUF_PENDING_RECORDS;
	return pending;
}

int ringbuf_settle(struct ringbuf *rbs, unsigned int n, unsigned int timeout_us)
{
	const struct timespec pause = {0, SETTLE_POLL_NS};
	uint64_t waited_ns = 0;

	for (;;) {
		unsigned int i;

		for (i = 0; i < n; i++)
			if (ringbuf_pending(&rbs[i]) & RINGBUF_PENDING_RECORDS)
				break;
		if (i == n)
			return 0;
		if (waited_ns >= (uint64_t)timeout_us * 1000u)
			return -ETIMEDOUT;
		nanosleep(&pause, NULL);
		waited_ns += SETTLE_POLL_NS;
	}
}

int ringbuf_stalled(struct ringbuf *rb, struct ringbuf_stall *st)
{
	uint64_t r = ringbuf_load_read_pos(rb), w = ringbuf_load_write_pos(rb);

	/* Only a closed sub-buffer can be waited on for ever. */
	if (rb->cfg.mode != RINGBUF_DISCARD || w < r + rb->cfg.subbuf_size ||
	    ringbuf_subbuf_complete(rb, r))
		return 0;
	st->pos = r;
	st->count = ringbuf_commit_count(rb, r);
	st->subbuf = ringbuf_subbuf_addr(rb, r);
	return 1;
}

uint64_t ringbuf_force_complete(struct ringbuf *rb, uint64_t pos, uint64_t seen)
{
	uint64_t sb = pos & ~rb->subbuf_mask, want = ringbuf_complete_count(rb, sb);
	uint64_t w = ringbuf_load_write_pos(rb);

	/*
	 * Closed, and this lap's: the counter is between the last lap's
	 * complete value and this one's.
	 */
	if (w < sb + rb->cfg.subbuf_size || seen >= want || seen < want - (rb->cfg.subbuf_size + 1))
		return 0;
	if (!__atomic_compare_exchange_n(ringbuf_commit_word(rb, sb), &seen, want, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return 0;
	return want - seen;
}

uint64_t ringbuf_discarded(struct ringbuf *rb)
{
	return __atomic_load_n(&rb->shm->discarded, __ATOMIC_RELAXED);
}

uint64_t ringbuf_too_large(struct ringbuf *rb)
{
	return __atomic_load_n(&rb->shm->too_large, __ATOMIC_RELAXED);
}
