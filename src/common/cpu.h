/*
 * cpu.h - the current CPU, for choosing a per-CPU buffer. It reads the
 * cpu_id the kernel keeps in the thread's rseq area (registered by glibc
 * 2.35+), which costs one load; else sched_getcpu(). TRAX_GETCPU_PLUGIN may
 * replace it.
 */
#ifndef TRAX_CPU_H
#define TRAX_CPU_H

#include <stddef.h>
#include <stdint.h>

extern int (*trax_getcpu_override)(void);
extern ptrdiff_t trax_rseq_offset; /* 0: no rseq area */

int trax_getcpu_slow(void);

static inline int trax_getcpu(void)
{
	/*
	 * A plain load of the override, as on this path before it could change
	 * at run time: lttng_ust_getcpu_override() stores it atomically, and an
	 * aligned pointer is read whole (an atomic load here costs one more
	 * instruction per event).
	 */
	if (__builtin_expect(trax_rseq_offset != 0 && trax_getcpu_override == 0, 1)) {
		/* struct rseq: cpu_id_start (u32), then cpu_id (s32). */
		const volatile int32_t *cpu_id =
		    (const volatile int32_t *)((char *)__builtin_thread_pointer() +
					       trax_rseq_offset + 4);
		int c = *cpu_id;

		if (__builtin_expect(c >= 0, 1))
			return c;
	}
	return trax_getcpu_slow();
}

/* Detects rseq and loads TRAX_GETCPU_PLUGIN. */
void trax_cpu_init(void);
/* Number of possible CPUs (buffers to create). */
int trax_cpu_count(void);

#endif /* TRAX_CPU_H */
