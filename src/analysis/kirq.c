/* kirq.c - the interrupt state (kirq.h), as lttng-analyses' IrqStateProvider. */
#include "analysis/kirq.h"

#include <stdlib.h>
#include <string.h>

#define CPU_MAX (1 << 16) /* CPU ids above are not believed */

void kirq_init(struct kirq *s)
{
	memset(s, 0, sizeof(*s));
}

void kirq_free(struct kirq *s)
{
	for (size_t i = 0; i < s->ncpus; i++)
		free(s->cpus[i]);
	free(s->cpus);
	memset(s, 0, sizeof(*s));
}

static struct kirq_cpu *cpu_of(struct kirq *s, int64_t id)
{
	if (id < 0 || id >= CPU_MAX)
		return NULL;
	if ((size_t)id >= s->ncpus) {
		size_t n = s->ncpus ? s->ncpus : 4;
		struct kirq_cpu **v;

		while (n <= (size_t)id)
			n *= 2;
		v = realloc(s->cpus, n * sizeof(*v));
		if (!v)
			goto oom;
		memset(v + s->ncpus, 0, (n - s->ncpus) * sizeof(*v));
		s->cpus = v;
		s->ncpus = n;
	}
	if (!s->cpus[id] && !(s->cpus[id] = calloc(1, sizeof(struct kirq_cpu))))
		goto oom;
	return s->cpus[id];
oom:
	s->failed = 1;
	return NULL;
}

void kirq_hard_entry(struct kirq *s, int64_t cpu, int64_t irq, int64_t ts)
{
	struct kirq_cpu *c = cpu_of(s, cpu);

	/* a new entry replaces whatever the CPU was handling */
	if (c) {
		c->in_hard = 1;
		c->hard = (struct kirq_hard){.irq = irq, .cpu = cpu, .begin = ts, .end = ts};
	}
}

const struct kirq_hard *kirq_hard_exit(struct kirq *s, int64_t cpu, int64_t irq, int64_t ts)
{
	struct kirq_cpu *c = cpu_of(s, cpu);

	if (!c || !c->in_hard)
		return NULL;
	c->in_hard = 0;
	if (c->hard.irq != irq)
		return NULL;
	c->hard.end = ts;
	return &c->hard;
}

static struct kirq_queue *queue_of(struct kirq *s, int64_t cpu, int64_t vec)
{
	struct kirq_cpu *c;

	if (vec < 0 || vec >= KIRQ_VECS || !(c = cpu_of(s, cpu)))
		return NULL;
	return &c->soft[vec];
}

static struct kirq_soft *push(struct kirq_queue *q)
{
	struct kirq_soft *x;

	if (q->n == KIRQ_QUEUE)
		return NULL;
	x = &q->q[(q->head + q->n++) % KIRQ_QUEUE];
	memset(x, 0, sizeof(*x));
	return x;
}

void kirq_soft_raise(struct kirq *s, int64_t cpu, int64_t vec, int64_t ts)
{
	struct kirq_queue *q = queue_of(s, cpu, vec);
	struct kirq_soft *x;

	if (!q)
		return;
	/*
	 * Soft IRQs are level-triggered: a raise while one is already raised
	 * and not yet entered adds nothing; a raise while it runs is for the
	 * next run.
	 */
	if (q->n && !q->q[q->head].entered)
		return;
	if ((x = push(q))) {
		x->vec = vec;
		x->cpu = cpu;
		x->raised = 1;
		x->raise_ts = ts;
	}
}

void kirq_soft_entry(struct kirq *s, int64_t cpu, int64_t vec, int64_t ts)
{
	struct kirq_queue *q = queue_of(s, cpu, vec);
	struct kirq_soft *x;

	if (!q)
		return;
	if (q->n)
		x = &q->q[q->head]; /* the oldest raise (lttng-analyses: even if entered) */
	else if (!(x = push(q)))
		return;
	else {
		x->vec = vec;
		x->cpu = cpu; /* entered without a raise seen */
	}
	x->entered = 1;
	x->begin = ts;
}

const struct kirq_soft *kirq_soft_exit(struct kirq *s, int64_t cpu, int64_t vec, int64_t ts)
{
	struct kirq_queue *q = queue_of(s, cpu, vec);
	struct kirq_soft *x;

	if (!q || !q->n)
		return NULL;
	x = &q->q[q->head];
	/*
	 * Raised but not entered (the run began before the trace): lttng-
	 * analyses fails on it (a duration of None); trax ignores the exit
	 * and keeps the raise for the next entry.
	 */
	if (!x->entered)
		return NULL;
	x->end = ts;
	q->head = (q->head + 1) % KIRQ_QUEUE;
	q->n--;
	return x; /* (its slot is reused only by a later push) */
}

const char *kirq_soft_name(int64_t vec)
{
	/* lttng-analyses' table (core/irq.py, from include/linux/interrupt.h of its time) */
	static const char *const names[] = {
	    "HI_SOFTIRQ",      "TIMER_SOFTIRQ",	       "NET_TX_SOFTIRQ",  "NET_RX_SOFTIRQ",
	    "BLOCK_SOFTIRQ",   "BLOCK_IOPOLL_SOFTIRQ", "TASKLET_SOFTIRQ", "SCHED_SOFTIRQ",
	    "HRTIMER_SOFTIRQ", "RCU_SOFTIRQ",
	};

	return vec >= 0 && vec < (int64_t)(sizeof(names) / sizeof(names[0])) ? names[vec]
									     : "unknown";
}
