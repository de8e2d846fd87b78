/*
 * recs.h - records of one size keyed by a 64-bit id (threads by tid):
 * kept in blocks so that their addresses stay while more are added, in
 * order of first appearance, found by an idmap. Memory: the records and
 * the map, no allocation per lookup.
 */
#ifndef TRAX_ANALYSIS_RECS_H
#define TRAX_ANALYSIS_RECS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/idmap.h"

#define AN_RECS_BLOCK 1024 /* records a block */

struct an_recs {
	struct an_idmap ids; /* id -> index */
	unsigned char **blocks;
	size_t n, nblocks;
	size_t size; /* of a record */
};

void an_recs_init(struct an_recs *r, size_t size);
void an_recs_free(struct an_recs *r);

/* The i-th record in order of first appearance (i < r->n). */
static inline void *an_recs_at(const struct an_recs *r, size_t i)
{
	return r->blocks[i / AN_RECS_BLOCK] + i % AN_RECS_BLOCK * r->size;
}

/* The record of id, NULL when there is none. */
void *an_recs_find(const struct an_recs *r, uint64_t id);

/*
 * The record of id, added zeroed when new (then *created is 1; created may
 * be NULL); NULL when memory ran out.
 */
void *an_recs_get(struct an_recs *r, uint64_t id, int *created);

#endif /* TRAX_ANALYSIS_RECS_H */
