/*
 * kfpush.h - LTTng filters of kernel channels pushed into the kernel's own
 * event filters (tracefs's events/SYSTEM/NAME/filter), so that the
 * records they reject are never recorded, read nor converted.
 *
 * The LTTng filter still runs after (kfilter.h): the kernel filter is a
 * prefilter that may only reject what the LTTng filter would reject. The
 * translation is exact for what the kernel can say of LTTng's fields
 * (integers compared with constants, LTTng's renames and added constants
 * such as priorities minus 100 folded into the constant, widths and
 * signedness; bit masks; strings compared with == and !=; patterns);
 * what it cannot say (contexts but $ctx.tid, procname and cpu_id, arrays, arithmetic, fields
 * compared with fields, fields LTTng computes) accepts everything, so
 * that `a && b` where only a translates pushes a. Several rules enabling
 * one event are the OR of their filters: a rule that does not translate
 * at all (or has no filter) means no kernel filter. docs/kernel.md,
 * "Filters".
 *
 * TRAX_KERNEL_FILTER=after in traxd's environment turns pushing off (the
 * LTTng filter alone, after the kernel records).
 */
#ifndef TRAX_KERNEL_KFPUSH_H
#define TRAX_KERNEL_KFPUSH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/kmap.h"
#include "kernel/tracefs.h"

/* The kernel takes filters shorter than a page. */
#define KFPUSH_MAX_TEXT 4096

/* One rule enabling an event. */
struct kfpush_rule {
	const uint8_t *code; /* its filter's bytecode (filter_compile's); NULL: no filter */
	size_t len;
	/*
	 * Whether the filter links to the event's class (kfilter_new gave a
	 * program): when not, the rule never records the event (a field it
	 * names is missing), as kfilter does.
	 */
	bool linked;
};

/*
 * The kernel filter of event m (kmap's converter, whose ops say where its
 * fields come from) for rules[0..n): 1 and out set (NUL-terminated), or 0
 * when the event is best left unfiltered by the kernel (a rule without
 * filter, nothing that translates, a text that does not fit in cap or the
 * kernel's page). *exact (when not NULL) says whether the text is the
 * rules' exact equivalent (else it accepts more).
 */
int kfpush_translate(const struct kmap_event *m, const struct kfpush_rule *rules, unsigned int n,
		     char *out, size_t cap, bool *exact);

/* The kernel filters a tracefs instance has been given. */
struct kfpush;

/* For instance in (kept: it must outlive the result). NULL when out of memory. */
struct kfpush *kfpush_new(struct tracefs_instance *in);
void kfpush_free(struct kfpush *p);
/*
 * Whether filters are given to the kernel: false with TRAX_KERNEL_FILTER=after
 * (the system call probes' guards follow it too).
 */
bool kfpush_pushes(const struct kfpush *p);

/*
 * Sets event ev's filter in the instance to what rules translate to, or
 * clears it; nothing is written when it does not change. A filter the
 * kernel refuses is cleared (the LTTng filter alone then, after the
 * kernel) and said on stderr (traxd --verbose). 1: a filter is set; 0:
 * none; -errno: refused.
 */
int kfpush_event(struct kfpush *p, const struct tp_event *ev, const struct kmap_event *m,
		 const struct kfpush_rule *rules, unsigned int n);

/* The filter set for event id now (NULL: none). */
const char *kfpush_current(const struct kfpush *p, uint32_t id);

#endif /* TRAX_KERNEL_KFPUSH_H */
