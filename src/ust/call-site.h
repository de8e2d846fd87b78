/*
 * call-site.h - the library's own tracepoint call sites (the state dump's,
 * the loaded objects'), declared as `struct trax_tracepoint` and registered
 * like any module's, and called through their probe directly.
 */
#ifndef TRAX_CALL_SITE_H
#define TRAX_CALL_SITE_H

#include <stddef.h>

#include "trax/tracepoint.h"

/* The probe of a call site whose event is recorded somewhere (with its data), else NULL. */
static inline void *trax_call_site_probe(struct trax_tracepoint *tp, void **data)
{
	void *probe = __atomic_load_n(&tp->probe, __ATOMIC_ACQUIRE);

	if (!probe || !__atomic_load_n(&tp->state, __ATOMIC_RELAXED))
		return NULL;
	*data = __atomic_load_n(&tp->data, __ATOMIC_ACQUIRE);
	return probe;
}

#endif /* TRAX_CALL_SITE_H */
