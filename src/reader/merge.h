/*
 * merge.h - a binary min-heap of pointers, for merging the streams of
 * several traces in time order (docs/text-format.md section 9). The order
 * is the caller's: cmp(a, b) < 0 when a comes first.
 */
#ifndef TRAX_CTF_MERGE_H
#define TRAX_CTF_MERGE_H

#include <stddef.h>

struct ctf_merge_heap {
	void **items;
	size_t count;
	size_t cap;
	int (*cmp)(const void *a, const void *b);
};

void ctf_merge_init(struct ctf_merge_heap *h, int (*cmp)(const void *a, const void *b));
void ctf_merge_free(struct ctf_merge_heap *h);
/* 0, or -1 when memory runs out. */
int ctf_merge_push(struct ctf_merge_heap *h, void *item);
/* The first item, NULL when empty. */
static inline void *ctf_merge_top(const struct ctf_merge_heap *h)
{
	return h->count ? h->items[0] : NULL;
}
/* Removes the first item. */
void ctf_merge_pop(struct ctf_merge_heap *h);
/* The first item's key changed (it can only have grown): moves it down. */
void ctf_merge_top_changed(struct ctf_merge_heap *h);

#endif /* TRAX_CTF_MERGE_H */
