/*
 * kthreads.h - what the kernel domain knows of a thread when it writes a
 * record's contexts: its process, parent, name, priority. tracefs records
 * carry only the thread id (common_pid); the rest is read from /proc when
 * a thread is first seen, and again when what was read is older than
 * KTHREADS_REFRESH_NS of trace time. A thread that exited before its
 * records were written keeps what was last read, or is unknown (-1, "").
 * docs/kernel.md says how this differs from LTTng, which reads the task.
 *
 * One cache per writing thread: no locking.
 */
#ifndef TRAX_KERNEL_KTHREADS_H
#define TRAX_KERNEL_KTHREADS_H

#include <stdint.h>

#define KTHREADS_REFRESH_NS 100000000ull /* 100 ms */

struct kthread_info {
	int32_t tid, pid, ppid, vtid, vpid;
	int32_t prio; /* as LTTng records it: the kernel's prio - 100 */
	int32_t nice;
	char comm[16]; /* NUL-padded */
	uint64_t read_ts;
	int known; /* /proc was read for it */
};

struct kthreads;

/* proc: where /proc is (tests give another tree). */
struct kthreads *kthreads_new(const char *proc);
void kthreads_free(struct kthreads *c);
/* What is known of tid at time ts (read or re-read from /proc as needed); never NULL. */
const struct kthread_info *kthreads_get(struct kthreads *c, int32_t tid, uint64_t ts);

#endif /* TRAX_KERNEL_KTHREADS_H */
