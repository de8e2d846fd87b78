/*
 * ktrack.h - a kernel domain's uid and gid trackers on tracepoints
 * (`trax track -k --uid/--gid`). tracefs can filter events by thread id
 * only (set_event_pid), so:
 *  - set_event_pid holds the live threads whose real uid and gid are
 *    tracked (and whose process the pid tracker allows), found by a scan of
 *    /proc when the trackers change and at the start (the list replaced),
 *    and every KTRACK_SCAN_NS after (the threads found added: replacing
 *    the list lets other threads' events through for a while);
 *    options/event-fork adds the threads they fork in between;
 *  - each record is checked again when it is converted (ktrack_pass): the
 *    uid and gid /proc gives its thread (read at most every KTRACK_SCAN_NS
 *    of trace time per thread).
 * docs/kernel.md, "Trackers", says what this misses. System calls are
 * filtered exactly in their BPF probes (ksyscalls_set_ids).
 *
 * The sets are changed by the daemon's thread and read by the reader
 * threads: locked inside. A ktrack_cache belongs to one reader thread.
 */
#ifndef TRAX_KERNEL_KTRACK_H
#define TRAX_KERNEL_KTRACK_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/tracefs.h"

#define KTRACK_SCAN_NS 100000000ull /* 100 ms */

#define KTRACK_UID 0
#define KTRACK_GID 1

struct ktrack;
struct ktrack_cache;

/* proc: where /proc is. NULL when out of memory. */
struct ktrack *ktrack_new(const char *proc);
void ktrack_free(struct ktrack *t);

/*
 * Changes tracker kind (KTRACK_UID, KTRACK_GID) as `trax track` (add) or
 * `trax untrack` (!add) does: with all, every id (add) or none (!add);
 * else the ids are added to the set (an "every id" tracker becomes just
 * them) or removed from it (-ENOENT, *bad set, for one not in it; removing
 * the last leaves a tracker of none). 0, or -errno.
 */
int ktrack_change(struct ktrack *t, int kind, bool add, const int *ids, unsigned int n, bool all,
		  int *bad);
/*
 * The tracker's set: false when it allows every id; else true and a copy
 * of the ids in *ids (free it; NULL when none), their count in *n.
 */
bool ktrack_get(struct ktrack *t, int kind, int **ids, unsigned int *n);
/* The pid tracker's processes (npids 0: all), for the scan. 0, or -ENOMEM. */
int ktrack_set_pids(struct ktrack *t, const int *pids, unsigned int npids);

/* Whether a uid or gid tracker is set (ktrack_apply and ktrack_pass have work). */
bool ktrack_active(const struct ktrack *t);

/*
 * Sets an instance's set_event_pid and options/event-fork: the pid
 * tracker's processes when no uid or gid tracker is set, else the scan's
 * threads (and 0, the idle tasks: an empty list would allow all); with
 * add_only (the periodic scans), the threads found are added to the list.
 * 0, or -errno.
 */
int ktrack_apply(struct ktrack *t, struct tracefs_instance *in, bool add_only);

/*
 * Whether a record of thread tid at time ts passes the uid and gid
 * trackers (true when none is set). *cache: the reader thread's (made on
 * first use; ktrack_cache_free). A thread /proc no longer has passes (the
 * kernel recorded it: it was in set_event_pid or forked by one that was).
 */
bool ktrack_pass(struct ktrack *t, struct ktrack_cache **cache, int32_t tid, uint64_t ts);
void ktrack_cache_free(struct ktrack_cache *c);

#endif /* TRAX_KERNEL_KTRACK_H */
