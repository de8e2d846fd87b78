/*
 * clock.h - the trace clock: CLOCK_MONOTONIC in nanoseconds, the same clock
 * the kernel's trace uses, so user-space and kernel traces merge. A clock
 * plugin (TRAX_CLOCK_PLUGIN) may replace it.
 */
#ifndef TRAX_CLOCK_H
#define TRAX_CLOCK_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct trax_clock_plugin {
	uint64_t (*read)(void);
	uint64_t freq;	  /* Hz */
	const char *name; /* TSDL clock name */
	const char *description;
};

/* Non-NULL once a plugin is loaded; read on every timestamp. */
extern uint64_t (*trax_clock_override)(void);

/*
 * CLOCK_MONOTONIC from the TSC. clock_gettime() costs ~35 ns in a VM, rdtsc
 * ~11 ns, so on x86-64 with an invariant TSC that the kernel itself uses as
 * its clocksource, the tracer computes
 *
 *     ns = base_ns + (((tsc - base_tsc) * mult) >> 32)
 *
 * and re-bases the model every period against clock_gettime(), slewing its
 * slope so that it tracks CLOCK_MONOTONIC (NTP corrections included) within
 * a microsecond or so, and never steps back. Readers take the parameters
 * under a sequence count. The per-buffer timestamp order does not depend on
 * this clock: the ring buffer clamps each record to its predecessor.
 */
struct trax_tsc_model {
	uint32_t seq;	  /* odd while the parameters change */
	uint32_t enabled; /* 0: use clock_gettime() */
	uint64_t base_tsc;
	uint64_t base_ns;
	uint64_t mult;	 /* ns per cycle, 32.32 fixed point */
	uint64_t period; /* cycles after base_tsc that trigger a re-base */
} __attribute__((aligned(64)));

extern struct trax_tsc_model trax_tsc;
uint64_t trax_clock_rebase(uint64_t tsc);
/* Starts reading the TSC if it is safe here (calibrates once, ~200 us). */
void trax_clock_tsc_enable(void);

#if defined(__x86_64__)
static inline uint64_t trax_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static inline int trax_clock_tsc_read(uint64_t *ns)
{
	for (;;) {
		uint32_t s = __atomic_load_n(&trax_tsc.seq, __ATOMIC_ACQUIRE);
		uint64_t bt = __atomic_load_n(&trax_tsc.base_tsc, __ATOMIC_RELAXED);
		uint64_t bn = __atomic_load_n(&trax_tsc.base_ns, __ATOMIC_RELAXED);
		uint64_t mu = __atomic_load_n(&trax_tsc.mult, __ATOMIC_RELAXED);
		uint64_t per = __atomic_load_n(&trax_tsc.period, __ATOMIC_RELAXED);
		uint64_t d;

		if (__builtin_expect(!__atomic_load_n(&trax_tsc.enabled, __ATOMIC_RELAXED), 0))
			return 0;
		d = trax_rdtsc() - bt;
		/* A TSC read a little before the base (not ordered): no re-base. */
		if ((int64_t)d < 0)
			d = 0;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__builtin_expect(
			(s & 1) || __atomic_load_n(&trax_tsc.seq, __ATOMIC_RELAXED) != s, 0))
			continue;
		if (__builtin_expect(d > per, 0))
			*ns = trax_clock_rebase(d + bt);
		else
			*ns = bn + (uint64_t)(((unsigned __int128)d * mu) >> 32);
		return 1;
	}
}
#endif

static inline uint64_t trax_clock_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CLOCK_MONOTONIC in milliseconds: for deadlines and timeouts, not timestamps. */
static inline int64_t trax_now_ms(void)
{
	return (int64_t)(trax_clock_monotonic() / 1000000u);
}

/* Sleeps ms milliseconds, the whole of them even when signals interrupt it. */
static inline void trax_sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static inline uint64_t trax_clock_read(void)
{
#if defined(__x86_64__)
	uint64_t ns;
#endif

	if (__builtin_expect(trax_clock_override != 0, 0))
		return trax_clock_override();
#if defined(__x86_64__)
	if (__builtin_expect(trax_clock_tsc_read(&ns), 1))
		return ns;
#endif
	return trax_clock_monotonic();
}

/* The clock the trace describes (name, frequency, offset from the epoch). */
struct trax_clock_info {
	const char *name;
	const char *description;
	uint64_t freq;
	int64_t offset_s; /* epoch time of clock value 0: seconds ... */
	int64_t offset;	  /* ... plus cycles */
	char uuid[37];
	/*
	 * The clock's origin is the epoch itself, whatever the machine (the
	 * traces of pre-CTF tracers, timed from gettimeofday): CTF's absolute,
	 * so that readers merge such traces with each other and with LTTng's.
	 * The tracers' own clocks are a machine's monotonic clock: false.
	 */
	bool absolute;
};

/* Loads TRAX_CLOCK_PLUGIN if set; returns 0 or -1 (plugin unusable). */
int trax_clock_init(void);
/*
 * Makes p the trace clock (LTTng-UST's clock API, src/ust/lttng-plugins.c),
 * with uuid when it is one ("xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"), else a
 * new one. Returns 0, or -EBUSY once a plugin is in place or trax_clock_init()
 * is over: the traces already describe their clock.
 */
int trax_clock_override_install(const struct trax_clock_plugin *p, const char *uuid);
/* Non-zero while an override may still be installed. */
int trax_clock_override_open(void);
/* Describes the current trace clock, measuring its offset from the epoch. */
void trax_clock_describe(struct trax_clock_info *info);
/* The function the ring buffers call for timestamps. */
uint64_t trax_clock_fn(void);

#endif /* TRAX_CLOCK_H */
