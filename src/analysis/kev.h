/*
 * kev.h - the event classes an analysis meets, classified once: the kind
 * of each (sched_switch, a wakeup, a system call entry, ...) and where the
 * fields the analyses read are (scope and index), found by name at the
 * class's first event, so that per event there is one map lookup and no
 * string comparison. Names are LTTng-modules' (and lttng-analyses'),
 * fields are looked up in Babeltrace 1's order of scopes: payload, event
 * context, stream event context, event header, packet context, packet
 * header (docs/analyses-reference.md section 1.1).
 */
#ifndef TRAX_ANALYSIS_KEV_H
#define TRAX_ANALYSIS_KEV_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/idmap.h"
#include "trax/reader.h"

enum kev_kind {
	KEV_OTHER = 0,
	KEV_SCHED_SWITCH,
	KEV_SCHED_WAKEUP, /* sched_wakeup, sched_wakeup_new, sched_waking */
	KEV_SCHED_MIGRATE,
	KEV_SCHED_FORK,
	KEV_SCHED_EXEC,
	KEV_SCHED_EXIT,
	KEV_SCHED_FREE,
	KEV_SCHED_PI_SETPRIO,
	KEV_STATEDUMP_PROCESS, /* lttng_statedump_process_state */
	KEV_SYSCALL_ENTRY,     /* syscall_entry_NAME, sys_NAME */
	KEV_SYSCALL_EXIT,      /* syscall_exit_NAME, exit_syscall */
	KEV_COMPAT_SYSCALL,    /* compat_syscall_*: 32-bit calls, ignored as lttng-analyses does */
	KEV_IRQ_ENTRY,	       /* irq_handler_entry */
	KEV_IRQ_EXIT,
	/* lttng-analyses looks for these names only, which LTTng never writes (irq_softirq_*) */
	KEV_SOFTIRQ_RAISE,
	KEV_SOFTIRQ_ENTRY,
	KEV_SOFTIRQ_EXIT,
	KEV_STATEDUMP_FD,      /* lttng_statedump_file_descriptor */
	KEV_STATEDUMP_BLOCK,   /* lttng_statedump_block_device */
	KEV_BLOCK_RQ_ISSUE,    /* block_rq_issue */
	KEV_BLOCK_RQ_COMPLETE, /* block_rq_complete */
	/* LTTng's names (irq_softirq_*): trax's irqstats reads them, the CPUs they name stay
	   unknown */
	KEV_LTTNG_SOFTIRQ_RAISE,
	KEV_LTTNG_SOFTIRQ_ENTRY,
	KEV_LTTNG_SOFTIRQ_EXIT,
	KEV_KIND_COUNT
};

/* The fields the analyses read. */
enum kev_role {
	KR_CPU_ID,
	KR_PREV_COMM,
	KR_PREV_TID,
	KR_PREV_PRIO,
	KR_NEXT_COMM,
	KR_NEXT_TID,
	KR_NEXT_PRIO,
	KR_COMM,
	KR_TID,
	KR_PID,
	KR_PRIO,
	KR_NEWPRIO,
	KR_TARGET_CPU,
	KR_NAME,
	KR_PARENT_COMM,
	KR_PARENT_PID,
	KR_CHILD_COMM,
	KR_CHILD_TID,
	KR_CHILD_PID,
	KR_RET,
	KR_IRQ,
	KR_VEC,
	/* contexts only (not the payload): who recorded the event */
	KR_CTX_PROCNAME,
	KR_CTX_TID,    /* tid, else vtid */
	KR_CTX_PID,    /* pid, else vpid */
	KR_PKT_CPU_ID, /* the packet context's cpu_id only (a payload's cpu_id may be another CPU)
			*/
	/* system calls and I/O (ksys.c) */
	KR_FD,
	KR_FILENAME,
	KR_FLAGS,
	KR_COUNT,
	KR_VLEN,
	KR_SIZE,
	KR_LEN,
	KR_NBYTES,
	KR_OLDFD,
	KR_NEWFD,
	KR_FILDES,
	KR_CMD,
	KR_DEV,
	KR_SECTOR,
	KR_NR_SECTOR,
	KR_DISKNAME,
	KR_SEC_PID, /* pid in the stream event context only (lttng-analyses' pid fix) */
	KR_ROLE_COUNT
};

struct kev_ref {
	int8_t scope; /* enum trax_scope, -1: the class has no such field */
	uint16_t index;
};

struct kev_class {
	enum kev_kind kind;
	uint32_t id;	     /* 0.. in order of first appearance: index of per-class arrays */
	char *name;	     /* the event class's name */
	const char *syscall; /* for KEV_SYSCALL_ENTRY: the call's name (in name) */
	size_t trace;
	uint64_t stream_class_id;
	struct kev_ref ref[KR_ROLE_COUNT];
};

struct kev_table {
	struct an_idmap map;
	struct kev_class **classes;
	size_t count, cap;
	struct kev_class *last; /* the class of the previous event: most events repeat it */
	uint64_t last_key;
	uint32_t kinds_seen; /* bit (1 << kind) for every kind met */
};

void kev_init(struct kev_table *t);
void kev_free(struct kev_table *t);

/* The kind of an event class name (and, for a system call entry, where its call name starts). */
enum kev_kind kev_kind_of(const char *name, const char **syscall);

/* The class of ev, classified at its first event: NULL when memory runs out. */
const struct kev_class *kev_lookup_slow(struct kev_table *t, const struct trax_event *ev,
					uint64_t key);

static inline uint64_t kev_key(const struct trax_event *ev)
{
	return ((uint64_t)trax_event_trace_index(ev) << 48) ^
	       (trax_event_stream_class_id(ev) << 32) ^ trax_event_id(ev);
}

static inline const struct kev_class *kev_lookup(struct kev_table *t, const struct trax_event *ev)
{
	uint64_t key = kev_key(ev);

	if (t->last && t->last_key == key)
		return t->last;
	return kev_lookup_slow(t, ev, key);
}

/* An integer field of ev (its class c): 0 with *v, -1 when absent or not an integer. */
int kev_int(const struct trax_event *ev, const struct kev_class *c, enum kev_role role, int64_t *v);
/*
 * The field name in the first of scopes[0..nscopes) that has it, by index
 * (for fields no role names: look it up at a class's first event, then
 * read it by trax_event_field_by_index); {-1, 0} when none has it.
 */
struct kev_ref kev_find(const struct trax_event *ev, const char *name,
			const enum trax_scope *scopes, size_t nscopes);
/* A string field, NULL when absent (valid until the next event). */
const char *kev_str(const struct trax_event *ev, const struct kev_class *c, enum kev_role role);
static inline int kev_has(const struct kev_class *c, enum kev_role role)
{
	return c->ref[role].scope >= 0;
}

#endif /* TRAX_ANALYSIS_KEV_H */
