/* idmap.c - 64-bit key to index map (idmap.h). */
#include "analysis/idmap.h"

#include <stdlib.h>
#include <string.h>

void an_idmap_init(struct an_idmap *m)
{
	memset(m, 0, sizeof(*m));
}

void an_idmap_free(struct an_idmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static inline size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

uint32_t an_idmap_get(const struct an_idmap *m, uint64_t key)
{
	if (!m->cap)
		return AN_IDMAP_NONE;
	for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->vals[i] == AN_IDMAP_NONE)
			return AN_IDMAP_NONE;
		if (m->keys[i] == key)
			return m->vals[i];
	}
}

static void insert(uint64_t *keys, uint32_t *vals, size_t cap, uint64_t key, uint32_t val)
{
	size_t i = slot_of(key, cap);

	while (vals[i] != AN_IDMAP_NONE && keys[i] != key)
		i = (i + 1) & (cap - 1);
	keys[i] = key;
	vals[i] = val;
}

int an_idmap_put(struct an_idmap *m, uint64_t key, uint32_t val)
{
	if ((m->count + 1) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		uint64_t *keys = malloc(cap * sizeof(*keys));
		uint32_t *vals = malloc(cap * sizeof(*vals));

		if (!keys || !vals) {
			free(keys);
			free(vals);
			return -1;
		}
		memset(vals, 0xff, cap * sizeof(*vals));
		for (size_t i = 0; i < m->cap; i++)
			if (m->vals[i] != AN_IDMAP_NONE)
				insert(keys, vals, cap, m->keys[i], m->vals[i]);
		free(m->keys);
		free(m->vals);
		m->keys = keys;
		m->vals = vals;
		m->cap = cap;
	}
	if (an_idmap_get(m, key) == AN_IDMAP_NONE)
		m->count++;
	insert(m->keys, m->vals, m->cap, key, val);
	return 0;
}
