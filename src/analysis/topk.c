/*
 * topk.c - the k first records by an order (topk.h): a max-heap by the
 * order, whose root (the last kept) is replaced by a record before it.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/topk.h"

int an_topk_init(struct an_topk *t, size_t recsize, size_t k, an_topk_cmp cmp)
{
	memset(t, 0, sizeof(*t));
	t->sz = recsize;
	t->k = k;
	t->cmp = cmp;
	/* (one more slot: the swap space) */
	if (!(t->v = malloc((k + 1) * recsize)))
		return -1;
	return 0;
}

void an_topk_free(struct an_topk *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

static char *at(struct an_topk *t, size_t i)
{
	return t->v + i * t->sz;
}

static void swap(struct an_topk *t, size_t i, size_t j)
{
	char *tmp = at(t, t->k);

	memcpy(tmp, at(t, i), t->sz);
	memcpy(at(t, i), at(t, j), t->sz);
	memcpy(at(t, j), tmp, t->sz);
}

/* the heap's root is the record that comes last */
static void sift_down(struct an_topk *t, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < n && t->cmp(at(t, l), at(t, m)) > 0)
			m = l;
		if (r < n && t->cmp(at(t, r), at(t, m)) > 0)
			m = r;
		if (m == i)
			return;
		swap(t, i, m);
		i = m;
	}
}

void an_topk_add(struct an_topk *t, const void *rec)
{
	size_t i;

	if (!t->k || !t->v)
		return;
	if (t->n < t->k) {
		memcpy(at(t, t->n), rec, t->sz);
		for (i = t->n++; i > 0 && t->cmp(at(t, i), at(t, (i - 1) / 2)) > 0; i = (i - 1) / 2)
			swap(t, i, (i - 1) / 2);
		return;
	}
	if (t->cmp(rec, at(t, 0)) >= 0)
		return;
	memcpy(at(t, 0), rec, t->sz);
	sift_down(t, t->n, 0);
}

void an_topk_sort(struct an_topk *t)
{
	/* heap sort: the last goes to the end, and again */
	for (size_t n = t->n; n > 1; n--) {
		swap(t, 0, n - 1);
		sift_down(t, n - 1, 0);
	}
}
