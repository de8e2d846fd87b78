/*
 * value-copy.h - copies of decoded values (ctf-value.h) that outlive the
 * reader's reuse of its own: for handing events from the thread that
 * decodes them to the one that prints them (src/cli/view-pipeline.c).
 *
 * Copies live in an arena, freed all at once: reset it when every copy in
 * it is done with. Strings that point into the stream file's mapping are
 * still valid while the reader stays open: they are shared, not copied;
 * other strings (the decoder's own buffers) are copied.
 */
#ifndef TRAX_CTF_VALUE_COPY_H
#define TRAX_CTF_VALUE_COPY_H

#include <stddef.h>

#include "reader/ctf-value.h"

struct ctf_arena_chunk;

/* Zero-initialized: an empty arena. */
struct ctf_value_arena {
	struct ctf_arena_chunk *head; /* chunks in order; kept across resets */
	struct ctf_arena_chunk *cur;
	size_t used; /* bytes handed out since the last reset */
};

/* Forgets every copy; keeps the memory for the next ones. */
void ctf_value_arena_reset(struct ctf_value_arena *a);
void ctf_value_arena_free(struct ctf_value_arena *a);

/*
 * A copy of the tree at v in a, strings between keep_lo and keep_hi shared;
 * NULL for v NULL, or when memory runs out (*oom set).
 */
struct ctf_value *ctf_value_copy(struct ctf_value_arena *a, const struct ctf_value *v,
				 const void *keep_lo, const void *keep_hi, int *oom);

#endif /* TRAX_CTF_VALUE_COPY_H */
