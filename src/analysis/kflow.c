/*
 * kflow.c - the threads' states over time, LTTV's control-flow view
 * (kflow.h).
 */
#include "analysis/kflow.h"

#include <stdlib.h>
#include <string.h>

#define CPU_ID_MAX  (1 << 20) /* CPU ids above are not believed (a damaged field) */
#define COMM_MAX    (KFLOW_COMM_MAX - 1)
#define TASK_REPORT 0xff /* the sleeping, stopped, dead and idle bits of prev_state */
#define TASK_DEAD   0x30 /* EXIT_DEAD | EXIT_ZOMBIE */

struct kflow_cpu {
	int64_t current;	       /* tid, -1: nobody known (or the idle task) */
	int32_t irq;		       /* hard IRQ being handled, -1: none */
	int32_t softirq;	       /* soft IRQ vector being handled, -1: none */
	int known;		       /* a switch (or a tid context) said who runs there */
	int seen;		       /* an event of the trace's was recorded there */
	struct kflow_cpu_interval cur; /* the open interval (kflow_set_cpu_fn; its end unused) */
};

/* What kflow does with an event class (classified at its first event). */
enum kf_kind {
	KF_OTHER = 0,
	KF_SWITCH,
	KF_WAKEUP,
	KF_FORK,
	KF_EXEC,
	KF_EXIT,
	KF_FREE,
	KF_STATEDUMP,
	KF_SYS_ENTRY,
	KF_SYS_EXIT,
	KF_IRQ_ENTRY,
	KF_IRQ_EXIT,
	KF_SOFT_ENTRY,
	KF_SOFT_EXIT,
};

/* The payload fields kflow reads that kev does not know. */
enum kf_field { KFF_PREV_STATE, KFF_STATUS, KFF_CPU, KFF_FILENAME, KFF_COUNT };
static const char *const kf_field_names[KFF_COUNT] = {"prev_state", "status", "cpu", "filename"};

struct kflow_cls {
	uint8_t init;
	uint8_t kind;
	struct kev_ref ref[KFF_COUNT];
};

static const char *const state_names[KFLOW_STATE_COUNT] = {
    [KFLOW_UNKNOWN] = "unknown", [KFLOW_USER] = "running",    [KFLOW_SYSCALL] = "syscall",
    [KFLOW_IRQ] = "irq",	 [KFLOW_SOFTIRQ] = "softirq", [KFLOW_RUNNABLE] = "runnable",
    [KFLOW_BLOCKED] = "blocked", [KFLOW_EXITED] = "exited",
};

const char *kflow_state_name(enum kflow_state s)
{
	return (unsigned)s < KFLOW_STATE_COUNT ? state_names[s] : "?";
}

const char *kflow_reason_name(enum kflow_reason r)
{
	switch (r) {
	case KFLOW_R_WOKEN:
		return "woken";
	case KFLOW_R_PREEMPTED:
		return "preempted";
	case KFLOW_R_FORKED:
		return "forked";
	case KFLOW_R_STATEDUMP:
		return "statedump";
	default:
		return NULL;
	}
}

const char *kflow_softirq_name(int64_t vec)
{
	/* include/linux/interrupt.h's order */
	static const char *const names[] = {"HI",	"TIMER",   "NET_TX", "NET_RX",	"BLOCK",
					    "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU"};

	return vec >= 0 && vec < 10 ? names[vec] : NULL;
}

void kflow_init(struct kflow *f, kflow_interval_fn fn, void *ctx)
{
	memset(f, 0, sizeof(*f));
	f->fn = fn;
	f->ctx = ctx;
	an_recs_init(&f->threads, sizeof(struct kflow_thread));
}

void kflow_set_cpu_fn(struct kflow *f, kflow_cpu_fn fn)
{
	f->cpu_fn = fn;
}

int64_t kflow_cpu_current(const struct kflow *f, int64_t cpu)
{
	return cpu >= 0 && (size_t)cpu < f->ncpus ? f->cpus[cpu].current : -1;
}

void kflow_free(struct kflow *f)
{
	an_recs_free(&f->threads);
	free(f->cpus);
	free(f->cls);
	memset(f, 0, sizeof(*f));
}

void kflow_start(struct kflow *f, int64_t ts)
{
	f->reporting = 1;
	f->clip = ts;
}

