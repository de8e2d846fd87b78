/*
 * kstate.c - lttng-analyses' linux automaton (kstate.h): what sched_*,
 * the state dump and IRQ events say about threads and CPUs, and the
 * notifications analyses count from, in lttng-analyses' order
 * (linuxautomaton/sched.py, statedump.py, irq.py in 0.6.1).
 */
#include "analysis/kstate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CPU_ID_MAX (1u << 20) /* CPU ids above are not believed (a damaged field) */

void kstate_init(struct kstate *st, const struct kstate_hooks *hooks, void *ctx)
{
	memset(st, 0, sizeof(*st));
	static const struct kstate_hooks none;

	an_idmap_init(&st->tids);
	kirq_init(&st->irq);
	st->hooks = hooks ? hooks : &none;
	st->ctx = ctx;
}

void kstate_free(struct kstate *st)
{
	for (size_t i = 0; i < st->nblocks; i++)
		free(st->blocks[i]);
	free(st->blocks);
	free(st->cpus);
	kirq_free(&st->irq);
	an_idmap_free(&st->tids);
	memset(st, 0, sizeof(*st));
}

struct kthread *kstate_thread_at(struct kstate *st, size_t i)
{
	return i < st->nthreads ? &st->blocks[i / KSTATE_BLOCK][i % KSTATE_BLOCK] : NULL;
}

struct kthread *kstate_thread(struct kstate *st, int64_t tid)
{
	uint32_t i = an_idmap_get(&st->tids, (uint64_t)tid);

	return i == AN_IDMAP_NONE ? NULL : kstate_thread_at(st, i);
}

/* (per event: a copy, not snprintf) */
static void set_comm(struct kthread *t, const char *comm)
{
	size_t n = comm ? strnlen(comm, sizeof(t->comm) - 1) : 0;

	memcpy(t->comm, comm ? comm : "", n);
	t->comm[n] = 0;
}

/* sv.Process(tid, pid, comm): a thread record as new (prio and wakeup unknown). */
static void thread_reset(struct kthread *t, int64_t tid, int64_t pid, const char *comm)
{
	t->tid = tid;
	t->pid = pid;
	set_comm(t, comm);
	t->has_prio = 0;
	t->prio = 0;
	t->has_wakeup = 0;
	t->last_waker = -1;
}

/* The thread tid, created as sv.Process(tid, pid, comm) when new; NULL when memory ran out. */
static struct kthread *thread_get(struct kstate *st, int64_t tid, int64_t pid, const char *comm,
				  int *created)
{
	struct kthread *t = kstate_thread(st, tid);
	size_t i = st->nthreads;

	if (created)
		*created = !t;
	if (t)
		return t;
	if (i / KSTATE_BLOCK == st->nblocks) {
		struct kthread **b = realloc(st->blocks, (st->nblocks + 1) * sizeof(*b));

		if (!b)
			goto oom;
		st->blocks = b;
		if (!(b[st->nblocks] = malloc(KSTATE_BLOCK * sizeof(**b))))
			goto oom;
		st->nblocks++;
	}
	if (an_idmap_put(&st->tids, (uint64_t)tid, (uint32_t)i))
		goto oom;
	t = &st->blocks[i / KSTATE_BLOCK][i % KSTATE_BLOCK];
	memset(t, 0, sizeof(*t));
	thread_reset(t, tid, pid, comm);
	t->slot = AN_IDMAP_NONE;
	st->nthreads++;
	return t;
oom:
	st->failed = 1;
	return NULL;
}

struct kthread *kstate_thread_get(struct kstate *st, int64_t tid, int64_t pid, const char *comm)
{
	return thread_get(st, tid, pid, comm, NULL);
}

static struct kcpu *cpu_get(struct kstate *st, int64_t id)
{
	if (id < 0 || id >= (int64_t)CPU_ID_MAX)
		return NULL;
	if ((size_t)id >= st->cpu_cap) {
		size_t cap = st->cpu_cap ? st->cpu_cap : 8;
		struct kcpu *c;

		while (cap <= (size_t)id)
			cap *= 2;
		c = realloc(st->cpus, cap * sizeof(*c));
		if (!c) {
			st->failed = 1;
			return NULL;
		}
		for (size_t i = st->cpu_cap; i < cap; i++) {
			c[i].known = 0;
			c[i].current = -1;
		}
		st->cpus = c;
		st->cpu_cap = cap;
	}
	if (!st->cpus[id].known) {
		st->cpus[id].known = 1;
		st->cpus_known++;
	}
	return &st->cpus[id];
}

int64_t kstate_current(const struct kstate *st, int64_t cpu)
{
	return cpu >= 0 && (size_t)cpu < st->cpu_cap ? st->cpus[cpu].current : -1;
}

