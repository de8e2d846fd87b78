/*
 * kflow.h - the state of every thread over time, as LTTV's control-flow
 * view computed it from a kernel trace: running on a CPU (in user mode, in
 * a system call, in a hard or soft IRQ that interrupted it), runnable
 * (woken, preempted or forked, waiting for a CPU), blocked (waiting, in a
 * system call or not), exited (a zombie until freed), unknown (before the
 * trace says anything of it).
 *
 * Fed every event in time order (kflow_event), it calls its caller back
 * once per interval [begin, end) of one state as soon as the interval
 * closes, so that its users (`trax analyze flow`, the timeline, the
 * export to Chrome's format) stream: memory is one record per thread seen
 * and one per CPU, never per event or interval.
 *
 * What moves a thread (docs/analyses.md, "flow"): sched_switch (prev_state
 * 0, or the preemption bit: runnable; a sleeping state: blocked; a dead
 * or zombie state, or after sched_process_exit: exited), sched_waking /
 * sched_wakeup / sched_wakeup_new (runnable, woken), sched_process_fork
 * (the child runnable, forked), sched_process_free (the row ends),
 * syscall_entry_* / syscall_exit_* (the thread current on the event's CPU,
 * or the one its tid context names), irq_handler_entry/exit and
 * irq_softirq_entry/exit (LTTng's names; lttng-analyses' softirq_* too)
 * on the CPU of the thread they interrupt, the state dump's process
 * status for threads not seen yet, and any event with a tid context (its
 * thread runs on the event's CPU). The idle task (tid 0) has no row.
 *
 * The CPUs' side of the same machine, for the callers that draw CPU rows
 * (the timeline, as LTTV's resource view): with kflow_set_cpu_fn, each
 * CPU's intervals of one state (idle, running a thread in user mode or in
 * a system call, handling a hard or soft IRQ), also once each closes.
 */
#ifndef TRAX_ANALYSIS_KFLOW_H
#define TRAX_ANALYSIS_KFLOW_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/idmap.h"
#include "analysis/kev.h"
#include "analysis/recs.h"

enum kflow_state {
	KFLOW_UNKNOWN = 0, /* nothing said yet (from the trace's first event) */
	KFLOW_USER,	   /* running on cpu, user mode */
	KFLOW_SYSCALL,	   /* running on cpu, in system call syscall */
	KFLOW_IRQ,	/* on cpu, interrupted by hard IRQ irq (syscall: the call it interrupted) */
	KFLOW_SOFTIRQ,	/* on cpu, in soft IRQ vector irq */
	KFLOW_RUNNABLE, /* waiting for a CPU (reason) */
	KFLOW_BLOCKED,	/* waiting for something (syscall: in that call) */
	KFLOW_EXITED,	/* exited, not freed yet */
	KFLOW_STATE_COUNT
};

/* Why a thread is runnable (or, for KFLOW_BLOCKED/RUNNABLE from the state dump, who said so). */
enum kflow_reason {
	KFLOW_R_NONE = 0,
	KFLOW_R_WOKEN, /* a sched_wak* event (waker: the thread current where it was recorded) */
	KFLOW_R_PREEMPTED, /* switched out while runnable */
	KFLOW_R_FORKED,	   /* created by sched_process_fork */
	KFLOW_R_STATEDUMP, /* the state dump's process status */
};

struct kflow_interval {
	int64_t begin, end;
	enum kflow_state state;
	int32_t cpu; /* running states (and preempted: the CPU it left); -1 otherwise */
	int32_t irq; /* KFLOW_IRQ: its number; KFLOW_SOFTIRQ: its vector; -1 otherwise */
	const char
	    *syscall; /* the system call the thread is in, NULL: none (valid during the run) */
	enum kflow_reason reason;
	int64_t waker; /* KFLOW_R_WOKEN: tid, -1: none known */
};

#define KFLOW_COMM_MAX 24

struct kflow_thread {
	int64_t tid;
	int64_t pid; /* -1: unknown */
	char comm[KFLOW_COMM_MAX];
	uint32_t slot; /* for the caller (e.g. its row), AN_IDMAP_NONE at first */
	/* the state machine's own */
	struct kflow_interval cur; /* the open interval (its end unused) */
	const char *syscall;	   /* the call it is in, NULL: none */
	int exiting;		   /* after sched_process_exit */
	int gone;		   /* freed: no open interval */
};

