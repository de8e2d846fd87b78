/*
 * ctf-arena.h - a bump allocator for the reader's metadata model.
 *
 * A trace's metadata model (types, fields, names, paths) lives as long as
 * the trace is open and is freed all at once, so its pieces come from one
 * arena: no per-node free, no leak when parsing stops half-way on an error.
 */
#ifndef TRAX_CTF_ARENA_H
#define TRAX_CTF_ARENA_H

#include <stddef.h>

struct ctf_arena_chunk;

struct ctf_arena {
	struct ctf_arena_chunk *chunks; /* newest first */
	size_t used;			/* bytes handed out, for the size limit */
	size_t limit;			/* 0: CTF_ARENA_DEFAULT_LIMIT */
};

/* Metadata is text of a few MiB at most; a model growing past this is an attack or a bug. */
#define CTF_ARENA_DEFAULT_LIMIT ((size_t)256 << 20)

void ctf_arena_init(struct ctf_arena *arena);
/* Frees every block the arena handed out; the arena can be used again. */
void ctf_arena_release(struct ctf_arena *arena);
/* Zeroed memory aligned for any type; NULL when out of memory or past the limit. */
void *ctf_arena_alloc(struct ctf_arena *arena, size_t size);
/* A NUL-terminated copy of the first len bytes of s; NULL when out of memory. */
char *ctf_arena_strndup(struct ctf_arena *arena, const char *s, size_t len);
char *ctf_arena_strdup(struct ctf_arena *arena, const char *s);
/*
 * A growable array: returns a block for new_count elements holding the
 * old_count elements of old (the old block stays in the arena, unused).
 */
void *ctf_arena_grow(struct ctf_arena *arena, const void *old, size_t old_count, size_t new_count,
		     size_t elem_size);

#endif /* TRAX_CTF_ARENA_H */
