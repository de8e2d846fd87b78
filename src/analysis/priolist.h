/*
 * priolist.h - the priorities a thread was seen with, and how many times
 * each, as lttng-analyses' cputop and schedstats keep and print them
 * (format_prio_list(): "[20, 120 (2 times)]").
 */
#ifndef TRAX_ANALYSIS_PRIOLIST_H
#define TRAX_ANALYSIS_PRIOLIST_H

#include <stddef.h>
#include <stdint.h>

#include "common/strbuf.h"

/* A priority and how many times the thread was given it. */
struct an_prio {
	int known; /* 0: Python's None (the state had no priority) */
	int64_t prio;
	unsigned long count;
};

/* Counts prio (known 0: None) in *v (*n of them): 0, or -1 when memory ran out. */
int an_prio_add(struct an_prio **v, size_t *n, int known, int64_t prio);

/* Appends v's list, sorted as Python sorts it (None first), to sb: "[20, 120 (2 times)]", "[]". */
void an_prio_format(struct an_prio *v, size_t n, struct strbuf *sb);

#endif /* TRAX_ANALYSIS_PRIOLIST_H */