static void check_prio(struct kstate *st, int64_t ts, struct kthread *t, int64_t prio)
{
	if (!t || t->tid == 0)
		return;
	if (!t->has_prio || t->prio != prio) {
		t->has_prio = 1;
		t->prio = prio;
		if (st->notify && st->hooks->prio_changed)
			st->hooks->prio_changed(st->ctx, ts, t, prio);
	}
}

static int64_t get_int(const struct trax_event *ev, const struct kev_class *c, enum kev_role r,
		       int64_t dflt)
{
	int64_t v;

	return kev_int(ev, c, r, &v) ? dflt : v;
}

static void on_switch(struct kstate *st, const struct trax_event *ev, const struct kev_class *c,
		      int64_t ts)
{
	struct kswitch sw = {.ts = ts};
	struct kthread *prev, *next;
	struct kcpu *cpu;
	int64_t v;

	sw.cpu = get_int(ev, c, KR_CPU_ID, 0);
	sw.prev_tid = get_int(ev, c, KR_PREV_TID, 0);
	sw.next_tid = get_int(ev, c, KR_NEXT_TID, 0);
	sw.prev_comm = kev_str(ev, c, KR_PREV_COMM);
	sw.next_comm = kev_str(ev, c, KR_NEXT_COMM);
	if (!sw.prev_comm)
		sw.prev_comm = "";
	if (!sw.next_comm)
		sw.next_comm = "";

	/* the CPU's current thread (nobody for the idle task) */
	cpu = cpu_get(st, sw.cpu);
	if (cpu) {
		struct kthread *old = cpu->current >= 0 ? kstate_thread(st, cpu->current) : NULL;

		if (old && old->ncurrent)
			old->ncurrent--;
		cpu->current = sw.next_tid == 0 ? -1 : sw.next_tid;
	}
	prev = thread_get(st, sw.prev_tid, sw.prev_tid == 0 ? 0 : -1, "", NULL);
	next = thread_get(st, sw.next_tid, sw.next_tid == 0 ? 0 : -1, "", NULL);
	if (!prev || !next)
		return;
	if (cpu && cpu->current >= 0)
		next->ncurrent++;
	set_comm(next, sw.next_comm);
	if (kev_int(ev, c, KR_PREV_PRIO, &v) == 0)
		check_prio(st, ts, prev, v);
	if (kev_int(ev, c, KR_NEXT_PRIO, &v) == 0)
		check_prio(st, ts, next, v);
	sw.wakee = next;
	sw.waker = next->last_waker >= 0 ? kstate_thread(st, next->last_waker) : NULL;
	if (st->notify && st->hooks->sched_switch)
		st->hooks->sched_switch(st->ctx, &sw);
	next->has_wakeup = 0;
	next->last_waker = -1;
}

static void on_wakeup(struct kstate *st, const struct trax_event *ev, const struct kev_class *c,
		      int64_t ts)
{
	int64_t tid = get_int(ev, c, KR_TID, 0), cpu_id = get_int(ev, c, KR_CPU_ID, 0), prio;
	struct kthread *t;

	cpu_get(st, get_int(ev, c, KR_TARGET_CPU, 0));
	cpu_get(st, cpu_id);
	t = kstate_thread(st, tid);
	/* a wakeup of a thread running on some CPU is ignored */
	if (t && t->ncurrent)
		return;
	if (!t && !(t = thread_get(st, tid, -1, "", NULL)))
		return;
	if (kev_int(ev, c, KR_PRIO, &prio) == 0)
		check_prio(st, ts, t, prio - (st->prio_minus_100 ? 100 : 0));
	if (!t->has_wakeup) {
		int64_t cur = kstate_current(st, cpu_id);

		t->has_wakeup = 1;
		t->last_wakeup = ts;
		if (cur >= 0)
			t->last_waker = cur;
	}
}

static void on_migrate(struct kstate *st, const struct trax_event *ev, const struct kev_class *c,
		       int64_t ts)
{
	int64_t tid = get_int(ev, c, KR_TID, 0), prio;
	const char *comm = kev_str(ev, c, KR_COMM);
	struct kthread *t = thread_get(st, tid, -1, comm, NULL);

	if (!t)
		return;
	if (st->notify && st->hooks->migrate)
		st->hooks->migrate(st->ctx, t, get_int(ev, c, KR_CPU_ID, 0));
	if (kev_int(ev, c, KR_PRIO, &prio) == 0)
		check_prio(st, ts, t, prio);
}

static void on_fork(struct kstate *st, const struct trax_event *ev, const struct kev_class *c)
{
	/* lttng-analyses takes the parent's tid from parent_pid */
	int64_t ppid = get_int(ev, c, KR_PARENT_PID, 0);
	int64_t ctid = get_int(ev, c, KR_CHILD_TID, 0), cpid = get_int(ev, c, KR_CHILD_PID, -1);
	const char *pcomm = kev_str(ev, c, KR_PARENT_COMM), *ccomm = kev_str(ev, c, KR_CHILD_COMM);
	struct kthread *parent, *child;
	int created;

	parent = thread_get(st, ppid, ppid, pcomm, &created);
	if (parent && !created) {
		parent->pid = ppid;
		set_comm(parent, pcomm);
	}
	/* the child is a new sv.Process, whatever was known of its tid */
	child = thread_get(st, ctid, cpid, ccomm, &created);
	if (child && !created)
		thread_reset(child, ctid, cpid, ccomm);
}

