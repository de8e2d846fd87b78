/*
 * kdomain.h - a session's kernel domain: its kernel channels, the events
 * and system calls enabled in them, its trackers, and while it records,
 * what moves events from the kernel to the trace: per channel a tracefs
 * instance read by one thread per CPU (records converted by kmap), the
 * BPF system call probes read by one thread, and the state dump at start.
 * The trace is LTTng-modules' layout, in OUTPUT/kernel (ktrace.h).
 *
 * traxd calls these from its main thread only; the domain's own threads
 * only read the kernel and write the trace.
 */
#ifndef TRAX_KERNEL_KDOMAIN_H
#define TRAX_KERNEL_KDOMAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kdomain;

struct kdomain_channel_attr {
	uint64_t subbuf_size; /* bytes; packets in the trace are this size */
	uint32_t num_subbuf;  /* the kernel buffer per CPU is subbuf_size * num_subbuf */
	bool overwrite;	      /* flight recorder: the oldest events are overwritten */
	uint64_t switch_timer_us, read_timer_us;
};

/* LTTng's kernel channel defaults (lttng-tools 2.13). */
#define KDOMAIN_DEFAULT_SUBBUF_SIZE   (1u << 20)
#define KDOMAIN_DEFAULT_NUM_SUBBUF    4u
#define KDOMAIN_DEFAULT_READ_TIMER_US 200000u

/*
 * A kernel domain for session `session`. Checks what it can before
 * anything is asked of it: root (CAP_SYS_ADMIN), tracefs. NULL and err set
 * (one line: what is missing, what still works) when the kernel cannot be
 * traced.
 */
struct kdomain *kdomain_new(const char *session, char *err, size_t errlen);
/* Stops it if needed, removes its tracefs instances and frees it. */
void kdomain_free(struct kdomain *kd);

/* A channel (before the first start). 0, or -errno with err set. */
int kdomain_channel_add(struct kdomain *kd, const char *name,
			const struct kdomain_channel_attr *attr, char *err, size_t errlen);
bool kdomain_has_channel(const struct kdomain *kd, const char *name);

/*
 * Enables tracepoints whose LTTng name (or tracefs SYSTEM:NAME) matches
 * pattern ('*' anywhere) in channel (NULL: channel0, made with the
 * defaults when missing); syscall: system calls whose name matches. With
 * filter (filter_compile's bytecode), only the records it accepts are
 * written (kfilter.h). Takes effect at once when recording. How many
 * events matched, or -errno with err set (ENOENT: none matched).
 */
long kdomain_enable(struct kdomain *kd, const char *channel, const char *pattern, bool syscall,
		    const uint8_t *filter, size_t filter_len, char *err, size_t errlen);
/* Disables what kdomain_enable enabled with that pattern. Matches, or -errno. */
long kdomain_disable(struct kdomain *kd, const char *channel, const char *pattern, bool syscall,
		     char *err, size_t errlen);

/*
 * Adds a context (a kctx name: "pid", "procname", "perf:cpu:page-fault"...)
 * to channel (NULL: all). A perf:cpu: counter must open on this machine
 * (-ENOTSUP otherwise, and in snapshot sessions); a channel with counters
 * records its tracepoints through perf (perf-record.h). 0, or -errno.
 */
int kdomain_add_context(struct kdomain *kd, const char *channel, const char *name, char *err,
			size_t errlen);

/* Only these processes (npids 0: all). 0, or -errno. */
int kdomain_track_pids(struct kdomain *kd, const int *pids, unsigned int npids, char *err,
		       size_t errlen);
/* The processes kdomain_track_pids last set (*pids; valid until the next call): how many, 0: all.
 */
unsigned int kdomain_tracked_pids(const struct kdomain *kd, const int **pids);

/*
 * The uid (kind KDOMAIN_UID) or gid (KDOMAIN_GID) tracker, by real id, as
 * `trax track -k --uid` (add) and `trax untrack -k --uid` (!add) change
 * it: all: every id (add) or none (!add); else ids added to or removed
 * from its set (-ENOENT for one not in it). An event is recorded when its
 * thread passes every tracker. Any time. 0, or -errno with err set.
 */
#define KDOMAIN_UID 0
#define KDOMAIN_GID 1
int kdomain_track_ids(struct kdomain *kd, int kind, bool add, const int *ids, unsigned int n,
		      bool all, char *err, size_t errlen);

/*
 * Starts recording into dir (the trace directory: OUTPUT/kernel), made
 * for session trace_name created at creation_datetime. 0, or -errno with
 * err set; nothing is left running on failure.
 */
int kdomain_start(struct kdomain *kd, const char *dir, const char *creation_datetime, char *err,
		  size_t errlen);
/* Stops recording and writes everything the kernel still holds. 0, or -errno. */
int kdomain_stop(struct kdomain *kd);
bool kdomain_active(const struct kdomain *kd);

/*
 * Snapshot mode (before the first start): the channels are flight
 * recorders (overwrite; their system calls kept in memory by krecorder.h,
 * subbuf_size * num_subbuf bytes per CPU), nothing is written until
 * kdomain_snapshot.
 */
void kdomain_set_snapshot(struct kdomain *kd);
/*
 * Writes what the kernel's buffers and the system calls' recorders hold
 * now as a trace in dir (and the state dump, where enabled). They are
 * emptied, so a later snapshot holds what was recorded after this one.
 * 0, or -errno with err set.
 */
int kdomain_snapshot(struct kdomain *kd, const char *dir, const char *creation_datetime, char *err,
		     size_t errlen);

/* Events discarded so far (all channels and CPUs) and records written. */
void kdomain_stats(const struct kdomain *kd, uint64_t *written, uint64_t *discarded);

/* What `trax list SESSION` shows of the domain, item by item. */
struct kdomain_item {
	const char *kind; /* "channel", "tracepoint", "syscall", "context", "pid", "uid", "gid" */
	const char *channel;			 /* its channel (NULL for "pid") */
	const char *name;			 /* channel name, rule pattern, context name */
	const char *filter;			 /* a rule's filter text, or NULL */
	const struct kdomain_channel_attr *attr; /* "channel" */
	uint64_t discarded;			 /* "channel": events lost so far */
	const int *ids;				 /* "pid", "uid", "gid": the tracker's set (it */
	unsigned int nids;			 /* is not given when it allows every id) */
};
void kdomain_describe(const struct kdomain *kd,
		      void (*fn)(void *arg, const struct kdomain_item *item), void *arg);

/*
 * `trax list -k`: the tracepoints of the running kernel under their LTTng
 * names (syscalls: the system calls), each given to fn with its fields as
 * text, and for a system call the ABIs it is traced in ("64", "32" for a
 * call only the 32-bit table has, "32/64"; NULL for tracepoints). Count,
 * or -errno with err set.
 */
long kdomain_list(bool syscalls,
		  void (*fn)(void *arg, const char *name, const char *fields, const char *bits),
		  void *arg, char *err, size_t errlen);

/* Removes what killed daemons left in tracefs; how many instances. */
int kdomain_cleanup_stale(void);

#endif /* TRAX_KERNEL_KDOMAIN_H */
