/*
 * krecorder.h - a flight recorder of event records in memory, per CPU:
 * what the system call probes of a snapshot session hand over is kept
 * here (their BPF ring buffers cannot overwrite: a full one refuses new
 * records), the newest records in a bounded number of bytes per CPU,
 * the oldest dropped first to make room and counted, as the kernel's
 * ring buffer counts its overruns. A snapshot takes what a CPU holds, in
 * the order it was put (the sources put each CPU's records in time
 * order), and leaves it empty: the next snapshot has what came after.
 *
 *	r = krecorder_new(nr_cpus, bytes_per_cpu);
 *	source_consume(..., krecorder_sink, r);		 (kevent_sink_fn)
 *	n = krecorder_take(r, cpu, ktrace_sink, ss, &lost);	 (at a snapshot)
 *
 * One thread at a time (the caller locks): the classes of the records
 * kept must outlive the recorder or its next take.
 */
#ifndef TRAX_KERNEL_KRECORDER_H
#define TRAX_KERNEL_KRECORDER_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/kevent.h"

struct krecorder;

/*
 * A recorder of CPUs 0..nr_cpus-1, each holding bytes_per_cpu bytes of
 * records (a record costs KRECORDER_OVERHEAD bytes and its payload
 * rounded up to 8). A CPU's memory is taken at its first record. NULL
 * when out of memory.
 */
struct krecorder *krecorder_new(unsigned int nr_cpus, size_t bytes_per_cpu);
void krecorder_free(struct krecorder *r);

/* What a record costs in a CPU's bytes besides its payload. */
#define KRECORDER_OVERHEAD 24u

/*
 * kevent_sink_fn: keeps a copy of rec (its payload too) in the recorder
 * (a struct krecorder *) of rec->cpu, dropping that CPU's oldest records
 * until it fits. A record larger than a CPU's bytes, of a CPU out of
 * range, or that cannot be kept for want of memory, is dropped itself.
 * Every dropped record is counted (krecorder_dropped). Always 0.
 */
int krecorder_sink(void *recorder, const struct kevent_record *rec);

/*
 * Hands cpu's records to sink, oldest first, and empties it. *dropped
 * (when not NULL) is set to the records cpu dropped since its previous
 * take (or since it was made). Records handed, or the sink's -errno: the
 * records it was not given are dropped then (and counted).
 */
long krecorder_take(struct krecorder *r, int cpu, kevent_sink_fn sink, void *arg,
		    uint64_t *dropped);

/* Records cpu holds now. */
uint64_t krecorder_held(const struct krecorder *r, int cpu);
/* Records cpu dropped since the recorder was made (never decreases). */
uint64_t krecorder_dropped(const struct krecorder *r, int cpu);
/* Records given for CPUs out of range (dropped). */
uint64_t krecorder_stray(const struct krecorder *r);

#endif /* TRAX_KERNEL_KRECORDER_H */
