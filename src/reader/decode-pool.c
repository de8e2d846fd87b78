/*
 * decode-pool.c - chunked value memory for the stream decoder.
 */
#include "reader/decode-pool.h"

#include <stdlib.h>

/* Values per chunk unless a larger block is asked for: one page-ish event is typical. */
#define CHUNK_VALUES 4096

void ctf_value_pool_init(struct ctf_value_pool *pool)
{
	pool->head = pool->cur = NULL;
	pool->used = 0;
	pool->limit = CTF_VALUE_POOL_LIMIT;
}

void ctf_value_pool_free(struct ctf_value_pool *pool)
{
	struct ctf_value_chunk *c = pool->head, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	ctf_value_pool_init(pool);
}

void ctf_value_pool_reset(struct ctf_value_pool *pool)
{
	pool->cur = pool->head;
	if (pool->cur)
		pool->cur->used = 0;
	pool->used = 0;
}

static struct ctf_value_chunk *new_chunk(uint64_t n)
{
	uint64_t cap = n > CHUNK_VALUES ? n : CHUNK_VALUES;
	struct ctf_value_chunk *c = malloc(sizeof(*c) + cap * sizeof(struct ctf_value));

	if (!c)
		return NULL;
	c->next = NULL;
	c->cap = cap;
	c->used = 0;
	return c;
}

struct ctf_value *ctf_value_pool_alloc_slow(struct ctf_value_pool *pool, uint64_t n)
{
	struct ctf_value_chunk *c = pool->cur;
	struct ctf_value *v;

	if (n > pool->limit - pool->used)
		return NULL;
	if (!c) {
		c = new_chunk(n);
		if (!c)
			return NULL;
		pool->head = pool->cur = c;
	}
	/*
	 * Move on to the following chunks (emptied: they held an earlier
	 * event) until one has room; a block too big for the next one gets
	 * a chunk of its own inserted there.
	 */
	while (c->cap - c->used < n) {
		struct ctf_value_chunk *next = c->next;

		if (!next || next->cap < n) {
			struct ctf_value_chunk *fresh = new_chunk(n);

			if (!fresh)
				return NULL;
			fresh->next = next;
			c->next = fresh;
			next = fresh;
		}
		next->used = 0;
		c = next;
	}
	pool->cur = c;
	v = c->v + c->used;
	c->used += n;
	pool->used += n;
	return v;
}

uint8_t *ctf_value_pool_bytes(struct ctf_value_pool *pool, uint64_t n)
{
	uint64_t values = n / sizeof(struct ctf_value) + 1;

	return (uint8_t *)ctf_value_pool_alloc(pool, values);
}