size_t kflow_thread_count(const struct kflow *f)
{
	return f->threads.n;
}

struct kflow_thread *kflow_thread_at(const struct kflow *f, size_t i)
{
	return i < f->threads.n ? an_recs_at(&f->threads, i) : NULL;
}

const struct kflow_thread *kflow_thread(const struct kflow *f, int64_t tid)
{
	return an_recs_find(&f->threads, (uint64_t)tid);
}

static void set_comm(struct kflow_thread *t, const char *comm)
{
	size_t n;

	if (!comm || !*comm)
		return;
	n = strnlen(comm, COMM_MAX);
	memcpy(t->comm, comm, n);
	t->comm[n] = 0;
}

/* An interval from *begin closed at ts: cut to the reporting's start; whether it is reported. */
static int clip(const struct kflow *f, int64_t *begin, int64_t ts)
{
	if (!f->reporting || ts <= f->clip)
		return 0;
	if (*begin < f->clip)
		*begin = f->clip;
	return *begin < ts;
}

/* Reports t's open interval as closed at ts (when reporting, and not empty once cut). */
static void report(struct kflow *f, struct kflow_thread *t, int64_t ts)
{
	struct kflow_interval iv = t->cur;

	if (t->gone || !clip(f, &iv.begin, ts))
		return;
	iv.end = ts;
	f->intervals++;
	if (f->fn)
		f->fn(f->ctx, t, &iv);
}

static int running(const struct kflow_thread *t)
{
	return t->cur.state >= KFLOW_USER && t->cur.state <= KFLOW_SOFTIRQ;
}

/* The CPU's interval closed at ts (when reporting, and not empty once cut). */
static void cpu_report(struct kflow *f, struct kflow_cpu *c, int64_t ts)
{
	struct kflow_cpu_interval iv = c->cur;

	if (!c->seen || !clip(f, &iv.begin, ts))
		return;
	iv.end = ts;
	f->cpu_fn(f->ctx, &iv);
}

/* The state of CPU id from what is known of it and of its thread: a new interval when it changed.
 */
static void cpu_update(struct kflow *f, int32_t id, int64_t ts)
{
	struct kflow_cpu *c = &f->cpus[id];
	struct kflow_cpu_interval n = {.begin = ts, .cpu = id, .irq = -1, .tid = -1};
	struct kflow_thread *t =
	    c->current > 0 ? an_recs_find(&f->threads, (uint64_t)c->current) : NULL;

	if (t && (!running(t) || t->cur.cpu != id))
		t = NULL; /* (its switch out was lost: it runs elsewhere now) */
	if (t)
		n.tid = t->tid;
	if (c->irq >= 0) {
		n.state = KFLOW_CPU_IRQ;
		n.irq = c->irq;
	} else if (c->softirq >= 0) {
		n.state = KFLOW_CPU_SOFTIRQ;
		n.irq = c->softirq;
	} else if (t) {
		n.state = t->syscall ? KFLOW_CPU_SYSCALL : KFLOW_CPU_USER;
		n.syscall = t->syscall;
	} else
		n.state = c->known ? KFLOW_CPU_IDLE : KFLOW_CPU_UNKNOWN;
	if (n.state == c->cur.state && n.irq == c->cur.irq && n.tid == c->cur.tid &&
	    n.syscall == c->cur.syscall)
		return;
	cpu_report(f, c, ts);
	c->cur = n;
}

/* Closes t's interval at ts and opens one of state s. */
static void move(struct kflow *f, struct kflow_thread *t, int64_t ts, enum kflow_state s,
		 int32_t cpu, int32_t irq, enum kflow_reason reason, int64_t waker)
{
	/* the CPU it leaves (when the event is another CPU's, that one is updated after it) */
	int32_t left = f->cpu_fn && running(t) && t->cur.cpu >= 0 ? t->cur.cpu : -1;

	report(f, t, ts);
	t->gone = 0;
	t->cur = (struct kflow_interval){.begin = ts,
					 .state = s,
					 .cpu = cpu,
					 .irq = irq,
					 .syscall = t->syscall,
					 .reason = reason,
					 .waker = waker};
	if (left >= 0 && (size_t)left < f->ncpus &&
	    (s < KFLOW_USER || s > KFLOW_SOFTIRQ || cpu != left))
		cpu_update(f, left, ts);
}

