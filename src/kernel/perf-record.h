/*
 * perf-record.h - a kernel channel's tracepoints recorded through perf
 * rather than tracefs, for channels with perf:cpu: counter contexts: a
 * tracefs record cannot carry counter values, a perf sample can.
 *
 * Per CPU, one perf group: its leader is the channel's first counter, its
 * other counters and each enabled tracepoint (PERF_TYPE_TRACEPOINT, every
 * record sampled) are members. A tracepoint's sample holds the record as
 * tracefs would (PERF_SAMPLE_RAW: the format file's layout, which kmap
 * converts), its time (CLOCK_MONOTONIC), its thread, and the group's
 * values (PERF_SAMPLE_READ, PERF_FORMAT_GROUP): the counters' values on
 * that CPU at the event. Every member of a CPU's group writes into one
 * ring buffer (PERF_EVENT_IOC_SET_OUTPUT), read by that CPU's thread;
 * what a full ring loses is counted (PERF_RECORD_LOST).
 *
 *	p = kperf_new(counters, n, nr_cpus, bytes, err, sizeof(err));
 *	kperf_enable(p, tracefs_id, true, err, sizeof(err));
 *	kperf_start(p);
 *	per CPU: poll(kperf_fd(p, cpu)); kperf_consume(p, cpu, fn, arg);
 *	kperf_stop(p); kperf_free(p);
 */
#ifndef TRAX_KERNEL_PERF_RECORD_H
#define TRAX_KERNEL_PERF_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/perf-counter.h"

/* Counter contexts a channel can have. */
#define KPERF_MAX_COUNTERS 8
/*
 * Tracepoints such a channel can record: each sample carries the value of
 * every member of its group (8 bytes each), and each takes a descriptor
 * per CPU.
 */
#define KPERF_MAX_TRACEPOINTS 256

struct kperf;

/*
 * Opens the counters (counters[0..n), n >= 1) on each of nr_cpus CPUs as
 * the leaders and first members of a group per CPU, stopped, and a ring
 * of ring_bytes (rounded up to a power of two of pages) per CPU. NULL and
 * err set (one line naming the counter the kernel refused) on failure.
 */
struct kperf *kperf_new(const struct perf_counter_def *const *counters, unsigned int n,
			unsigned int nr_cpus, size_t ring_bytes, char *err, size_t errlen);
void kperf_free(struct kperf *p);

/*
 * Records (on true) or stops recording (false) the tracepoint of tracefs
 * id `id` on every CPU. Any time: while started, at once. 0, or -errno
 * with err set (-E2BIG: KPERF_MAX_TRACEPOINTS are recorded already).
 */
int kperf_enable(struct kperf *p, uint32_t id, bool on, char *err, size_t errlen);

/* Only these processes' records (tgids; npids 0: all). */
int kperf_set_pids(struct kperf *p, const int *pids, unsigned int npids);

/* Starts and stops the groups (the counters and the tracepoints). */
int kperf_start(struct kperf *p);
void kperf_stop(struct kperf *p);

/* cpu's ring, to wait on with poll(); its counter j's descriptor (for BPF). */
int kperf_fd(const struct kperf *p, int cpu);
int kperf_counter_fd(const struct kperf *p, int cpu, unsigned int j);
unsigned int kperf_ncounters(const struct kperf *p);

/*
 * A sample: the tracepoint's raw record (common_type first) of len bytes,
 * recorded at ts (CLOCK_MONOTONIC ns) by thread tid on cpu, with the
 * counters' values there and then (in kperf_new's order). 0 to go on,
 * -errno to stop.
 */
typedef int (*kperf_sample_fn)(void *arg, int cpu, uint64_t ts, int32_t tid, const uint8_t *raw,
			       size_t len, const uint64_t *counters);

/* Hands what cpu's ring holds to fn, in order. Samples handed, or fn's -errno. */
long kperf_consume(struct kperf *p, int cpu, kperf_sample_fn fn, void *arg);

/*
 * The counters' values on cpu now (read from user space: what records made
 * outside the tracepoints, such as the state dump's, carry). 0, or -errno.
 */
int kperf_read(const struct kperf *p, int cpu, uint64_t *values);

/* Samples cpu's ring could not take, since the start. */
uint64_t kperf_lost(const struct kperf *p, int cpu);

#endif /* TRAX_KERNEL_PERF_RECORD_H */