static void on_exec(struct kstate *st, const struct trax_event *ev, const struct kev_class *c)
{
	struct kthread *t = thread_get(st, get_int(ev, c, KR_TID, 0), -1, "", NULL);
	const char *procname = kev_str(ev, c, KR_CTX_PROCNAME);

	if (t && procname)
		set_comm(t, procname);
}

static void on_statedump(struct kstate *st, const struct trax_event *ev, const struct kev_class *c)
{
	int64_t tid = get_int(ev, c, KR_TID, 0), pid = get_int(ev, c, KR_PID, -1), prio;
	const char *name = kev_str(ev, c, KR_NAME);
	struct kthread *t = thread_get(st, tid, -1, "", NULL);

	if (!t)
		return;
	t->pid = pid;
	set_comm(t, name);
	if (!t->has_prio && kev_int(ev, c, KR_PRIO, &prio) == 0) {
		t->has_prio = 1;
		t->prio = prio;
	}
	if (pid != tid)
		thread_get(st, pid, pid, name, NULL);
}

/* IRQ events: the interrupt state (kirq.h), and what it notifies */
static void on_irq(struct kstate *st, const struct trax_event *ev, const struct kev_class *c,
		   int64_t ts)
{
	int64_t cpu = get_int(ev, c, KR_CPU_ID, 0);
	const struct kstate_hooks *h = st->hooks;
	const struct kirq_hard *hard;
	const struct kirq_soft *soft;

	switch (c->kind) {
	case KEV_IRQ_ENTRY: {
		int64_t irq = get_int(ev, c, KR_IRQ, 0);
		const char *name = kev_str(ev, c, KR_NAME);

		kirq_hard_entry(&st->irq, cpu, irq, ts);
		if (st->notify && h->irq_entry)
			h->irq_entry(st->ctx, irq, name ? name : "");
		break;
	}
	case KEV_IRQ_EXIT:
		hard = kirq_hard_exit(&st->irq, cpu, get_int(ev, c, KR_IRQ, 0), ts);
		if (hard && st->notify && h->irq_exit)
			h->irq_exit(st->ctx, hard);
		break;
	case KEV_SOFTIRQ_RAISE:
	case KEV_LTTNG_SOFTIRQ_RAISE:
		kirq_soft_raise(&st->irq, cpu, get_int(ev, c, KR_VEC, -1), ts);
		break;
	case KEV_SOFTIRQ_ENTRY:
	case KEV_LTTNG_SOFTIRQ_ENTRY:
		kirq_soft_entry(&st->irq, cpu, get_int(ev, c, KR_VEC, -1), ts);
		break;
	default:
		soft = kirq_soft_exit(&st->irq, cpu, get_int(ev, c, KR_VEC, -1), ts);
		if (soft && st->notify && h->softirq_exit)
			h->softirq_exit(st->ctx, soft);
		break;
	}
	if (st->irq.failed)
		st->failed = 1;
}

int kstate_event(struct kstate *st, const struct trax_event *ev, const struct kev_class *c,
		 int64_t ts)
{
	int64_t v;

	switch (c->kind) {
	case KEV_SCHED_SWITCH:
		on_switch(st, ev, c, ts);
		break;
	case KEV_SCHED_WAKEUP:
		on_wakeup(st, ev, c, ts);
		break;
	case KEV_SCHED_MIGRATE:
		on_migrate(st, ev, c, ts);
		break;
	case KEV_SCHED_FORK:
		on_fork(st, ev, c);
		break;
	case KEV_SCHED_EXEC:
		on_exec(st, ev, c);
		break;
	case KEV_SCHED_PI_SETPRIO:
		if (kev_int(ev, c, KR_NEWPRIO, &v) == 0)
			check_prio(st, ts, thread_get(st, get_int(ev, c, KR_TID, 0), -1, "", NULL),
				   v);
		break;
	case KEV_STATEDUMP_PROCESS:
		on_statedump(st, ev, c);
		break;
	case KEV_IRQ_ENTRY:
	case KEV_IRQ_EXIT:
	case KEV_SOFTIRQ_RAISE:
	case KEV_SOFTIRQ_ENTRY:
	case KEV_SOFTIRQ_EXIT:
		cpu_get(st, get_int(ev, c, KR_CPU_ID, 0));
		/* fall through */
	case KEV_LTTNG_SOFTIRQ_RAISE:
	case KEV_LTTNG_SOFTIRQ_ENTRY:
	case KEV_LTTNG_SOFTIRQ_EXIT:
		on_irq(st, ev, c, ts);
		break;
	default:
		break;
	}
	return st->failed ? -1 : 0;
}
