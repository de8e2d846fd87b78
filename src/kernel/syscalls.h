/*
 * syscalls.h - system calls with their arguments, as LTTng-modules records
 * them: syscall_entry_NAME with the input arguments, syscall_exit_NAME
 * with ret and the output arguments, strings and structures that live in
 * user memory read from it. tracefs's syscall events give pointers only,
 * so these come from BPF programs attached to the raw sys_enter and
 * sys_exit tracepoints (libbpf, CO-RE against the kernel's BTF), which
 * write into one buffer per CPU. docs/kernel.md, "System calls".
 */
#ifndef TRAX_KERNEL_SYSCALLS_H
#define TRAX_KERNEL_SYSCALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/kevent.h"

struct ksyscalls;

/*
 * The system calls of the running kernel (from tracefs's syscall events,
 * root: tracefs's mount point), without loading anything. NULL and err
 * set (one line) when they cannot be known.
 */
struct ksyscalls *ksyscalls_new(const char *root, char *err, size_t errlen);
void ksyscalls_free(struct ksyscalls *s);

/* How many there are, and their names ("openat"), for `trax list -k --syscall`. */
unsigned int ksyscalls_count(const struct ksyscalls *s);
const char *ksyscalls_name(const struct ksyscalls *s, unsigned int i);
/*
 * The 32-bit calls (compat_syscall_*_NAME events) follow the 64-bit ones:
 * indices count..count+compat_count-1 of ksyscalls_name and
 * ksyscalls_class are theirs (their names are the 32-bit kernel's:
 * "llseek"). Listings show the first count only.
 */
unsigned int ksyscalls_compat_count(const struct ksyscalls *s);
/* The class of call i's entry (exit false) or exit event; NULL when none. */
struct kevent_class *ksyscalls_class(struct ksyscalls *s, unsigned int i, bool exit);
/* "int dfd, const char * filename, ..." as LTTng types them, for listings. */
const char *ksyscalls_signature(const struct ksyscalls *s, unsigned int i);

/*
 * Sets whether the entries and the exits of the calls whose name matches
 * pattern (a glob: '*' anywhere; "*": all) are recorded: false, false
 * stops recording them. "unknown" (which "*" matches) stands for LTTng's
 * syscall_*_unknown events: numbers without a call in the table, and
 * 32-bit calls. Any time: while started, it takes effect at once.
 * Matches, or -errno.
 */
int ksyscalls_enable(struct ksyscalls *s, const char *pattern, bool entry, bool exit);

/*
 * Gives the probes the guards of call i's entry (exit false) or exit
 * from the rules that enable it (kfpush.h's struct kfpush_rule, n of
 * them; none: nothing enables it): what of their LTTng filters the probes
 * can check on registers, return value and thread before recording
 * (syscall-table.h: sc_guard_derive). The exact filters still run on
 * what is recorded. Any time: while started, it takes effect at once.
 * 0, or -errno.
 */
struct kfpush_rule;
int ksyscalls_set_guards(struct ksyscalls *s, unsigned int i, bool exit,
			 const struct kfpush_rule *rules, unsigned int n);

/* Only these processes (tgids); npids 0: every process. Any time. 0, or -errno. */
int ksyscalls_set_pids(struct ksyscalls *s, const int *pids, unsigned int npids);

/*
 * Only the threads whose real user id (KSYSCALLS_UID) or group id
 * (KSYSCALLS_GID) is one of ids (none when n is 0), or, all set, every
 * thread. The calls recorded pass every tracker (pid, uid, gid). Any time.
 * 0, or -errno.
 */
#define KSYSCALLS_UID 0
#define KSYSCALLS_GID 1
int ksyscalls_set_ids(struct ksyscalls *s, int kind, const int *ids, unsigned int n, bool all);

/*
 * Loads and attaches the BPF programs, with buffer_bytes of buffer per CPU
 * (rounded up to a power of two of pages); after ksyscalls_stop, attaches
 * them again (the buffers and the records they hold are kept). 0, or
 * -errno with err saying what is missing (BPF, BTF, permissions).
 */
int ksyscalls_start(struct ksyscalls *s, size_t buffer_bytes, char *err, size_t errlen);
/*
 * Before the first start: each record carries the values of n counters
 * (perf:cpu: contexts, n <= 8), read by the probe on its CPU: fds[cpu * n
 * + j] is CPU cpu's counter j (perf_event_open'ed, per CPU), for nr_cpus
 * CPUs. Records hand them as their kevent_record's counters. 0, or -errno.
 */
/*
 * Whether records carry their thread's name at the call (struct
 * kevent_record's comm: exact for threads gone before the reader sees
 * them, 16 bytes more per record). Takes effect at once.
 */
void ksyscalls_want_comm(struct ksyscalls *s, bool on);

int ksyscalls_set_counters(struct ksyscalls *s, const int *fds, unsigned int nr_cpus,
			   unsigned int n);

/* Detaches them (what was recorded can still be read). */
void ksyscalls_stop(struct ksyscalls *s);

/* The per-CPU buffers' descriptors, to wait on with poll(); count. */
unsigned int ksyscalls_fds(const struct ksyscalls *s, int *fds, unsigned int max);
/*
 * Hands the records waiting in the buffers to sink, each CPU's in time
 * order: while the probes are attached, those at least 10 ms old (a
 * probe's record can come after a later one of its CPU); once stopped,
 * all. Records handed, or -errno (the sink's).
 */
long ksyscalls_consume(struct ksyscalls *s, kevent_sink_fn sink, void *arg);
/*
 * The same, without waiting: every record time-stamped before now (a
 * snapshot's). A record that a preempted probe writes after this, with
 * an earlier time stamp, comes late: it takes the time of the last one
 * handed over on its CPU.
 */
long ksyscalls_consume_now(struct ksyscalls *s, kevent_sink_fn sink, void *arg);
/*
 * Whether the last ksyscalls_consume() stopped before the end of what was
 * there (it takes and hands over a bounded number of records per CPU, so
 * that no ring waits long for its reader): call it again without waiting.
 */
bool ksyscalls_pending(const struct ksyscalls *s);
/* Records the buffers of cpu could not take (lost), since the start. */
uint64_t ksyscalls_lost(const struct ksyscalls *s, int cpu);

#endif /* TRAX_KERNEL_SYSCALLS_H */
