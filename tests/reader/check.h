/*
 * check.h - the reader tests' assertion: reports the failed condition with
 * its place and a message, counts it in `failures`, and goes on.
 */
#ifndef TRAX_TESTS_CHECK_H
#define TRAX_TESTS_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                       \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

#endif /* TRAX_TESTS_CHECK_H */
