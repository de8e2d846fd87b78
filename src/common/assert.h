/*
 * assert.h - invariants and lock rules, checked where it costs nothing in
 * production: TRAX_ASSERT() is compiled into the sanitizer and debug
 * builds (TRAX_ASSERTS defined, see CMakeLists.txt) and into nothing
 * elsewhere, so that it may sit on the tracer's fast path. A failed
 * assertion prints its place and condition and aborts.
 *
 * TRAX_ASSERT_LOCKED(m) states "the caller holds pthread mutex m": the
 * rule a comment like "state_lock held" used to give, now checked. It
 * compares the mutex's owner with the calling thread, which glibc records
 * for every mutex type.
 */
#ifndef TRAX_COMMON_ASSERT_H
#define TRAX_COMMON_ASSERT_H

#ifdef TRAX_ASSERTS
#include <pthread.h>
#include <unistd.h>

void trax_assert_fail(const char *file, int line, const char *what) __attribute__((noreturn));

#define TRAX_ASSERT(cond)                                                                          \
	do {                                                                                       \
		if (__builtin_expect(!(cond), 0))                                                  \
			trax_assert_fail(__FILE__, __LINE__, #cond);                               \
	} while (0)

#if defined(__GLIBC__)
#define TRAX_ASSERT_LOCKED(m)                                                                      \
	do {                                                                                       \
		if ((m)->__data.__owner != gettid())                                               \
			trax_assert_fail(__FILE__, __LINE__, "lock " #m " held");                  \
	} while (0)
#else
#define TRAX_ASSERT_LOCKED(m) ((void)(m))
#endif

#else /* !TRAX_ASSERTS */
/* Not evaluated, but still compiled: a condition that stops building is seen in every build. */
#define TRAX_ASSERT(cond)     ((void)sizeof(!(cond)))
#define TRAX_ASSERT_LOCKED(m) ((void)sizeof(m))
#endif

#endif /* TRAX_COMMON_ASSERT_H */