/* Called for each closed interval of t (never empty: begin < end). */
typedef void (*kflow_interval_fn)(void *ctx, const struct kflow_thread *t,
				  const struct kflow_interval *iv);

/* A CPU's states (kflow_set_cpu_fn). */
enum kflow_cpu_state {
	KFLOW_CPU_UNKNOWN = 0, /* before its first switch (or a thread seen running there) */
	KFLOW_CPU_IDLE,	       /* running its idle task (or a thread the trace lost) */
	KFLOW_CPU_USER,	       /* running thread tid in user mode */
	KFLOW_CPU_SYSCALL,     /* running thread tid in system call syscall */
	KFLOW_CPU_IRQ,	       /* handling hard IRQ irq (tid: the thread interrupted, -1: none) */
	KFLOW_CPU_SOFTIRQ,     /* handling soft IRQ vector irq (tid: as for IRQ) */
};

struct kflow_cpu_interval {
	int64_t begin, end;
	enum kflow_cpu_state state;
	int32_t cpu;
	int32_t irq;	     /* IRQ number or soft IRQ vector, -1: none */
	int64_t tid;	     /* the thread running there, -1: none */
	const char *syscall; /* KFLOW_CPU_SYSCALL: the call (valid during the run) */
};

/* Called for each closed interval of a CPU (never empty). */
typedef void (*kflow_cpu_fn)(void *ctx, const struct kflow_cpu_interval *iv);

struct kflow_cpu;
struct kflow_cls;

struct kflow {
	kflow_interval_fn fn;
	kflow_cpu_fn cpu_fn; /* NULL: the CPUs' intervals are not followed */
	void *ctx;
	struct an_recs threads; /* struct kflow_thread by tid: their addresses stay */
	struct kflow_cpu *cpus;
	size_t ncpus;
	struct kflow_cls *cls; /* per kev class id */
	size_t ncls;
	int has_origin;
	int64_t origin;	    /* the first event's time: where the unknown intervals start */
	int reporting;	    /* kflow_start() was called */
	int64_t clip;	    /* intervals are reported from there (kflow_start's time) */
	uint64_t intervals; /* reported so far */
	int failed;	    /* memory ran out */
};

void kflow_init(struct kflow *f, kflow_interval_fn fn, void *ctx);
void kflow_free(struct kflow *f);
/* Also reports the CPUs' intervals to fn (same ctx); before the first event. */
void kflow_set_cpu_fn(struct kflow *f, kflow_cpu_fn fn);

/*
 * From now on (ts), closed intervals are reported, cut to begin at ts at
 * the earliest; before, the machine only learns (events before --begin).
 */
void kflow_start(struct kflow *f, int64_t ts);

/* One event (class c, time ts): 0, or -1 when memory ran out. */
int kflow_event(struct kflow *f, const struct trax_event *ev, const struct kev_class *c,
		int64_t ts);

/* Closes every open interval at ts (the range's end), threads in order of first appearance,
 * then the CPUs. */
void kflow_finish(struct kflow *f, int64_t ts);

/* The thread running on cpu (its tid), -1: none known or the idle task. */
int64_t kflow_cpu_current(const struct kflow *f, int64_t cpu);

/* The thread tid, NULL when not seen. */
const struct kflow_thread *kflow_thread(const struct kflow *f, int64_t tid);
size_t kflow_thread_count(const struct kflow *f);
/* The i-th thread in order of first appearance. */
struct kflow_thread *kflow_thread_at(const struct kflow *f, size_t i);

/* "running", "syscall", "irq", "softirq", "runnable", "blocked", "exited", "unknown". */
const char *kflow_state_name(enum kflow_state s);
/* "woken", "preempted", "forked", "statedump", NULL for none. */
const char *kflow_reason_name(enum kflow_reason r);
/* The kernel's name of soft IRQ vector vec ("TIMER", ...), NULL when unknown. */
const char *kflow_softirq_name(int64_t vec);

#endif /* TRAX_ANALYSIS_KFLOW_H */
