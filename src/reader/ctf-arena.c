/* ctf-arena.c - the bump allocator behind a trace's metadata model. */
#include "reader/ctf-arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct ctf_arena_chunk {
	struct ctf_arena_chunk *next;
	size_t size; /* usable bytes after the header */
	size_t pos;
	alignas(max_align_t) unsigned char data[];
};

#define CHUNK_MIN_SIZE ((size_t)64 << 10)

void ctf_arena_init(struct ctf_arena *arena)
{
	arena->chunks = NULL;
	arena->used = 0;
	arena->limit = 0;
}

void ctf_arena_release(struct ctf_arena *arena)
{
	struct ctf_arena_chunk *c = arena->chunks;

	while (c) {
		struct ctf_arena_chunk *next = c->next;

		free(c);
		c = next;
	}
	arena->chunks = NULL;
	arena->used = 0;
}

void *ctf_arena_alloc(struct ctf_arena *arena, size_t size)
{
	const size_t align = alignof(max_align_t);
	size_t limit = arena->limit ? arena->limit : CTF_ARENA_DEFAULT_LIMIT;
	struct ctf_arena_chunk *c = arena->chunks;
	void *p;

	if (size == 0)
		size = 1;
	if (size > limit || arena->used > limit - size)
		return NULL;
	size = (size + align - 1) & ~(align - 1);
	if (!c || c->size - c->pos < size) {
		size_t chunk_size = size > CHUNK_MIN_SIZE ? size : CHUNK_MIN_SIZE;

		c = malloc(sizeof(*c) + chunk_size);
		if (!c)
			return NULL;
		c->size = chunk_size;
		c->pos = 0;
		c->next = arena->chunks;
		arena->chunks = c;
	}
	p = c->data + c->pos;
	c->pos += size;
	arena->used += size;
	memset(p, 0, size);
	return p;
}

char *ctf_arena_strndup(struct ctf_arena *arena, const char *s, size_t len)
{
	char *copy = ctf_arena_alloc(arena, len + 1);

	if (copy)
		memcpy(copy, s, len);
	return copy;
}

char *ctf_arena_strdup(struct ctf_arena *arena, const char *s)
{
	return ctf_arena_strndup(arena, s, strlen(s));
}

void *ctf_arena_grow(struct ctf_arena *arena, const void *old, size_t old_count, size_t new_count,
		     size_t elem_size)
{
	void *p;

	if (new_count && elem_size > SIZE_MAX / new_count)
		return NULL;
	p = ctf_arena_alloc(arena, new_count * elem_size);
	if (p && old_count)
		memcpy(p, old, (old_count < new_count ? old_count : new_count) * elem_size);
	return p;
}
