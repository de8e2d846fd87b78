/*
 * tracefs.h - the kernel's tracing file system, as the kernel domain uses
 * it: one instance (instances/NAME) per recording session, so that other
 * users of ftrace (the top-level buffer, trace-cmd, perf, other instances)
 * are left alone, and everything trax changed goes away with the
 * instance. docs/kernel.md.
 *
 * Instances are named "trax-PID-SESSION": the owner's pid in the name lets
 * a restarted traxd remove what a killed one left (tracefs_remove_stale).
 */
#ifndef TRAX_KERNEL_TRACEFS_H
#define TRAX_KERNEL_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The mount point of tracefs (found in /proc/mounts, or mounted at
 * /sys/kernel/tracing when it is not). 0 and path set; -errno with err
 * saying what is missing (one line).
 */
int tracefs_find(char *path, size_t size, char *err, size_t errlen);

struct tracefs_instance {
	char root[256]; /* the mount point */
	char path[512]; /* root/instances/NAME */
	char name[128];
	int nr_cpus; /* per_cpu/cpuN directories: N < nr_cpus */
};

/*
 * Creates instance "trax-PID-SESSION" (session: the session's name, any
 * character not fit for a file name replaced). 0, or -errno (EEXIST
 * included: a stale one must be removed first).
 */
int tracefs_instance_create(struct tracefs_instance *in, const char *root, const char *session);

/*
 * Stops and removes it (tracing_on 0, events disabled, rmdir). Idempotent.
 * 0, or -errno (EBUSY: a file of it is still open).
 */
int tracefs_instance_destroy(struct tracefs_instance *in);

/*
 * Removes the instances named trax-PID-* whose PID is not a running
 * process; returns how many.
 */
int tracefs_remove_stale(const char *root);

/* Writes text into the instance's file (relative path: "trace_clock"). 0, or -errno. */
int tracefs_write(const struct tracefs_instance *in, const char *file, const char *text);
/* Reads it (NUL-terminated, at most size - 1 bytes). Bytes read, or -errno. */
long tracefs_read(const struct tracefs_instance *in, const char *file, char *buf, size_t size);

/* Settings: each 0, or -errno. */
int tracefs_set_clock(struct tracefs_instance *in, const char *clock); /* "mono" */
int tracefs_set_buffer_kb(struct tracefs_instance *in, uint64_t kb_per_cpu);
int tracefs_set_overwrite(struct tracefs_instance *in, bool overwrite);
int tracefs_set_tracing(struct tracefs_instance *in, bool on);
/*
 * Only these processes' events (set_event_pid); npids 0: all; a negative
 * pid stands for none (it is written as TRACEFS_NO_PID, PID_MAX_LIMIT on
 * 64-bit kernels, which no task has).
 */
#define TRACEFS_NO_PID 4194304
int tracefs_set_pids(struct tracefs_instance *in, const int *pids, unsigned int npids);

/* One event of the running kernel. */
struct tracefs_event {
	char system[64];
	char name[128];
};

/*
 * Every event tracefs offers (events/SYSTEM/NAME with a format file), in
 * the order of available_events; *out is malloc'ed. Count, or -errno.
 */
long tracefs_list_events(const char *root, struct tracefs_event **out);

/* Enables or disables one event in the instance. 0, or -errno. */
int tracefs_enable_event(struct tracefs_instance *in, const char *system, const char *name,
			 bool on);
/*
 * Sets an event's kernel filter (its `filter` file; "0" clears). 0, or
 * -errno (EINVAL: refused; the event is then unfiltered, the kernel drops a
 * filter it cannot parse).
 */
int tracefs_set_filter(struct tracefs_instance *in, const char *system, const char *name,
		       const char *filter);

/*
 * The text of events/SYSTEM/NAME/format (in the root: it is the same in
 * every instance); *out malloc'ed, NUL-terminated. Length, or -errno.
 */
long tracefs_read_format(const char *root, const char *system, const char *name, char **out);

/* Per-CPU counters of per_cpu/cpuN/stats. */
struct tracefs_cpu_stats {
	uint64_t entries, overrun, commit_overrun, bytes, dropped, read;
};
int tracefs_cpu_stats(const struct tracefs_instance *in, int cpu, struct tracefs_cpu_stats *st);

/*
 * Opens per_cpu/cpuN/trace_pipe_raw (or snapshot_raw), non-blocking. The
 * descriptor, or -errno.
 */
int tracefs_open_raw(const struct tracefs_instance *in, int cpu, bool snapshot);

/* The page size of the ring buffer (events/header_page's data size + its header). */
long tracefs_page_size(const char *root);

#endif /* TRAX_KERNEL_TRACEFS_H */
