/*
 * glob.h - the patterns of LTTng's event names: '*' matches any run of
 * characters (none included), anywhere in the pattern; every other
 * character matches itself (no '?', no brackets, no escapes, as lttng(1)
 * documents for event names).
 */
#ifndef TRAX_COMMON_GLOB_H
#define TRAX_COMMON_GLOB_H

#include <stdbool.h>

bool trax_glob_match(const char *pattern, const char *name);

#endif /* TRAX_COMMON_GLOB_H */