/* The thread tid, created (unknown since the first event) when new; NULL when out of memory. */
static struct kflow_thread *thread_get(struct kflow *f, int64_t tid)
{
	int created;
	struct kflow_thread *t = an_recs_get(&f->threads, (uint64_t)tid, &created);

	if (!t) {
		f->failed = 1;
		return NULL;
	}
	if (!created)
		return t;
	t->tid = tid;
	t->pid = -1;
	t->slot = AN_IDMAP_NONE;
	t->cur = (struct kflow_interval){
	    .begin = f->origin, .state = KFLOW_UNKNOWN, .cpu = -1, .irq = -1, .waker = -1};
	return t;
}

static struct kflow_cpu *cpu_get(struct kflow *f, int64_t id)
{
	if (id < 0 || id >= CPU_ID_MAX)
		return NULL;
	if ((size_t)id >= f->ncpus) {
		size_t n = f->ncpus ? f->ncpus : 8;
		struct kflow_cpu *c;

		while (n <= (size_t)id)
			n *= 2;
		if (!(c = realloc(f->cpus, n * sizeof(*c)))) {
			f->failed = 1;
			return NULL;
		}
		for (size_t i = f->ncpus; i < n; i++)
			c[i] = (struct kflow_cpu){
			    .current = -1,
			    .irq = -1,
			    .softirq = -1,
			    .cur = {.begin = f->origin, .cpu = (int32_t)i, .irq = -1, .tid = -1}};
		f->cpus = c;
		f->ncpus = n;
	}
	f->cpus[id].seen = 1;
	return &f->cpus[id];
}

/* t runs on cpu: its state there (an IRQ being handled, a soft IRQ, its system call, user). */
static void run_on(struct kflow *f, struct kflow_thread *t, int64_t ts, struct kflow_cpu *cpu,
		   int32_t cpu_id)
{
	enum kflow_state s = KFLOW_USER;
	int32_t irq = -1;

	if (cpu && cpu->irq >= 0) {
		s = KFLOW_IRQ;
		irq = cpu->irq;
	} else if (cpu && cpu->softirq >= 0) {
		s = KFLOW_SOFTIRQ;
		irq = cpu->softirq;
	} else if (t->syscall)
		s = KFLOW_SYSCALL;
	if (running(t) && t->cur.state == s && t->cur.cpu == cpu_id && t->cur.irq == irq &&
	    t->cur.syscall == t->syscall)
		return;
	move(f, t, ts, s, cpu_id, irq, KFLOW_R_NONE, -1);
}

static enum kf_kind kind_of(const struct kev_class *c)
{
	switch (c->kind) {
	case KEV_SCHED_SWITCH:
		return KF_SWITCH;
	case KEV_SCHED_WAKEUP:
		return KF_WAKEUP;
	case KEV_SCHED_FORK:
		return KF_FORK;
	case KEV_SCHED_EXEC:
		return KF_EXEC;
	case KEV_SCHED_EXIT:
		return KF_EXIT;
	case KEV_SCHED_FREE:
		return KF_FREE;
	case KEV_STATEDUMP_PROCESS:
		return KF_STATEDUMP;
	case KEV_SYSCALL_ENTRY:
		return KF_SYS_ENTRY;
	case KEV_SYSCALL_EXIT:
		return KF_SYS_EXIT;
	case KEV_IRQ_ENTRY:
		return KF_IRQ_ENTRY;
	case KEV_IRQ_EXIT:
		return KF_IRQ_EXIT;
	case KEV_SOFTIRQ_ENTRY:
		return KF_SOFT_ENTRY;
	case KEV_SOFTIRQ_EXIT:
		return KF_SOFT_EXIT;
	default:
		/* LTTng's names of the soft IRQ events (kev keeps lttng-analyses' only) */
		if (!strcmp(c->name, "irq_softirq_entry"))
			return KF_SOFT_ENTRY;
		if (!strcmp(c->name, "irq_softirq_exit"))
			return KF_SOFT_EXIT;
		return KF_OTHER;
	}
}

