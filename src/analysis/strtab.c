/* strtab.c - interned strings (strtab.h). */
#include "analysis/strtab.h"

#include <stdlib.h>
#include <string.h>

void strtab_init(struct strtab *t)
{
	memset(t, 0, sizeof(*t));
	an_idmap_init(&t->map);
}

void strtab_free(struct strtab *t)
{
	an_idmap_free(&t->map);
	free(t->arena);
	free(t->off);
	memset(t, 0, sizeof(*t));
}

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ULL;
	return h;
}

uint32_t strtab_id(struct strtab *t, const char *s)
{
	uint64_t h = hash(s);
	size_t n = strlen(s) + 1;
	uint32_t id;

	/* a different string of the same hash: the next key */
	for (;; h++) {
		id = an_idmap_get(&t->map, h);
		if (id == AN_IDMAP_NONE)
			break;
		if (!strcmp(t->arena + t->off[id], s))
			return id;
	}
	if (t->count == t->offcap) {
		size_t cap = t->offcap ? t->offcap * 2 : 64;
		size_t *v = realloc(t->off, cap * sizeof(*v));

		if (!v)
			return UINT32_MAX;
		t->off = v;
		t->offcap = cap;
	}
	if (t->len + n > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4096;
		char *a;

		while (cap < t->len + n)
			cap *= 2;
		if (!(a = realloc(t->arena, cap)))
			return UINT32_MAX;
		t->arena = a;
		t->cap = cap;
	}
	id = (uint32_t)t->count;
	if (an_idmap_put(&t->map, h, id))
		return UINT32_MAX;
	memcpy(t->arena + t->len, s, n);
	t->off[t->count++] = t->len;
	t->len += n;
	return id;
}
