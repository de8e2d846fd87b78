/*
 * tsdl-ptr-map.h - a map from pointers to pointers (open addressing), for walks
 * over the metadata model that must visit each shared type once: a type
 * may be reached by many paths (a typealias used in several places, nested
 * again and again), and walking every path can take exponential time.
 */
#ifndef TRAX_CTF_TSDL_PTR_MAP_H
#define TRAX_CTF_TSDL_PTR_MAP_H

#include <stdbool.h>
#include <stddef.h>

struct ptr_map {
	const void **keys; /* NULL: a free slot */
	const void **values;
	size_t cap; /* 0 or a power of two */
	size_t count;
};

/* Whether key is in the map; its value in *value then. */
bool ptr_map_get(const struct ptr_map *m, const void *key, const void **value);
/* Sets key's value (key not NULL): 0, or -1 when out of memory. */
int ptr_map_put(struct ptr_map *m, const void *key, const void *value);
/* Empties the map and frees its memory; it can be used again. */
void ptr_map_clear(struct ptr_map *m);

#endif /* TRAX_CTF_TSDL_PTR_MAP_H */
