/*
 * kfilter.h - LTTng filters on kernel events: the filter language's
 * bytecode (src/filter) linked against a kernel event class's fields, and
 * run on a record's CTF payload before it is written to the trace. The
 * kernel records the event first (its own filters cannot express LTTng's
 * language on LTTng's field names and values); what a filter rejects never
 * reaches the trace, nor costs its disk bandwidth. docs/kernel.md.
 *
 * An event matched by several rules is written when one of them has no
 * filter or one of their filters accepts it (kfilter_set). Filters may
 * name the contexts a kernel channel records ($ctx.procname...), whether
 * or not the channel records them, as LTTng's kernel filters may.
 */
#ifndef TRAX_KERNEL_KFILTER_H
#define TRAX_KERNEL_KFILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/kevent.h"

#define KFILTER_MAX_FIELDS 64 /* fields a filter can see; later ones are left out */

/* The filters of one event class: unfiltered, or any of n programs. */
struct kfilter_set {
	bool unfiltered; /* a rule without filter matches it */
	unsigned int n;
	struct kfilter **programs;
};

struct kfilter;
struct kthreads;
struct kthread_info;

/*
 * What a filter's contexts ($ctx.tid, $ctx.procname...: those a kernel
 * channel can record, ktrace.h) are read from for one record: its thread,
 * CPU and time, and a thread cache of the calling thread (kthreads.h) for
 * the rest, asked only when the filter names one of those.
 */
struct kfilter_env {
	int32_t tid, cpu;
	uint64_t ts;
	int32_t pid;		  /* when the record says (struct kevent_record), else 0 */
	const char *comm;	  /* likewise, else NULL */
	struct kthreads *threads; /* NULL: those contexts read as unknown (-1, "") */
	const char *hostname;
	const struct kthread_info *ti; /* (filled on first use) */
};

/*
 * Links bytecode (filter_compile's) to cls's payload. NULL when the
 * expression names a field the class lacks or types that do not fit: the
 * filter is then false for every record of it, as in LTTng.
 */
struct kfilter *kfilter_new(const uint8_t *code, size_t len, const struct ctfw_event_class *cls);
void kfilter_free(struct kfilter *f);

/*
 * 1 when the record passes, 0 when not (or when its payload is malformed).
 * env: its contexts (NULL: they read as unknown, -1 and "").
 */
int kfilter_run(const struct kfilter *f, const uint8_t *payload, size_t len,
		struct kfilter_env *env);

/* Whether a record of the set's class is written. */
bool kfilter_set_pass(const struct kfilter_set *s, const uint8_t *payload, size_t len,
		      struct kfilter_env *env);

#endif /* TRAX_KERNEL_KFILTER_H */
