/*
 * recs.c - records keyed by id, in blocks (recs.h).
 */
#include "analysis/recs.h"

#include <stdlib.h>
#include <string.h>

void an_recs_init(struct an_recs *r, size_t size)
{
	memset(r, 0, sizeof(*r));
	r->size = size;
	an_idmap_init(&r->ids);
}

void an_recs_free(struct an_recs *r)
{
	for (size_t i = 0; i < r->nblocks; i++)
		free(r->blocks[i]);
	free(r->blocks);
	an_idmap_free(&r->ids);
	memset(r, 0, sizeof(*r));
}

void *an_recs_find(const struct an_recs *r, uint64_t id)
{
	uint32_t i = an_idmap_get(&r->ids, id);

	return i == AN_IDMAP_NONE ? NULL : an_recs_at(r, i);
}

void *an_recs_get(struct an_recs *r, uint64_t id, int *created)
{
	uint32_t i = an_idmap_get(&r->ids, id);
	void *rec;

	if (created)
		*created = i == AN_IDMAP_NONE;
	if (i != AN_IDMAP_NONE)
		return an_recs_at(r, i);
	if (r->n / AN_RECS_BLOCK == r->nblocks) {
		unsigned char **b = realloc(r->blocks, (r->nblocks + 1) * sizeof(*b));

		if (!b)
			return NULL;
		r->blocks = b;
		if (!(b[r->nblocks] = malloc(AN_RECS_BLOCK * r->size)))
			return NULL;
		r->nblocks++;
	}
	if (r->n >= AN_IDMAP_NONE || an_idmap_put(&r->ids, id, (uint32_t)r->n))
		return NULL;
	rec = an_recs_at(r, r->n++);
	memset(rec, 0, r->size);
	return rec;
}
