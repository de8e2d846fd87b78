/*
 * kirq.h - the interrupt state of lttng-analyses' linux automaton
 * (linuxautomaton/irq.py in 0.6.1, docs/analyses-reference.md section 6):
 * per CPU, the hard IRQ being handled and, per soft IRQ vector, the
 * raised and running soft IRQs; it says when a hard IRQ's handler or a
 * soft IRQ ends (the analysis counts from those).
 *
 * lttng-analyses reads soft IRQs from events named softirq_raise/entry/
 * exit, which LTTng never writes (it writes irq_softirq_*): trax reads
 * both (kev.h: KEV_SOFTIRQ_* and KEV_LTTNG_SOFTIRQ_*) the same way.
 *
 * Memory: per CPU, one hard IRQ and KIRQ_QUEUE soft IRQs per vector.
 */
#ifndef TRAX_ANALYSIS_KIRQ_H
#define TRAX_ANALYSIS_KIRQ_H

#include <stddef.h>
#include <stdint.h>

/* Soft IRQ vectors kept (the kernel has 10); events of others are ignored. */
#define KIRQ_VECS 16
/*
 * Soft IRQs pending per CPU and vector: a raise while one runs queues
 * another; more than this many raises during one run are not counted.
 */
#define KIRQ_QUEUE 8

/* A hard IRQ handled (irq_handler_entry to irq_handler_exit on one CPU). */
struct kirq_hard {
	int64_t irq, cpu;
	int64_t begin, end;
};

/* A soft IRQ: raised (maybe), entered, ended. */
struct kirq_soft {
	int64_t vec, cpu;
	int raised;
	int64_t raise_ts;
	int entered;
	int64_t begin, end;
};

struct kirq_queue {
	struct kirq_soft q[KIRQ_QUEUE];
	unsigned int head, n;
};

struct kirq_cpu {
	int in_hard; /* handling a hard IRQ (its entry was seen) */
	struct kirq_hard hard;
	struct kirq_queue soft[KIRQ_VECS];
};

struct kirq {
	struct kirq_cpu **cpus; /* allocated at a CPU's first IRQ event */
	size_t ncpus;
	int failed;
};

void kirq_init(struct kirq *s);
void kirq_free(struct kirq *s);

/* irq_handler_entry on cpu at ts. */
void kirq_hard_entry(struct kirq *s, int64_t cpu, int64_t irq, int64_t ts);
/*
 * irq_handler_exit: the hard IRQ that ends (NULL when the CPU was not
 * handling this irq: then it handles none), valid until the next call.
 */
const struct kirq_hard *kirq_hard_exit(struct kirq *s, int64_t cpu, int64_t irq, int64_t ts);

void kirq_soft_raise(struct kirq *s, int64_t cpu, int64_t vec, int64_t ts);
void kirq_soft_entry(struct kirq *s, int64_t cpu, int64_t vec, int64_t ts);
/*
 * The soft IRQ that ends (NULL when none of this vector was entered on
 * the CPU), valid until the next call.
 */
const struct kirq_soft *kirq_soft_exit(struct kirq *s, int64_t cpu, int64_t vec, int64_t ts);

/* lttng-analyses' names of the vectors (core/irq.py), "unknown" beyond. */
const char *kirq_soft_name(int64_t vec);

#endif /* TRAX_ANALYSIS_KIRQ_H */
