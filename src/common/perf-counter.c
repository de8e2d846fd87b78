/*
 * perf-counter.c - LTTng's per-CPU counter names and their perf events
 * (perf-counter.h). The names and the events they stand for are those of
 * lttng-add-context(1) 2.13 (its --list), the event numbers
 * <linux/perf_event.h>'s.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "common/perf-counter.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define HW(n, c)                                                                                   \
	{                                                                                          \
		"perf:cpu:" n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c                               \
	}
#define SW(n, c)                                                                                   \
	{                                                                                          \
		"perf:cpu:" n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c                               \
	}
/* a generalized cache event: cache | operation << 8 | result << 16 */
#define HWC(n, cache, op, res)                                                                     \
	{                                                                                          \
		"perf:cpu:" n, PERF_TYPE_HW_CACHE,                                                 \
		    PERF_COUNT_HW_CACHE_##cache | (PERF_COUNT_HW_CACHE_OP_##op << 8) |             \
			(PERF_COUNT_HW_CACHE_RESULT_##res << 16)                                   \
	}
/* the six of a data or unified cache */
#define CACHE6(n, cache)                                                                           \
	HWC(n "-loads", cache, READ, ACCESS), HWC(n "-load-misses", cache, READ, MISS),            \
	    HWC(n "-stores", cache, WRITE, ACCESS), HWC(n "-store-misses", cache, WRITE, MISS),    \
	    HWC(n "-prefetches", cache, PREFETCH, ACCESS),                                         \
	    HWC(n "-prefetch-misses", cache, PREFETCH, MISS)

static const struct perf_counter_def counters[] = {
    HW("cpu-cycles", CPU_CYCLES),
    HW("cycles", CPU_CYCLES),
    HW("stalled-cycles-frontend", STALLED_CYCLES_FRONTEND),
    HW("idle-cycles-frontend", STALLED_CYCLES_FRONTEND),
    HW("stalled-cycles-backend", STALLED_CYCLES_BACKEND),
    HW("idle-cycles-backend", STALLED_CYCLES_BACKEND),
    HW("instructions", INSTRUCTIONS),
    HW("cache-references", CACHE_REFERENCES),
    HW("cache-misses", CACHE_MISSES),
    HW("branch-instructions", BRANCH_INSTRUCTIONS),
    HW("branches", BRANCH_INSTRUCTIONS),
    HW("branch-misses", BRANCH_MISSES),
    HW("bus-cycles", BUS_CYCLES),
    CACHE6("L1-dcache", L1D),
    CACHE6("L1-icache", L1I),
    CACHE6("LLC", LL),
    CACHE6("dTLB", DTLB),
    HWC("iTLB-loads", ITLB, READ, ACCESS),
    HWC("iTLB-load-misses", ITLB, READ, MISS),
    HWC("branch-loads", BPU, READ, ACCESS),
    HWC("branch-load-misses", BPU, READ, MISS),
    SW("cpu-clock", CPU_CLOCK),
    SW("task-clock", TASK_CLOCK),
    SW("page-fault", PAGE_FAULTS),
    SW("faults", PAGE_FAULTS),
    SW("major-faults", PAGE_FAULTS_MAJ),
    SW("minor-faults", PAGE_FAULTS_MIN),
    SW("context-switches", CONTEXT_SWITCHES),
    SW("cs", CONTEXT_SWITCHES),
    SW("cpu-migrations", CPU_MIGRATIONS),
    SW("migrations", CPU_MIGRATIONS),
    SW("alignment-faults", ALIGNMENT_FAULTS),
    SW("emulation-faults", EMULATION_FAULTS),
};

unsigned int perf_counter_count(void)
{
	return sizeof(counters) / sizeof(counters[0]);
}

const struct perf_counter_def *perf_counter_at(unsigned int i)
{
	return i < perf_counter_count() ? &counters[i] : NULL;
}

int perf_counter_find(const char *name)
{
	for (unsigned int i = 0; i < perf_counter_count(); i++)
		if (!strcmp(counters[i].name, name))
			return (int)i;
	return -1;
}

void perf_counter_field_name(const char *name, char *buf, size_t len)
{
	size_t i;

	if (!len)
		return;
	for (i = 0; name[i] && i + 1 < len; i++)
		buf[i] = name[i] == ':' || name[i] == '-' ? '_' : name[i];
	buf[i] = '\0';
}

static int open_attr(struct perf_event_attr *a, int pid, int cpu)
{
	long fd = syscall(SYS_perf_event_open, a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

int perf_counter_open(const struct perf_counter_def *d, int pid, int cpu)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = d->type;
	a.config = d->config;
	a.pinned = 1;
	return open_attr(&a, pid, cpu);
}

bool perf_counter_available(const struct perf_counter_def *d)
{
	struct perf_event_attr a;
	int fd;

	if (geteuid() == 0) {
		fd = perf_counter_open(d, -1, 0);
	} else {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = d->type;
		a.config = d->config;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		fd = open_attr(&a, 0, -1);
	}
	if (fd < 0)
		return false;
	close(fd);
	return true;
}
