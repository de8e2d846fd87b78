/*
 * larena.c - a bump allocator over a list of malloc'd chunks: type trees
 * are built once, never edited, and freed together.
 */
#include "legacy/larena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LARENA_CHUNK 8192

struct larena_chunk {
	struct larena_chunk *next;
	size_t used, size;
	max_align_t data[];
};

struct lxml_arena {
	struct larena_chunk *head;
};

struct lxml_arena *larena_new(void)
{
	return calloc(1, sizeof(struct lxml_arena));
}

void larena_free(struct lxml_arena *a)
{
	if (!a)
		return;
	for (struct larena_chunk *c = a->head, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	free(a);
}

void *larena_alloc(struct lxml_arena *a, size_t size)
{
	const size_t al = _Alignof(max_align_t);
	struct larena_chunk *c = a->head;

	if (size > SIZE_MAX / 2)
		return NULL;
	size = (size + al - 1) & ~(al - 1);
	if (!c || c->size - c->used < size) {
		size_t cap = size > LARENA_CHUNK ? size : LARENA_CHUNK;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->used = 0;
		c->size = cap;
		/* a big block gets its own chunk, behind the one being filled */
		if (a->head && cap > LARENA_CHUNK) {
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
	}
	void *p = (char *)c->data + c->used;

	c->used += size;
	memset(p, 0, size);
	return p;
}

char *larena_strndup(struct lxml_arena *a, const char *s, size_t n)
{
	char *d = larena_alloc(a, n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

void lmsg_one_line(char *msg)
{
	for (; *msg; msg++)
		if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
			*msg = '?';
}
