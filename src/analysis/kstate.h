/*
 * kstate.h - the state of the traced system that lttng-analyses' "linux
 * automaton" keeps (docs/analyses-reference.md section 1.3): threads (tid,
 * pid, comm, prio, pending wakeup), the thread each CPU runs, the CPUs
 * known. Fed every event in time order; it calls the analysis's hooks (its
 * notifications) in lttng-analyses' order, while the analysis's period is
 * open (kstate.notify).
 *
 * Memory: one record per thread ever seen (as lttng-analyses), one per CPU.
 */
#ifndef TRAX_ANALYSIS_KSTATE_H
#define TRAX_ANALYSIS_KSTATE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/idmap.h"
#include "analysis/kev.h"
#include "analysis/kirq.h"

/* Longest comm kept (the kernel's TASK_COMM_LEN is 16). */
#define KSTATE_COMM_MAX 64

struct kthread {
	int64_t tid;
	int64_t pid; /* -1: unknown */
	char comm[KSTATE_COMM_MAX];
	int has_prio;
	int64_t prio;
	int has_wakeup;
	int64_t last_wakeup;   /* time of its first wakeup event since it last ran */
	int64_t last_waker;    /* tid current where that wakeup was recorded, -1: none */
	unsigned int ncurrent; /* CPUs whose current thread it is */
	uint32_t slot;	       /* for the analysis (e.g. its table row), AN_IDMAP_NONE at first */
};

struct kcpu {
	int known;
	int64_t current; /* tid, -1: nobody (or the idle task) */
};

/* What sched_switch notifies (sched_switch_per_cpu, then _per_tid). */
struct kswitch {
	int64_t ts, cpu;
	int64_t prev_tid, next_tid;
	const char *prev_comm, *next_comm;
	struct kthread *wakee; /* the next thread */
	struct kthread *waker; /* its waker, NULL when none */
};

struct kstate_hooks {
	void (*prio_changed)(void *ctx, int64_t ts, struct kthread *t, int64_t prio);
	void (*sched_switch)(void *ctx, const struct kswitch *sw);
	void (*migrate)(void *ctx, struct kthread *t, int64_t cpu);
	/* irq_handler_entry (whatever its CPU), and the end of a hard or soft IRQ (kirq.h) */
	void (*irq_entry)(void *ctx, int64_t irq, const char *name);
	void (*irq_exit)(void *ctx, const struct kirq_hard *h);
	void (*softirq_exit)(void *ctx, const struct kirq_soft *x);
};

#define KSTATE_BLOCK 1024

struct kstate {
	struct an_idmap tids;
	struct kthread **blocks; /* threads in blocks of KSTATE_BLOCK: their addresses stay */
	size_t nthreads, nblocks;
	struct kcpu *cpus;
	size_t cpu_cap;
	size_t cpus_known; /* state.cpus's size: cputop's total divides by it */
	int notify;	   /* the analysis's period is open: hooks are called */
	/*
	 * LTTng-modules before 2.7.1 wrote sched_wak* priorities 100 too high:
	 * lttng-analyses subtracts 100 for those traces (set by the caller).
	 */
	int prio_minus_100;
	const struct kstate_hooks *hooks;
	void *ctx;
	struct kirq irq; /* the interrupts being handled */
	int failed;	 /* memory ran out */
};

void kstate_init(struct kstate *st, const struct kstate_hooks *hooks, void *ctx);
void kstate_free(struct kstate *st);

/* The thread tid, NULL when not known. */
struct kthread *kstate_thread(struct kstate *st, int64_t tid);
/*
 * The thread tid, created as lttng-analyses' sv.Process(tid, pid, comm)
 * when new; NULL when memory ran out.
 */
struct kthread *kstate_thread_get(struct kstate *st, int64_t tid, int64_t pid, const char *comm);
/* The i-th thread in order of creation. */
struct kthread *kstate_thread_at(struct kstate *st, size_t i);
/* The thread current on cpu (-1 none). */
int64_t kstate_current(const struct kstate *st, int64_t cpu);

/* Updates the state with event ev (class c, time ts): 0, or -1 when memory ran out. */
int kstate_event(struct kstate *st, const struct trax_event *ev, const struct kev_class *c,
		 int64_t ts);

#endif /* TRAX_ANALYSIS_KSTATE_H */
