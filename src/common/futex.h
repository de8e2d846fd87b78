/*
 * futex.h - sleeping and waking on a 32-bit word, also across processes
 * (the word may live in shared memory).
 */
#ifndef TRAX_FUTEX_H
#define TRAX_FUTEX_H

#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Sleeps while *word == expected, at most timeout_ns. */
static inline void trax_futex_wait(uint32_t *word, uint32_t expected, uint64_t timeout_ns)
{
	struct timespec ts = {(time_t)(timeout_ns / 1000000000u), (long)(timeout_ns % 1000000000u)};

	syscall(SYS_futex, word, FUTEX_WAIT, expected, &ts, NULL, 0);
}

/* Wakes every sleeper on word. */
static inline void trax_futex_wake(uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
}

#endif /* TRAX_FUTEX_H */
