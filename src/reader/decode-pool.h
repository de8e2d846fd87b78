/*
 * decode-pool.h - the memory decoded values live in: chunks of ctf_value
 * handed out contiguously and taken back all at once (at each event, at
 * each packet), so decoding an event allocates nothing once the pool has
 * grown to the size of the largest event.
 */
#ifndef TRAX_CTF_DECODE_POOL_H
#define TRAX_CTF_DECODE_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "reader/ctf-value.h"

/* Chunks are public only so that the allocation fast path can be inlined. */
struct ctf_value_chunk {
	struct ctf_value_chunk *next;
	uint64_t cap;
	uint64_t used;
	struct ctf_value v[];
};

struct ctf_value_pool {
	struct ctf_value_chunk *head; /* chunks in order; kept across resets */
	struct ctf_value_chunk *cur;  /* the chunk being handed out */
	uint64_t used;		      /* values handed out since the last reset */
	uint64_t limit;		      /* at most this many between resets */
};

/*
 * Values one event (or one packet header + context) may hold: arrays of
 * empty structs take no bits in the stream, so the packet size does not
 * bound them; this does (and bounds the time spent on a crafted file).
 */
#define CTF_VALUE_POOL_LIMIT ((uint64_t)1 << 24)

void ctf_value_pool_init(struct ctf_value_pool *pool);
void ctf_value_pool_free(struct ctf_value_pool *pool);
/* Takes back every value handed out (their memory is reused). */
void ctf_value_pool_reset(struct ctf_value_pool *pool);
/* The slow path of ctf_value_pool_alloc(): moving to (or creating) another chunk. */
struct ctf_value *ctf_value_pool_alloc_slow(struct ctf_value_pool *pool, uint64_t n);

/*
 * n contiguous uninitialized values; NULL when out of memory or past the
 * limit. Inline: it runs once per struct decoded, and the common case (room
 * in the current chunk) is a bump of two counters.
 */
static inline struct ctf_value *ctf_value_pool_alloc(struct ctf_value_pool *pool, uint64_t n)
{
	struct ctf_value_chunk *c = pool->cur;
	struct ctf_value *v;

	if (__builtin_expect(!c || n > c->cap - c->used || n > pool->limit - pool->used, 0))
		return ctf_value_pool_alloc_slow(pool, n);
	v = c->v + c->used;
	c->used += n;
	pool->used += n;
	return v;
}
/* n bytes (for text copied out of unaligned bits); NULL as above. */
uint8_t *ctf_value_pool_bytes(struct ctf_value_pool *pool, uint64_t n);

#endif /* TRAX_CTF_DECODE_POOL_H */
