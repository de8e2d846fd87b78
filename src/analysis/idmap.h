/*
 * idmap.h - a map from 64-bit keys (thread ids, event class keys) to
 * 32-bit values (indexes into the caller's arrays): open addressing,
 * doubled when half full. No allocation per lookup.
 */
#ifndef TRAX_ANALYSIS_IDMAP_H
#define TRAX_ANALYSIS_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct an_idmap {
	uint64_t *keys;
	uint32_t *vals; /* UINT32_MAX: empty slot */
	size_t cap, count;
};

#define AN_IDMAP_NONE UINT32_MAX

void an_idmap_init(struct an_idmap *m);
void an_idmap_free(struct an_idmap *m);
/* The value of key, AN_IDMAP_NONE when absent. */
uint32_t an_idmap_get(const struct an_idmap *m, uint64_t key);
/* Sets key's value (val != AN_IDMAP_NONE): 0, or -1 when memory runs out. */
int an_idmap_put(struct an_idmap *m, uint64_t key, uint32_t val);

#endif /* TRAX_ANALYSIS_IDMAP_H */
