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

#include <stddef.h>
#include <stdint.h>

#include "kernel/kevent.h"
#include "kernel/tp-format.h"

struct kmap_event; /* a class and its conversion program */

/*
 * Builds the class for tracefs event ev (its fields are kept: ev must
 * outlive the result). NULL when out of memory, or when the format has a
 * field that cannot be converted (err says which).
 */
struct kmap_event *kmap_event_new(const struct tp_event *ev, char *err, size_t errlen);
void kmap_event_free(struct kmap_event *m);

/* Its class (name, fields); its id is set by the trace it is written to. */
struct kevent_class *kmap_event_class(struct kmap_event *m);

/* The LTTng name of tracefs event SYSTEM:NAME ("sched_switch", "irq_softirq_entry"). */
const char *kmap_lttng_name(const char *system, const char *name, char *buf, size_t size);

/*
 * Converts a record (rec_len bytes as the kernel wrote it, from
 * common_type) into the class's payload at out (cap bytes). Bytes
 * written, or 0 when the record is malformed (a locator outside it,
 * shorter than its format) or out is too small; kmap_payload_max(m,
 * rec_len) bytes are always enough.
 */
size_t kmap_convert(const struct kmap_event *m, const uint8_t *rec, size_t rec_len, uint8_t *out,
		    size_t cap);
size_t kmap_payload_max(const struct kmap_event *m, size_t rec_len);

#endif /* TRAX_KERNEL_KMAP_H */
