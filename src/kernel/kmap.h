/*
 * kmap.h - kernel tracepoints as LTTng-modules 2.13 records them.
 *
 * LTTng's kernel tracer instruments many tracepoints with its own event
 * names, field names and values (sched_switch's prev_pid is its prev_tid,
 * priorities are the kernel's minus 100, softirq_entry is
 * irq_softirq_entry...). The tools that read LTTng kernel traces
 * (lttng-analyses, Trace Compass) expect those. kmap knows them: for a
 * tracefs event it builds the event class LTTng would write and the
 * program that converts the kernel's record into its payload. An event
 * LTTng does not instrument keeps its tracefs name and fields (without the
 * common_* ones), typed from its format file.
 */
#ifndef TRAX_KERNEL_KMAP_H
#define TRAX_KERNEL_KMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/kevent.h"
#include "kernel/tp-format.h"

struct kmap_event; /* a class and its conversion program */

/*
 * What some LTTng fields need beyond the kernel's record: a thread's
 * process id, pid namespace and ids in nested namespaces
 * (sched_process_fork's parent_pid, child_pid, vtids, *_ns_inum), read
 * when the record is converted.
 */
#define KMAP_MAX_NS_LEVEL 32
struct kmap_task {
	int32_t tgid;	      /* -1: unknown */
	uint32_t pid_ns_inum; /* 0: unknown */
	uint32_t nr_vtids;    /* 0: unknown */
	int32_t
	    vtids[KMAP_MAX_NS_LEVEL]; /* the thread's id in each pid namespace, outermost first */
};
/* Fills *out for thread tid (what cannot be known left as "unknown"). */
typedef void (*kmap_task_fn)(void *arg, int32_t tid, struct kmap_task *out);
/* The default: /proc/TID/status (Tgid, NSpid) and /proc/TID/ns/pid. */
void kmap_task_from_proc(void *arg, int32_t tid, struct kmap_task *out);

/*
 * Kernel strings that records hold as addresses (rcu_utilization's "s"):
 * the constant strings tracefs lists in printk_formats
 * ("0xffffffff8281a2a4 : \"Start context switch\"" per line).
 */
struct kmap_kstrings;
struct kmap_kstrings *kmap_kstrings_parse(const char *text, size_t len);
void kmap_kstrings_free(struct kmap_kstrings *k);
/* The string at addr, or NULL. */
const char *kmap_kstrings_find(const struct kmap_kstrings *k, uint64_t addr);

struct kmap_env {
	kmap_task_fn task; /* NULL: kmap_task_from_proc */
	void *task_arg;
	/* NULL: such strings are written as their address ("0xffffffff8281a2a4") */
	const struct kmap_kstrings *kstrings;
};

/*
 * Builds the class for tracefs event ev (its fields are kept: ev must
 * outlive the result; env, when not NULL, too). NULL when out of memory,
 * or when the format has a field that cannot be converted (err says
 * which).
 */
struct kmap_event *kmap_event_new(const struct tp_event *ev, char *err, size_t errlen);
struct kmap_event *kmap_event_new_env(const struct tp_event *ev, const struct kmap_env *env,
				      char *err, size_t errlen);
void kmap_event_free(struct kmap_event *m);

/* Whether LTTng instruments it (the table maps it) or it passes through as tracefs types it. */
bool kmap_event_is_mapped(const struct kmap_event *m);

/* Its class (name, fields); its id is set by the trace it is written to. */
struct kevent_class *kmap_event_class(struct kmap_event *m);

/*
 * The LTTng name of tracefs event SYSTEM:NAME ("sched_switch",
 * "irq_softirq_entry"; NAME for an event LTTng does not instrument),
 * copied into buf; buf, or NULL when it does not fit.
 */
const char *kmap_lttng_name(const char *system, const char *name, char *buf, size_t size);

/*
 * Converts a record (rec_len bytes as the kernel wrote it, from
 * common_type) into the class's payload at out (cap bytes). Bytes
 * written, or 0 when the record is malformed (a locator outside it,
 * shorter than its format) or out is too small; kmap_payload_max(m,
 * rec_len) bytes are always enough. A class without fields has an empty
 * payload: 0 then means a record of that event, with nothing to convert.
 */
size_t kmap_convert(const struct kmap_event *m, const uint8_t *rec, size_t rec_len, uint8_t *out,
		    size_t cap);
size_t kmap_payload_max(const struct kmap_event *m, size_t rec_len);

#endif /* TRAX_KERNEL_KMAP_H */