static const struct kflow_cls *cls_of(struct kflow *f, const struct trax_event *ev,
				      const struct kev_class *c)
{
	struct kflow_cls *k;

	if (c->id >= f->ncls) {
		size_t n = f->ncls ? f->ncls : 64;

		while (n <= c->id)
			n *= 2;
		if (!(k = realloc(f->cls, n * sizeof(*k)))) {
			f->failed = 1;
			return NULL;
		}
		memset(k + f->ncls, 0, (n - f->ncls) * sizeof(*k));
		f->cls = k;
		f->ncls = n;
	}
	k = &f->cls[c->id];
	if (!k->init) {
		k->init = 1;
		k->kind = (uint8_t)kind_of(c);
		for (int i = 0; i < KFF_COUNT; i++)
			k->ref[i] = kev_find(ev, kf_field_names[i],
					     &(enum trax_scope){TRAX_SCOPE_PAYLOAD}, 1);
	}
	return k;
}

static int64_t get_int(const struct trax_event *ev, const struct kev_class *c, enum kev_role r,
		       int64_t dflt)
{
	int64_t v;

	return kev_int(ev, c, r, &v) ? dflt : v;
}

static int64_t get_ref(const struct trax_event *ev, struct kev_ref ref, int64_t dflt)
{
	const struct trax_field *fl;
	int64_t v;
	uint64_t u;

	if (ref.scope < 0 ||
	    !(fl = trax_event_field_by_index(ev, (enum trax_scope)ref.scope, ref.index)))
		return dflt;
	if (trax_field_int(fl, &v) == 0)
		return v;
	if (trax_field_uint(fl, &u) == 0)
		return (int64_t)u;
	return dflt;
}

/* The switch that put tid (0: the idle task) on cpu is not in the trace: the old thread's state is
 * unknown. */
static void lost_switch(struct kflow *f, struct kflow_cpu *cpu, int32_t cpu_id, int64_t tid,
			int64_t ts)
{
	struct kflow_thread *old;

	if (cpu->current > 0 && (old = thread_get(f, cpu->current)) && running(old) &&
	    old->cur.cpu == cpu_id)
		move(f, old, ts, KFLOW_UNKNOWN, -1, -1, KFLOW_R_NONE, -1);
	cpu->current = tid > 0 ? tid : -1;
	cpu->known = 1;
}

static void on_switch(struct kflow *f, const struct trax_event *ev, const struct kev_class *c,
		      const struct kflow_cls *k, int64_t ts, int64_t cpu_id, struct kflow_cpu *cpu)
{
	int64_t prev_tid = get_int(ev, c, KR_PREV_TID, 0),
		next_tid = get_int(ev, c, KR_NEXT_TID, 0);
	int64_t st = get_ref(ev, k->ref[KFF_PREV_STATE], 0);
	struct kflow_thread *t;

	/* the CPU ran another thread than prev: a switch was lost */
	if (cpu && cpu->current > 0 && cpu->current != prev_tid)
		lost_switch(f, cpu, (int32_t)cpu_id, prev_tid, ts);
	if (prev_tid > 0 && (t = thread_get(f, prev_tid))) {
		set_comm(t, kev_str(ev, c, KR_PREV_COMM));
		if (t->exiting || (st & TASK_DEAD))
			move(f, t, ts, KFLOW_EXITED, -1, -1, KFLOW_R_NONE, -1);
		else if (!(st & TASK_REPORT))
			move(f, t, ts, KFLOW_RUNNABLE, (int32_t)cpu_id, -1, KFLOW_R_PREEMPTED, -1);
		else
			move(f, t, ts, KFLOW_BLOCKED, -1, -1, KFLOW_R_NONE, -1);
	}
	if (cpu) {
		cpu->current = next_tid > 0 ? next_tid : -1;
		cpu->known = 1;
	}
	if (next_tid > 0 && (t = thread_get(f, next_tid))) {
		set_comm(t, kev_str(ev, c, KR_NEXT_COMM));
		run_on(f, t, ts, cpu, (int32_t)cpu_id);
	}
}

