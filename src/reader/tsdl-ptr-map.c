/* tsdl-ptr-map.c - a map from pointers to pointers (see tsdl-ptr-map.h). */
#include "reader/tsdl-ptr-map.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

static size_t slot_of(const void *key, size_t cap)
{
	uint64_t x = (uint64_t)(uintptr_t)key;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x & (cap - 1);
}

bool ptr_map_get(const struct ptr_map *m, const void *key, const void **value)
{
	if (!m->cap)
		return false;
	for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->keys[i])
			return false;
		if (m->keys[i] == key) {
			*value = m->values[i];
			return true;
		}
	}
}

static void insert(struct ptr_map *m, const void *key, const void *value)
{
	size_t i = slot_of(key, m->cap);

	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->keys[i])
		m->count++;
	m->keys[i] = key;
	m->values[i] = value;
}

int ptr_map_put(struct ptr_map *m, const void *key, const void *value)
{
	assert(key);
	if ((m->count + 1) * 2 > m->cap) {
		struct ptr_map bigger = {.cap = m->cap ? m->cap * 2 : 64};

		bigger.keys = calloc(bigger.cap, sizeof(*bigger.keys));
		bigger.values = calloc(bigger.cap, sizeof(*bigger.values));
		if (!bigger.keys || !bigger.values) {
			ptr_map_clear(&bigger);
			return -1;
		}
		for (size_t i = 0; i < m->cap; i++)
			if (m->keys[i])
				insert(&bigger, m->keys[i], m->values[i]);
		ptr_map_clear(m);
		*m = bigger;
	}
	insert(m, key, value);
	return 0;
}

void ptr_map_clear(struct ptr_map *m)
{
	free(m->keys);
	free(m->values);
	m->keys = NULL;
	m->values = NULL;
	m->cap = m->count = 0;
}
