/*
 * grow.h - an_grow() (an-impl.h) for arrays held as a pointer and a
 * capacity updated in place, as iolatency, syscallstats and ksys keep
 * theirs: an_grow_in(&v, &cap, n, size) in a condition.
 */
#ifndef TRAX_ANALYSIS_GROW_H
#define TRAX_ANALYSIS_GROW_H

#include "analysis/an-impl.h"

/* Grows *v (of *cap elements of size sz) to hold n: 0, or -1 (*v unchanged) when out of memory. */
static inline int an_grow_in(void **v, size_t *cap, size_t n, size_t sz)
{
	int failed = 0;
	void *p = an_grow(*v, cap, n, sz, &failed);

	if (!p)
		return -1;
	*v = p;
	return 0;
}

#endif /* TRAX_ANALYSIS_GROW_H */
