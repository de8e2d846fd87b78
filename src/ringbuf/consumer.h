/*
 * consumer.h - the consumer's side of a ring buffer (ringbuf.h): every way
 * traxd and the in-process consumer read a buffer, so that none of them
 * looks at its positions or counters.
 *
 * A sub-buffer is complete when every record reserved in it is committed
 * and it is closed (ringbuf.h). Only complete sub-buffers are given out.
 *
 * Discard mode: the consumer owns the sub-buffers it has not released;
 * producers never reuse them (records are dropped instead). It takes them
 * in order (ringbuf_get_subbuf / ringbuf_put_subbuf, or ringbuf_drain).
 *
 * Overwrite mode: producers never wait. When a lap reuses a sub-buffer its
 * old content is gone, even while a consumer reads it; so the consumer
 * copies a sub-buffer out and keeps the copy only if the sub-buffer was not
 * reopened meanwhile. The rule of ringbuf_drain_overwrite:
 *   - it resumes at its cursor, or at the oldest sub-buffer still in memory
 *     when producers have gone past it: those in between are lost;
 *   - a complete sub-buffer is copied, then delivered unless a producer
 *     reopened it during the copy (then it is lost);
 *   - at an incomplete one it stops (a record reserved in it may still be
 *     committed: the next drain resumes there), unless the caller says the
 *     buffer has settled (RINGBUF_DRAIN_SETTLED: flushed, then
 *     ringbuf_settle), when what is still incomplete never will be (its
 *     writer died): it is lost and the drain goes on.
 * A snapshot follows the same rule from the oldest sub-buffer in memory,
 * as settled, and consumes nothing.
 *
 * The open sub-buffer (records still being added) is never given out:
 * ringbuf_flush closes it.
 */
#ifndef TRAX_RINGBUF_CONSUMER_H
#define TRAX_RINGBUF_CONSUMER_H

#include <stdint.h>

#include "ringbuf/ringbuf.h"

/* Discard mode: the oldest unread sub-buffer if it is complete (0), else -1. */
int ringbuf_get_subbuf(struct ringbuf *rb, uint64_t *pos, void **subbuf);
/* Discard mode: releases the sub-buffer returned by ringbuf_get_subbuf. */
void ringbuf_put_subbuf(struct ringbuf *rb, uint64_t pos);
/* Is the sub-buffer at pos complete (all records and the close committed)? */
int ringbuf_subbuf_complete(struct ringbuf *rb, uint64_t pos);

/*
 * Called with each sub-buffer a drain or a snapshot gives out: its
 * header_size first bytes are what the open and close hooks wrote. It is
 * valid until the call returns. Returns 0 to go on; anything else stops
 * the walk after this sub-buffer (which counts as read), and the drain
 * returns that value.
 */
typedef int (*ringbuf_packet_fn)(void *arg, const void *subbuf);

/* What a drain or a snapshot did (added to: zero it first). */
struct ringbuf_drain_stats {
	uint64_t packets; /* sub-buffers given to the callback */
	uint64_t lost;	  /* sub-buffers passed over (see the rule above) */
};

/*
 * Discard mode: gives every complete sub-buffer, oldest first, to fn, in
 * place, and releases it after. Returns 0 or fn's non-zero value.
 */
int ringbuf_drain(struct ringbuf *rb, ringbuf_packet_fn fn, void *arg,
		  struct ringbuf_drain_stats *stats);

/* The buffer was flushed and has settled: what stays incomplete is dead. */
#define RINGBUF_DRAIN_SETTLED 1u

/*
 * Overwrite mode: gives the complete sub-buffers from *next on (0 at
 * first), oldest first, to fn, each copied into bounce (subbuf_size bytes,
 * the caller's), following the rule above; *next moves past what was given
 * out or lost. Nothing is released: producers are never held up. Returns 0
 * or fn's non-zero value.
 */
int ringbuf_drain_overwrite(struct ringbuf *rb, uint64_t *next, void *bounce, unsigned int flags,
			    ringbuf_packet_fn fn, void *arg, struct ringbuf_drain_stats *stats);

/*
 * Either mode: gives every complete sub-buffer still in memory, read or
 * not, oldest first, to fn, copied into bounce (subbuf_size bytes) without
 * disturbing producers or the consumer. Incomplete ones and ones reopened
 * during the copy are counted lost. Returns 0 or fn's non-zero value.
 */
int ringbuf_snapshot(struct ringbuf *rb, void *bounce, ringbuf_packet_fn fn, void *arg,
		     struct ringbuf_drain_stats *stats);

/* ringbuf_pending's answer: */
#define RINGBUF_PENDING_RECORDS 1u /* a closed sub-buffer holds uncommitted records */
#define RINGBUF_PENDING_PACKETS 2u /* a complete sub-buffer is unread */

/*
 * What the buffer holds for the consumer: 0 or RINGBUF_PENDING_* bits,
 * looking at the closed sub-buffers from the read position (discard mode:
 * the oldest not released; overwrite mode: the oldest in memory) on.
 */
unsigned int ringbuf_pending(struct ringbuf *rb);

/*
 * Waits until none of the n buffers at rbs has RINGBUF_PENDING_RECORDS
 * (records reserved before a flush are committed), at most timeout_us:
 * a producer that died in a record never commits it, and a consumer must
 * not wait for it. 0, or -ETIMEDOUT.
 */
int ringbuf_settle(struct ringbuf *rbs, unsigned int n, unsigned int timeout_us);

/* A sub-buffer that does not complete (see ringbuf_stalled). */
struct ringbuf_stall {
	uint64_t pos;	    /* its position */
	uint64_t count;	    /* its commit counter */
	const void *subbuf; /* its header, as the open hook wrote it */
};

/*
 * Discard mode: whether the oldest unread sub-buffer is closed but not
 * complete, a record in it not committed (1, and *st), else 0. When that
 * lasts, its writer may have died in it: see ringbuf_force_complete.
 */
int ringbuf_stalled(struct ringbuf *rb, struct ringbuf_stall *st);

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

/* Records dropped since creation (ringbuf_count_lost). */
uint64_t ringbuf_discarded(struct ringbuf *rb);
/* Of which: larger than a sub-buffer could ever hold. */
uint64_t ringbuf_too_large(struct ringbuf *rb);

#endif /* TRAX_RINGBUF_CONSUMER_H */
