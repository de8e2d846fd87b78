/*
 * clock.h - the trace clock: CLOCK_MONOTONIC in nanoseconds, the same clock
 * the kernel's trace uses, so user-space and kernel traces merge. A clock
 * plugin (TRAX_CLOCK_PLUGIN) may replace it.
 */
#ifndef TRAX_CLOCK_H
#define TRAX_CLOCK_H

#include <stdint.h>
#include <time.h>

struct trax_clock_plugin {
	uint64_t (*read)(void);
	uint64_t freq;            /* Hz */
	const char *name;         /* TSDL clock name */
	const char *description;
};

/* Non-NULL once a plugin is loaded; read on every timestamp. */
extern uint64_t (*trax_clock_override)(void);

static inline uint64_t trax_clock_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t trax_clock_read(void)
{
	if (__builtin_expect(trax_clock_override != 0, 0))
		return trax_clock_override();
	return trax_clock_monotonic();
}

/* The clock the trace describes (name, frequency, offset from the epoch). */
struct trax_clock_info {
	const char *name;
	const char *description;
	uint64_t freq;
	int64_t offset_s; /* epoch time of clock value 0: seconds ... */
	int64_t offset;   /* ... plus cycles */
	char uuid[37];
};

/* Loads TRAX_CLOCK_PLUGIN if set; returns 0 or -1 (plugin unusable). */
int trax_clock_init(void);
/* Describes the current trace clock, measuring its offset from the epoch. */
void trax_clock_describe(struct trax_clock_info *info);
/* The function the ring buffers call for timestamps. */
uint64_t trax_clock_fn(void);

#endif /* TRAX_CLOCK_H */
