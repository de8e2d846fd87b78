/*
 * assert.c - the report of a failed TRAX_ASSERT (see assert.h).
 */
#include "common/assert.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef TRAX_ASSERTS
void trax_assert_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "trax: %s:%d: assertion failed: %s\n", file, line, what);
	abort();
}
#endif