static void on_wakeup(struct kflow *f, const struct trax_event *ev, const struct kev_class *c,
		      int64_t ts, int64_t cpu_id)
{
	int64_t tid = get_int(ev, c, KR_TID, 0);
	struct kflow_thread *t;

	if (tid <= 0 || !(t = thread_get(f, tid)))
		return;
	/* already running or waiting for a CPU (sched_waking then sched_wakeup), or dead */
	if (running(t) || t->cur.state == KFLOW_RUNNABLE || t->cur.state == KFLOW_EXITED)
		return;
	set_comm(t, kev_str(ev, c, KR_COMM));
	{
		int64_t waker =
		    cpu_id >= 0 && (size_t)cpu_id < f->ncpus ? f->cpus[cpu_id].current : -1;
		move(f, t, ts, KFLOW_RUNNABLE, -1, -1, KFLOW_R_WOKEN, waker);
	}
}

static void on_fork(struct kflow *f, const struct trax_event *ev, const struct kev_class *c,
		    int64_t ts)
{
	int64_t ctid = get_int(ev, c, KR_CHILD_TID, 0);
	struct kflow_thread *t;
	int known = ctid > 0 && kflow_thread(f, ctid);

	if (ctid <= 0 || !(t = thread_get(f, ctid)))
		return;
	/* the child is new, whatever its tid was before: the old thread's row ends */
	if (known)
		report(f, t, ts);
	t->gone = 1;
	t->pid = get_int(ev, c, KR_CHILD_PID, -1);
	t->comm[0] = 0;
	set_comm(t, kev_str(ev, c, KR_CHILD_COMM));
	t->syscall = NULL;
	t->exiting = 0;
	move(f, t, ts, KFLOW_RUNNABLE, -1, -1, KFLOW_R_FORKED, -1);
}

static void on_exec(struct kflow *f, const struct trax_event *ev, const struct kev_class *c,
		    const struct kflow_cls *k)
{
	struct kflow_thread *t;
	const char *name = kev_str(ev, c, KR_CTX_PROCNAME);
	int64_t tid = get_int(ev, c, KR_TID, 0);

	if (tid <= 0 || !(t = thread_get(f, tid)))
		return;
	if (!name && k->ref[KFF_FILENAME].scope >= 0) {
		/* the kernel names the task after the file's base name */
		const struct trax_field *fl = trax_event_field_by_index(
		    ev, (enum trax_scope)k->ref[KFF_FILENAME].scope, k->ref[KFF_FILENAME].index);
		const char *s = fl ? trax_field_string(fl, NULL) : NULL;

		if (s && (name = strrchr(s, '/')))
			name++;
		else
			name = s;
	}
	if (name && *name) {
		size_t n = strnlen(name, 15); /* TASK_COMM_LEN - 1 */

		memcpy(t->comm, name, n);
		t->comm[n] = 0;
	}
}

static void on_statedump(struct kflow *f, const struct trax_event *ev, const struct kev_class *c,
			 const struct kflow_cls *k, int64_t ts)
{
	int64_t tid = get_int(ev, c, KR_TID, 0), status = get_ref(ev, k->ref[KFF_STATUS], 0);
	struct kflow_thread *t;

	if (tid <= 0 || !(t = thread_get(f, tid)))
		return;
	t->pid = get_int(ev, c, KR_PID, t->pid);
	set_comm(t, kev_str(ev, c, KR_NAME));
	if (t->cur.state != KFLOW_UNKNOWN)
		return;
	/* LTTng's status: 2 WAIT_CPU, 3 EXIT, 4 ZOMBIE, 5 WAIT, 7 DEAD (6 RUN: where, unknown) */
	if (status == 5)
		move(f, t, ts, KFLOW_BLOCKED, -1, -1, KFLOW_R_STATEDUMP, -1);
	else if (status == 2)
		move(f, t, ts, KFLOW_RUNNABLE, -1, -1, KFLOW_R_STATEDUMP, -1);
	else if (status == 3 || status == 4 || status == 7)
		move(f, t, ts, KFLOW_EXITED, -1, -1, KFLOW_R_STATEDUMP, -1);
}

/* The thread an event of cpu is about: its tid context's, else the CPU's current one. */
static struct kflow_thread *subject(struct kflow *f, int64_t ctx_tid, struct kflow_cpu *cpu)
{
	int64_t tid = ctx_tid >= 0 ? ctx_tid : cpu ? cpu->current : -1;

	return tid > 0 ? thread_get(f, tid) : NULL;
}

