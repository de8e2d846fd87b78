/*
 * value-copy.c - copies of decoded values in an arena (see value-copy.h).
 */
#include "reader/value-copy.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_MIN (256u << 10)

struct ctf_arena_chunk {
	struct ctf_arena_chunk *next;
	size_t cap, used;
	_Alignas(16) unsigned char data[];
};

void ctf_value_arena_reset(struct ctf_value_arena *a)
{
	for (struct ctf_arena_chunk *c = a->head; c; c = c->next)
		c->used = 0;
	a->cur = a->head;
	a->used = 0;
}

void ctf_value_arena_free(struct ctf_value_arena *a)
{
	struct ctf_arena_chunk *c = a->head, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	memset(a, 0, sizeof(*a));
}

static void *arena_alloc_slow(struct ctf_value_arena *a, size_t n);

/* n bytes aligned for values; NULL when memory runs out. */
static inline void *arena_alloc(struct ctf_value_arena *a, size_t n)
{
	struct ctf_arena_chunk *c = a->cur;

	n = (n + 15) & ~(size_t)15;
	if (__builtin_expect(c && c->cap - c->used >= n, 1)) {
		c->used += n;
		a->used += n;
		return c->data + c->used - n;
	}
	return arena_alloc_slow(a, n);
}

/* arena_alloc() past the current chunk's end (n rounded already). */
static void *arena_alloc_slow(struct ctf_value_arena *a, size_t n)
{
	struct ctf_arena_chunk *c = a->cur, **link;
	size_t size;

	/* the next chunk that has room (kept from before a reset), else a new one */
	for (; c && c->next; c = c->next)
		if (c->next->cap - c->next->used >= n) {
			c = c->next;
			goto take;
		}
	size = n > CHUNK_MIN ? n : CHUNK_MIN;
	c = malloc(sizeof(*c) + size);
	if (!c)
		return NULL;
	c->next = NULL;
	c->cap = size;
	c->used = 0;
	for (link = &a->head; *link; link = &(*link)->next)
		;
	*link = c;
take:
	a->cur = c;
	c->used += n;
	a->used += n;
	return c->data + c->used - n;
}

static int copy_into(struct ctf_value_arena *a, struct ctf_value *dst, const struct ctf_value *v,
		     const char *lo, const char *hi);

/* Values that point to nothing: their copy is the value itself. */
static inline bool is_scalar(const struct ctf_type *t)
{
	return !t || t->kind == CTF_TYPE_INTEGER || t->kind == CTF_TYPE_ENUM ||
	       t->kind == CTF_TYPE_FLOAT;
}

static int copy_str(struct ctf_value_arena *a, struct ctf_value *dst, const char *lo,
		    const char *hi)
{
	const char *p = dst->u.str.ptr;
	uint64_t n = dst->u.str.len;
	char *copy;

	if (!p || (p >= lo && p < hi && n <= (uint64_t)(hi - p)))
		return 0;
	if (n > SIZE_MAX - 16 || !(copy = arena_alloc(a, (size_t)n + 1)))
		return -1;
	memcpy(copy, p, (size_t)n);
	copy[n] = '\0';
	dst->u.str.ptr = copy;
	return 0;
}

static int copy_items(struct ctf_value_arena *a, struct ctf_value *dst, const char *lo,
		      const char *hi)
{
	const struct ctf_value *src = dst->u.list.items;
	uint64_t n = dst->u.list.count;
	struct ctf_value *items;

	if (!n || !src)
		return 0;
	if (n > SIZE_MAX / sizeof(*items) || !(items = arena_alloc(a, (size_t)n * sizeof(*items))))
		return -1;
	/* all at once, then what the items point to (most are plain numbers) */
	memcpy(items, src, (size_t)n * sizeof(*items));
	for (uint64_t i = 0; i < n; i++)
		if (!is_scalar(items[i].type) && copy_into(a, &items[i], &src[i], lo, hi))
			return -1;
	dst->u.list.items = items;
	return 0;
}

/* *dst = *v, then whatever v points to copied or shared. */
static int copy_into(struct ctf_value_arena *a, struct ctf_value *dst, const struct ctf_value *v,
		     const char *lo, const char *hi)
{
	const struct ctf_type *t = v->type;

	*dst = *v;
	if (!t)
		return 0;
	switch (t->kind) {
	case CTF_TYPE_STRING:
		return copy_str(a, dst, lo, hi);
	case CTF_TYPE_ARRAY:
		if (ctf_type_is_text_element(t->u.array.element))
			return copy_str(a, dst, lo, hi);
		return copy_items(a, dst, lo, hi);
	case CTF_TYPE_SEQUENCE:
		if (ctf_type_is_text_element(t->u.sequence.element))
			return copy_str(a, dst, lo, hi);
		return copy_items(a, dst, lo, hi);
	case CTF_TYPE_STRUCT:
		return copy_items(a, dst, lo, hi);
	case CTF_TYPE_VARIANT:
		if (v->u.variant.value) {
			struct ctf_value *c = arena_alloc(a, sizeof(*c));

			if (!c || copy_into(a, c, v->u.variant.value, lo, hi))
				return -1;
			dst->u.variant.value = c;
		}
		return 0;
	default:
		return 0;
	}
}

struct ctf_value *ctf_value_copy(struct ctf_value_arena *a, const struct ctf_value *v,
				 const void *keep_lo, const void *keep_hi, int *oom)
{
	struct ctf_value *c;

	if (!v)
		return NULL;
	c = arena_alloc(a, sizeof(*c));
	if (!c || copy_into(a, c, v, keep_lo, keep_hi)) {
		*oom = 1;
		return NULL;
	}
	return c;
}
