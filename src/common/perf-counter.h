/*
 * perf-counter.h - the per-CPU performance counters a kernel channel can
 * record as contexts, under LTTng's names ("perf:cpu:page-fault", as
 * lttng-add-context(1) lists them) with their perf_event_attr type and
 * config, the CTF field name LTTng gives their value ("perf_cpu_page_fault":
 * the name with ':' and '-' made '_'), and whether this machine can open
 * them (a VM may have software counters only). Shared by the kernel domain
 * (which records them) and the command line (which lists them).
 */
#ifndef TRAX_COMMON_PERF_COUNTER_H
#define TRAX_COMMON_PERF_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_counter_def {
	const char *name; /* "perf:cpu:page-fault" */
	uint32_t type;	  /* PERF_TYPE_HARDWARE, _SOFTWARE, _HW_CACHE */
	uint64_t config;
};

/* How many counters the table holds, and the i-th (NULL past the end). */
unsigned int perf_counter_count(void);
const struct perf_counter_def *perf_counter_at(unsigned int i);
/* The index of name in the table, or -1. */
int perf_counter_find(const char *name);

/* LTTng's field name for counter name: "perf_cpu_page_fault". */
void perf_counter_field_name(const char *name, char *buf, size_t len);

/*
 * perf_event_open(2) of counter d (with attr's other fields zero but
 * pinned), counting on cpu for every task (pid -1), or for pid on any CPU
 * (cpu -1). The descriptor, or -errno.
 */
int perf_counter_open(const struct perf_counter_def *d, int pid, int cpu);

/*
 * Whether this machine has counter d: as root, a per-CPU counter opens on
 * CPU 0; otherwise one of the caller's own (user-space counting) does.
 */
bool perf_counter_available(const struct perf_counter_def *d);

#endif /* TRAX_COMMON_PERF_COUNTER_H */
