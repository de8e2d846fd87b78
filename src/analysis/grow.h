/*
 * grow.h - the growable arrays of the analyses: an_grow() makes room,
 * doubling the capacity (from 64), so that appending is amortized O(1).
 */
#ifndef TRAX_ANALYSIS_GROW_H
#define TRAX_ANALYSIS_GROW_H

#include <stdlib.h>

/* Grows *v (of *cap elements of size sz) to hold n: 0, or -1 (*v unchanged) when out of memory. */
static inline int an_grow(void **v, size_t *cap, size_t n, size_t sz)
{
	size_t c = *cap ? *cap : 64;
	void *p;

	if (n <= *cap)
		return 0;
	while (c < n)
		c *= 2;
	if (!(p = realloc(*v, c * sz)))
		return -1;
	*v = p;
	*cap = c;
	return 0;
}

#endif /* TRAX_ANALYSIS_GROW_H */
