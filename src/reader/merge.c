/* merge.c - binary min-heap (see merge.h). */
#include "reader/merge.h"

#include <stdlib.h>

void ctf_merge_init(struct ctf_merge_heap *h, int (*cmp)(const void *a, const void *b))
{
	h->items = NULL;
	h->count = h->cap = 0;
	h->cmp = cmp;
}

void ctf_merge_free(struct ctf_merge_heap *h)
{
	free(h->items);
	h->items = NULL;
	h->count = h->cap = 0;
}

static void sift_down(struct ctf_merge_heap *h, size_t i)
{
	void *it = h->items[i];

	for (;;) {
		size_t l = 2 * i + 1, m;

		if (l >= h->count)
			break;
		m = l;
		if (l + 1 < h->count && h->cmp(h->items[l + 1], h->items[l]) < 0)
			m = l + 1;
		if (h->cmp(h->items[m], it) >= 0)
			break;
		h->items[i] = h->items[m];
		i = m;
	}
	h->items[i] = it;
}

int ctf_merge_push(struct ctf_merge_heap *h, void *item)
{
	size_t i;

	if (h->count == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 16;
		void **n = realloc(h->items, cap * sizeof(*n));

		if (!n)
			return -1;
		h->items = n;
		h->cap = cap;
	}
	i = h->count++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (h->cmp(item, h->items[parent]) >= 0)
			break;
		h->items[i] = h->items[parent];
		i = parent;
	}
	h->items[i] = item;
	return 0;
}

void ctf_merge_pop(struct ctf_merge_heap *h)
{
	if (!h->count)
		return;
	h->items[0] = h->items[--h->count];
	if (h->count)
		sift_down(h, 0);
}

void ctf_merge_top_changed(struct ctf_merge_heap *h)
{
	if (h->count)
		sift_down(h, 0);
}