int kflow_event(struct kflow *f, const struct trax_event *ev, const struct kev_class *c, int64_t ts)
{
	const struct kflow_cls *k = cls_of(f, ev, c);
	int64_t cpu_id = -1, ctx_tid = -1, v;
	struct kflow_cpu *cpu = NULL;
	struct kflow_thread *t;

	if (!k)
		return -1;
	if (!f->has_origin) {
		f->has_origin = 1;
		f->origin = ts;
	}
	if (kev_int(ev, c, KR_PKT_CPU_ID, &cpu_id) == 0 || kev_int(ev, c, KR_CPU_ID, &cpu_id) == 0)
		cpu = cpu_get(f, cpu_id);
	else
		cpu_id = -1;
	/*
	 * an event with a tid context: that thread runs on the event's CPU
	 * (an IRQ's interrupts it), whatever the switches said (one was lost)
	 */
	if (kev_int(ev, c, KR_CTX_TID, &ctx_tid) == 0 && ctx_tid >= 0 && cpu &&
	    k->kind != KF_SWITCH && cpu->current != (ctx_tid > 0 ? ctx_tid : -1))
		lost_switch(f, cpu, (int32_t)cpu_id, ctx_tid, ts);
	if (ctx_tid > 0 && k->kind != KF_SWITCH && (t = thread_get(f, ctx_tid))) {
		if (!t->comm[0])
			set_comm(t, kev_str(ev, c, KR_CTX_PROCNAME));
		if (!running(t) || t->cur.cpu != (int32_t)cpu_id)
			run_on(f, t, ts, cpu, (int32_t)cpu_id);
	} else if (ctx_tid <= 0)
		ctx_tid = -1;
	switch ((enum kf_kind)k->kind) {
	case KF_SWITCH:
		on_switch(f, ev, c, k, ts, cpu_id, cpu);
		break;
	case KF_WAKEUP:
		on_wakeup(f, ev, c, ts, cpu_id);
		break;
	case KF_FORK:
		on_fork(f, ev, c, ts);
		break;
	case KF_EXEC:
		on_exec(f, ev, c, k);
		break;
	case KF_EXIT:
		if ((v = get_int(ev, c, KR_TID, 0)) > 0 && (t = thread_get(f, v)))
			t->exiting = 1;
		break;
	case KF_FREE:
		if ((v = get_int(ev, c, KR_TID, 0)) > 0 && (t = thread_get(f, v)) && !t->gone) {
			report(f, t, ts);
			t->gone = 1;
		}
		break;
	case KF_STATEDUMP:
		on_statedump(f, ev, c, k, ts);
		break;
	case KF_SYS_ENTRY:
	case KF_SYS_EXIT:
		if ((t = subject(f, ctx_tid, cpu))) {
			t->syscall = k->kind == KF_SYS_ENTRY ? c->syscall : NULL;
			run_on(f, t, ts, cpu, (int32_t)cpu_id);
		}
		break;
	case KF_IRQ_ENTRY:
	case KF_IRQ_EXIT:
	case KF_SOFT_ENTRY:
	case KF_SOFT_EXIT:
		if (!cpu)
			break;
		if (k->kind == KF_IRQ_ENTRY)
			cpu->irq = (int32_t)get_int(ev, c, KR_IRQ, 0);
		else if (k->kind == KF_IRQ_EXIT)
			cpu->irq = -1;
		else if (k->kind == KF_SOFT_ENTRY)
			cpu->softirq = (int32_t)get_int(ev, c, KR_VEC, 0);
		else
			cpu->softirq = -1;
		/* the interrupted thread: the CPU's current one (not an IRQ event's tid context) */
		if (cpu->current > 0 && (t = thread_get(f, cpu->current)) && running(t))
			run_on(f, t, ts, cpu, (int32_t)cpu_id);
		break;
	default:
		break;
	}
	if (cpu && f->cpu_fn)
		cpu_update(f, (int32_t)cpu_id, ts);
	return f->failed ? -1 : 0;
}

void kflow_finish(struct kflow *f, int64_t ts)
{
	for (size_t i = 0; i < f->threads.n; i++) {
		struct kflow_thread *t = kflow_thread_at(f, i);

		report(f, t, ts);
		t->cur.begin = ts;
	}
	for (size_t i = 0; f->cpu_fn && i < f->ncpus; i++) {
		cpu_report(f, &f->cpus[i], ts);
		f->cpus[i].cur.begin = ts;
	}
}
