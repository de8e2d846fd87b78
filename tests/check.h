/*
 * check.h - the one assertion of the unit, reader and fuzz tests.
 *
 * CHECK(cond, fmt, ...) reports a failed condition with its place, the
 * condition and an optional message, counts it in `failures` and goes on,
 * so that one run shows every broken point. A test's main() ends with
 * `return CHECK_RESULT();`, which prints the count and gives the exit
 * status. CHECK_EQ(a, b) compares two integers and prints both values.
 * Fuzz targets, which must stop at the first fault, define
 * CHECK_ABORT before including this header: a failed check then aborts.
 * A test whose later checks mean nothing once one failed (threads waiting
 * on each other) defines CHECK_STOP instead: the first failure ends it
 * with exit status 1. A test made of parts may name the running one in
 * check_part: failures then say which.
 */
#ifndef TRAX_TESTS_CHECK_H
#define TRAX_TESTS_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static int failures __attribute__((unused));
static const char *check_part __attribute__((unused));

static inline void check_failed(const char *file, int line, const char *cond)
{
	if (check_part)
		fprintf(stderr, "FAIL [%s] %s:%d: %s", check_part, file, line, cond);
	else
		fprintf(stderr, "FAIL %s:%d: %s", file, line, cond);
	failures++;
}

static inline void check_after_failure(void)
{
#if defined(CHECK_ABORT)
	abort();
#elif defined(CHECK_STOP)
	fprintf(stderr, "stopped at the first failed check\n");
	exit(1);
#endif
}

/* The message is optional: CHECK(x > 0) or CHECK(x > 0, "x = %d", x). */
#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			check_failed(__FILE__, __LINE__, #cond);                                   \
			fprintf(stderr, ": " __VA_ARGS__);                                         \
			fputc('\n', stderr);                                                       \
			check_after_failure();                                                              \
		}                                                                                  \
	} while (0)

#define CHECK_EQ(a, b)                                                                             \
	do {                                                                                       \
		int64_t check_a_ = (int64_t)(a), check_b_ = (int64_t)(b);                          \
		if (check_a_ != check_b_) {                                                        \
			check_failed(__FILE__, __LINE__, #a " == " #b);                            \
			fprintf(stderr, ": %" PRId64 " != %" PRId64 "\n", check_a_, check_b_);     \
			check_after_failure();                                                              \
		}                                                                                  \
	} while (0)

/* main()'s exit status: 0 when every check held. */
#define CHECK_RESULT() (failures ? (fprintf(stderr, "%d check(s) failed\n", failures), 1) : 0)

#endif /* TRAX_TESTS_CHECK_H */
