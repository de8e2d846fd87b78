/*
 * topk.h - the k first records by an order, kept in k slots while any
 * number go by (a binary heap whose root is the last kept): the top
 * lists of the analyses (iolatency --top) without keeping every record.
 */
#ifndef TRAX_ANALYSIS_TOPK_H
#define TRAX_ANALYSIS_TOPK_H

#include <stddef.h>

/* A total order (<0: a first): with ties, which records are kept is unspecified. */
typedef int (*an_topk_cmp)(const void *a, const void *b);

struct an_topk {
	size_t sz, k, n;
	an_topk_cmp cmp;
	char *v; /* n records: a heap, then (an_topk_sort()) in order */
};

/* Room for k records of recsize bytes: 0, -1 when out of memory. */
int an_topk_init(struct an_topk *t, size_t recsize, size_t k, an_topk_cmp cmp);
void an_topk_free(struct an_topk *t);
/* Offers rec: kept when among the k first so far. */
void an_topk_add(struct an_topk *t, const void *rec);
/* Sorts the kept records (t->v[0 .. t->n)), first first; no adding after. */
void an_topk_sort(struct an_topk *t);

#endif /* TRAX_ANALYSIS_TOPK_H */
