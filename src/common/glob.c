/*
 * glob.c - LTTng's event name patterns (see glob.h): an iterative match
 * that backtracks to the last '*' only, linear in practice.
 */
#include "common/glob.h"

#include <stddef.h>

bool trax_glob_match(const char *p, const char *s)
{
	const char *star = NULL, *resume = NULL;

	while (*s) {
		if (*p == '*') {
			star = p++;
			resume = s;
		} else if (*p == *s) {
			p++;
			s++;
		} else if (star) {
			p = star + 1;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return *p == 0;
}
