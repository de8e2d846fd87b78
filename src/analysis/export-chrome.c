/*
 * export-chrome.c - `trax export --format=chrome` (export.h): Chrome's
 * Trace Event format, one event per line, written as the trace is read.
 *
 * Tracks: a thread's track holds its system calls (B at syscall_entry_*,
 * E at its exit) and spans (--span) as slices, its other events as
 * instants (ph "i", scope t) with their payload as args; a pseudo-process
 * "CPUs" (pid EX_CPU_PID, no Linux pid can be that large) has a track per
 * CPU where every interval a thread ran (sched_switch to sched_switch) is
 * a complete slice (X) named after the thread. Scheduling is not put on
 * the threads' tracks: a thread blocked in a system call leaves the CPU
 * inside its syscall slice, and slices of one track must nest.
 * Counters (C): LTTng's perf_* contexts and --counter NAME.FIELD.
 *
 * Who did an event: the tid/vtid and pid/vpid contexts when the trace has
 * them; else, in a kernel trace, the thread that sched_switch put on the
 * event's CPU, with its pid from the state dump and sched_process_fork
 * (kstate); else, in a user-space trace, the env's vpid. Names: thread
 * (M thread_name) and process (M process_name) names are written before
 * a track's first event, and again when the thread's name changes (exec).
 *
 * Memory: a record per thread and per CPU (open slices: a stack of at most
 * EX_DEPTH kinds per thread; the begin of each CPU's running slice), none
 * per event.
 */
#include "analysis/export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/ex-json.h"
#include "analysis/idmap.h"
#include "analysis/kev.h"
#include "analysis/kstate.h"
#include "analysis/recs.h"

#define EX_CPU_PID   1000000000 /* the CPUs' pseudo-process; CPU n is tid EX_CPU_PID + 1 + n */
#define EX_OTHER_TID EX_CPU_PID /* its track for events of no known thread nor CPU */
#define EX_DEPTH     16		/* open slices per thread (more are written as instants) */
#define EX_PERF_MAX  8		/* perf_* contexts of an event class read */
#define EX_CTR_MAX   8		/* --counter fields of an event class read */

enum ex_role { ER_OTHER, ER_SWITCH, ER_SYS_ENTRY, ER_SYS_EXIT, ER_SPAN_BEGIN, ER_SPAN_END };

/* What an event class is to the export, found at its first event. */
struct ex_class {
	int init;
	enum ex_role role;
	uint16_t kind;		  /* slice kind on a thread's stack: 0 system call, 1 + i span i */
	unsigned nctr;		  /* --counter fields of the class: */
	uint16_t ctr[EX_CTR_MAX]; /* their --counter indexes */
	struct kev_ref ctr_ref[EX_CTR_MAX];
	int64_t env_pid;	  /* a user-space trace's env vpid, -1: none */
	const char *env_procname; /* and procname (valid until the reader closes) */
	unsigned nperf;
	struct kev_ref perf[EX_PERF_MAX];
	char *perf_name[EX_PERF_MAX];
};

struct ex_thread {
	int64_t tid;
	int64_t pid;	   /* -1: unknown */
	int64_t track_pid; /* the pid its events are written with, -1: none yet */
	char name[KSTATE_COMM_MAX];
	uint8_t named; /* M thread_name written for name and track_pid */
	uint8_t depth;
	uint16_t stack[EX_DEPTH];
};

struct ex_proc {
	int64_t pid;
	char name[KSTATE_COMM_MAX];
	uint8_t named;	  /* M process_name written for name */
	uint8_t has_main; /* name is the thread tid == pid's (else a thread's of it) */
};

struct ex_cpu {
	uint8_t seen, named, running, switched;
	int64_t first_ts; /* its first event */
	int64_t tid;	  /* running since begin */
	int64_t begin;
};

struct ex {
	const struct ex_options *o;
	struct trax_reader *r;
	struct kev_table kev;
	struct kstate st;
	struct ex_out out;
	struct ex_class *classes;
	size_t nclasses;
	struct an_idmap pmap;
	struct an_recs threads; /* struct ex_thread by tid */
	struct ex_proc *procs;
	size_t nprocs, proc_cap;
	struct ex_cpu *cpus;
	size_t ncpus;
	uint8_t cpus_named, other_named;
	char **span_b, **span_e; /* --span's names */
	char **ctr_ev, **ctr_field;
	uint8_t *ctr_found;
	int64_t origin, last_ts;
	int has_origin;
	uint64_t written;
	int oom;
};

void ex_options_init(struct ex_options *o)
{
	memset(o, 0, sizeof(*o));
}

/* ---- records ---- */

static struct ex_thread *thread_get(struct ex *x, int64_t tid, int *created)
{
	int is_new;
	struct ex_thread *t = an_recs_get(&x->threads, (uint64_t)tid, &is_new);

	if (!t) {
		x->oom = 1;
		return NULL;
	}
	if (created)
		*created = is_new;
	if (!is_new)
		return t;
	t->tid = tid;
	t->pid = tid == 0 ? 0 : -1;
	t->track_pid = -1;
	if (tid == 0)
		strcpy(t->name, "swapper"); /* the idle tasks (one per CPU) */
	return t;
}

static struct ex_proc *proc_get(struct ex *x, int64_t pid)
{
	uint32_t i = an_idmap_get(&x->pmap, (uint64_t)pid);
	struct ex_proc *p;

	if (i != AN_IDMAP_NONE)
		return &x->procs[i];
	if (x->nprocs == x->proc_cap) {
		size_t cap = x->proc_cap ? x->proc_cap * 2 : 256;
		struct ex_proc *v = realloc(x->procs, cap * sizeof(*v));

		if (!v)
			goto oom;
		x->procs = v;
		x->proc_cap = cap;
	}
	if (an_idmap_put(&x->pmap, (uint64_t)pid, (uint32_t)x->nprocs))
		goto oom;
	p = &x->procs[x->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	return p;
oom:
	x->oom = 1;
	return NULL;
}

static struct ex_cpu *cpu_get(struct ex *x, int64_t cpu)
{
	if (cpu < 0 || cpu >= (1 << 20))
		return NULL;
	if ((size_t)cpu >= x->ncpus) {
		size_t n = x->ncpus ? x->ncpus : 8;
		struct ex_cpu *v;

		while (n <= (size_t)cpu)
			n *= 2;
		if (!(v = realloc(x->cpus, n * sizeof(*v)))) {
			x->oom = 1;
			return NULL;
		}
		memset(v + x->ncpus, 0, (n - x->ncpus) * sizeof(*v));
		x->cpus = v;
		x->ncpus = n;
	}
	return &x->cpus[cpu];
}

static void set_name(char *dst, const char *s, uint8_t *named)
{
	size_t n = strnlen(s, KSTATE_COMM_MAX - 1);

	if (!n || (!strncmp(dst, s, n) && !dst[n]))
		return;
	memcpy(dst, s, n);
	dst[n] = 0;
	*named = 0;
}

/*
 * A thread keeps its first name until exec (or a fork reusing its tid):
 * the sources disagree otherwise (the idle task is "swapper" in the
 * procname context, "swapper/1" in sched_switch; kworkers' comms change
 * with their work), and a name written again at every change is noise.
 */
static void thread_name(struct ex_thread *t, const char *name)
{
	if (name && !t->name[0])
		set_name(t->name, name, &t->named);
}

static void thread_rename(struct ex_thread *t, const char *name)
{
	if (name)
		set_name(t->name, name, &t->named);
}

/* What the system state knows of tid: its pid and name. */
static void sync_thread(struct ex *x, int64_t tid)
{
	struct kthread *k = kstate_thread(&x->st, tid);
	struct ex_thread *t;

	if (!k || !(t = thread_get(x, tid, NULL)))
		return;
	if (k->pid >= 0)
		t->pid = k->pid;
	thread_name(t, k->comm);
}

/* ---- writing ---- */

static void begin_event(struct ex *x)
{
	if (x->written++)
		ex_put(&x->out, ",\n{", 3);
	else
		ex_put(&x->out, "\n{", 2);
}

static void head(struct ex *x, const char *ph, int64_t pid, int64_t tid, int64_t ts)
{
	struct ex_out *o = &x->out;

	begin_event(x);
	ex_puts(o, "\"ph\":\"");
	ex_puts(o, ph);
	ex_puts(o, "\",\"pid\":");
	ex_int(o, pid);
	ex_puts(o, ",\"tid\":");
	ex_int(o, tid);
	ex_puts(o, ",\"ts\":");
	ex_us(o, ts - x->origin);
}

/* M NAME (thread_name, process_name, *_sort_index) with args {key: ...}; tid < 0: none. */
static void meta(struct ex *x, int64_t pid, int64_t tid, const char *what, const char *key,
		 const char *str, int64_t num)
{
	struct ex_out *o = &x->out;

	begin_event(x);
	ex_puts(o, "\"ph\":\"M\",\"pid\":");
	ex_int(o, pid);
	if (tid >= 0) {
		ex_puts(o, ",\"tid\":");
		ex_int(o, tid);
	}
	ex_puts(o, ",\"ts\":0,\"name\":\"");
	ex_puts(o, what);
	ex_puts(o, "\",\"args\":{\"");
	ex_puts(o, key);
	ex_puts(o, "\":");
	if (str)
		ex_str(o, str);
	else
		ex_int(o, num);
	ex_puts(o, "}}");
}

static void cpus_process(struct ex *x)
{
	if (x->cpus_named)
		return;
	x->cpus_named = 1;
	meta(x, EX_CPU_PID, -1, "process_name", "name", "CPUs", 0);
	meta(x, EX_CPU_PID, -1, "process_sort_index", "sort_index", NULL, -1);
}

/* The track of cpu (pid EX_CPU_PID): its tid, its names written first. */
static int64_t cpu_track(struct ex *x, int64_t cpu)
{
	struct ex_cpu *c = cpu_get(x, cpu);
	int64_t tid = EX_CPU_PID + 1 + cpu;

	cpus_process(x);
	if (c && !c->named) {
		char name[32];

		c->named = 1;
		snprintf(name, sizeof(name), "CPU %lld", (long long)cpu);
		meta(x, EX_CPU_PID, tid, "thread_name", "name", name, 0);
		meta(x, EX_CPU_PID, tid, "thread_sort_index", "sort_index", NULL, cpu);
	}
	return tid;
}

static int64_t other_track(struct ex *x)
{
	cpus_process(x);
	if (!x->other_named) {
		x->other_named = 1;
		meta(x, EX_CPU_PID, EX_OTHER_TID, "thread_name", "name", "(no thread known)", 0);
	}
	return EX_OTHER_TID;
}

/* The pid t's events are written with, its names written first. */
static int64_t thread_track(struct ex *x, struct ex_thread *t)
{
	int64_t pid = t->pid >= 0 ? t->pid : t->tid;
	struct ex_proc *p;

	/* (a track moves to the pid learnt later only between slices: B and E stay together) */
	if (t->track_pid != pid && (t->depth == 0 || t->track_pid < 0)) {
		t->track_pid = pid;
		t->named = 0;
	}
	if (t->named)
		return t->track_pid;
	t->named = 1;
	if (t->name[0])
		meta(x, t->track_pid, t->tid, "thread_name", "name", t->name, 0);
	else {
		char name[40];

		snprintf(name, sizeof(name), "tid %lld", (long long)t->tid);
		meta(x, t->track_pid, t->tid, "thread_name", "name", name, 0);
	}
	p = proc_get(x, t->track_pid);
	if (!p)
		return t->track_pid;
	/* the process is named after its main thread, else after its first thread named */
	if (t->name[0] && t->tid == p->pid) {
		p->has_main = 1;
		set_name(p->name, t->name, &p->named);
	} else if (t->name[0] && !p->has_main && !p->name[0])
		set_name(p->name, t->name, &p->named);
	if (!p->named) {
		char name[40];

		p->named = 1;
		snprintf(name, sizeof(name), "pid %lld", (long long)p->pid);
		meta(x, p->pid, -1, "process_name", "name", p->name[0] ? p->name : name, 0);
	}
	return t->track_pid;
}

static void put_name(struct ex *x, const char *name)
{
	ex_puts(&x->out, ",\"name\":");
	ex_str(&x->out, name);
}

static void put_payload_args(struct ex *x, const struct trax_event *ev)
{
	ex_puts(&x->out, ",\"args\":{");
	ex_scope_members(&x->out, ev, TRAX_SCOPE_PAYLOAD, 1);
	ex_puts(&x->out, "}}");
}

/* ev as an instant on track (pid, tid). */
static void instant(struct ex *x, int64_t pid, int64_t tid, int64_t ts, const struct kev_class *c,
		    const struct trax_event *ev)
{
	head(x, "i", pid, tid, ts);
	ex_puts(&x->out, ",\"s\":\"t\"");
	put_name(x, c->name);
	put_payload_args(x, ev);
}

/* Closes t's open slices down to depth, unfinished (their ends were lost). */
static void close_to(struct ex *x, struct ex_thread *t, int depth, int64_t ts)
{
	while (t->depth > depth) {
		head(x, "E", t->track_pid, t->tid, ts);
		ex_puts(&x->out, ",\"args\":{\"unfinished\":true}}");
		t->depth--;
	}
}

/* Opens a slice of kind on t: 0, or -1 when too many are open (not written). */
static int slice_begin(struct ex *x, struct ex_thread *t, uint16_t kind, const char *name,
		       const char *cat, int64_t ts, const struct trax_event *ev)
{
	int64_t pid;

	/* a system call inside another one: the first one's exit was lost */
	if (kind == 0)
		for (int i = t->depth - 1; i >= 0; i--)
			if (t->stack[i] == 0) {
				close_to(x, t, i, ts);
				break;
			}
	if (t->depth == EX_DEPTH)
		return -1;
	pid = thread_track(x, t);
	head(x, "B", pid, t->tid, ts);
	put_name(x, name);
	ex_puts(&x->out, ",\"cat\":\"");
	ex_puts(&x->out, cat);
	ex_puts(&x->out, "\"");
	put_payload_args(x, ev);
	t->stack[t->depth++] = kind;
	return 0;
}

/*
 * Closes t's innermost open slice of kind (and those opened inside it,
 * whose ends were lost, first): 0, or -1 when none is open.
 */
static int slice_end(struct ex *x, struct ex_thread *t, uint16_t kind, int64_t ts,
		     const struct trax_event *ev)
{
	int i = t->depth - 1;

	while (i >= 0 && t->stack[i] != kind)
		i--;
	if (i < 0)
		return -1;
	close_to(x, t, i + 1, ts);
	head(x, "E", t->track_pid, t->tid, ts);
	put_payload_args(x, ev);
	t->depth--;
	return 0;
}

/* The running slice of cpu, from its begin to ts, named after the thread (comm: NULL its record's).
 */
static void run_slice(struct ex *x, int64_t cpu, int64_t begin, int64_t ts, int64_t tid,
		      const char *comm, int unfinished)
{
	struct ex_thread *t = thread_get(x, tid, NULL);
	int64_t track = cpu_track(x, cpu);
	struct ex_out *o = &x->out;

	head(x, "X", EX_CPU_PID, track, begin);
	ex_puts(o, ",\"dur\":");
	ex_us(o, ts - begin);
	if (!comm || !*comm)
		comm = t && t->name[0] ? t->name : "?";
	put_name(x, comm);
	ex_puts(o, ",\"cat\":\"sched\",\"args\":{\"tid\":");
	ex_int(o, tid);
	if (t && t->pid >= 0) {
		ex_puts(o, ",\"pid\":");
		ex_int(o, t->pid);
	}
	if (unfinished)
		ex_puts(o, ",\"unfinished\":true");
	ex_puts(o, "}}");
}

static void on_switch(struct ex *x, const struct trax_event *ev, const struct kev_class *c,
		      int64_t ts, int64_t pkt_cpu)
{
	int64_t cpu, prev, next;
	struct ex_cpu *k;

	if (kev_int(ev, c, KR_CPU_ID, &cpu))
		cpu = pkt_cpu;
	if (kev_int(ev, c, KR_PREV_TID, &prev) || kev_int(ev, c, KR_NEXT_TID, &next) ||
	    !(k = cpu_get(x, cpu)))
		return;
	if (!k->seen) {
		k->seen = 1;
		k->first_ts = ts;
	}
	if (k->running)
		run_slice(x, cpu, k->begin, ts, k->tid,
			  k->tid == prev ? kev_str(ev, c, KR_PREV_COMM) : NULL, 0);
	else if (!k->switched && prev != 0 && ts > k->first_ts)
		/* the CPU's first switch: prev ran since the CPU's first event at least */
		run_slice(x, cpu, k->first_ts, ts, prev, kev_str(ev, c, KR_PREV_COMM), 0);
	k->switched = 1;
	k->running = next != 0;
	k->tid = next;
	k->begin = ts;
}

/* A counter value (C) on track pid: name is name1 + name2. */
static void counter(struct ex *x, int64_t pid, int64_t ts, const char *name1, const char *name2,
		    const struct trax_field *f)
{
	struct ex_out *o = &x->out;
	char name[256];

	if (!f)
		return;
	snprintf(name, sizeof(name), "%s%s", name1, name2);
	begin_event(x);
	ex_puts(o, "\"ph\":\"C\",\"pid\":");
	ex_int(o, pid);
	ex_puts(o, ",\"ts\":");
	ex_us(o, ts - x->origin);
	put_name(x, name);
	ex_puts(o, ",\"args\":{\"value\":");
	ex_field(o, f);
	ex_puts(o, "}}");
}

/* ---- event classes ---- */

static const enum trax_scope scopes[] = {TRAX_SCOPE_PAYLOAD, TRAX_SCOPE_EVENT_CONTEXT,
					 TRAX_SCOPE_STREAM_EVENT_CONTEXT,
					 TRAX_SCOPE_PACKET_CONTEXT};

static struct kev_ref field_ref(const struct trax_event *ev, const char *name)
{
	return kev_find(ev, name, scopes, sizeof(scopes) / sizeof(scopes[0]));
}

static const struct trax_field *ref_field(const struct trax_event *ev, struct kev_ref ref)
{
	return ref.scope < 0 ? NULL
			     : trax_event_field_by_index(ev, (enum trax_scope)ref.scope, ref.index);
}

static void class_init(struct ex *x, struct ex_class *e, const struct kev_class *c,
		       const struct trax_event *ev)
{
	static const enum trax_scope ctx[] = {TRAX_SCOPE_EVENT_CONTEXT,
					      TRAX_SCOPE_STREAM_EVENT_CONTEXT};
	const char *domain = trax_reader_env_string(x->r, c->trace, "domain");

	e->init = 1;
	e->env_pid = -1;
	e->role = c->kind == KEV_SCHED_SWITCH	 ? ER_SWITCH
		  : c->kind == KEV_SYSCALL_ENTRY ? ER_SYS_ENTRY
		  : c->kind == KEV_SYSCALL_EXIT	 ? ER_SYS_EXIT
						 : ER_OTHER;
	for (size_t i = 0; i < x->o->nspans; i++) {
		if (!strcmp(c->name, x->span_b[i])) {
			e->role = ER_SPAN_BEGIN;
			e->kind = (uint16_t)(1 + i);
			break;
		}
		if (!strcmp(c->name, x->span_e[i])) {
			e->role = ER_SPAN_END;
			e->kind = (uint16_t)(1 + i);
			break;
		}
	}
	for (size_t i = 0; i < x->o->ncounters && e->nctr < EX_CTR_MAX; i++)
		if (!strcmp(c->name, x->ctr_ev[i])) {
			e->ctr_ref[e->nctr] = field_ref(ev, x->ctr_field[i]);
			if (e->ctr_ref[e->nctr].scope >= 0) {
				e->ctr[e->nctr++] = (uint16_t)i;
				x->ctr_found[i] = 1;
			}
		}
	if (domain && !strcmp(domain, "ust")) {
		int64_t v;

		if (!trax_reader_env_int(x->r, c->trace, "vpid", &v))
			e->env_pid = v;
		e->env_procname = trax_reader_env_string(x->r, c->trace, "procname");
	}
	for (size_t s = 0; s < 2; s++) {
		size_t n = trax_event_field_count(ev, ctx[s]);

		for (size_t i = 0; i < n && i <= UINT16_MAX && e->nperf < EX_PERF_MAX; i++) {
			const char *fn = trax_field_name(trax_event_field_by_index(ev, ctx[s], i));

			if (!fn || strncmp(fn, "perf_", 5))
				continue;
			if (!(e->perf_name[e->nperf] = strdup(fn))) {
				x->oom = 1;
				return;
			}
			e->perf[e->nperf].scope = (int8_t)ctx[s];
			e->perf[e->nperf].index = (uint16_t)i;
			e->nperf++;
		}
	}
}

static struct ex_class *class_of(struct ex *x, const struct kev_class *c,
				 const struct trax_event *ev)
{
	if (c->id >= x->nclasses) {
		size_t n = x->nclasses ? x->nclasses * 2 : 64;
		struct ex_class *v;

		while (n <= c->id)
			n *= 2;
		if (!(v = realloc(x->classes, n * sizeof(*v)))) {
			x->oom = 1;
			return NULL;
		}
		memset(v + x->nclasses, 0, (n - x->nclasses) * sizeof(*v));
		x->classes = v;
		x->nclasses = n;
	}
	if (!x->classes[c->id].init)
		class_init(x, &x->classes[c->id], c, ev);
	return &x->classes[c->id];
}

/* ---- the events ---- */

/* After the system state took a sched_* or state dump event: what it learnt of its threads. */
static void sync_event_threads(struct ex *x, const struct trax_event *ev, const struct kev_class *c)
{
	static const enum kev_role roles[] = {KR_PREV_TID,   KR_NEXT_TID, KR_CHILD_TID,
					      KR_PARENT_PID, KR_TID,	  KR_PID};

	for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++) {
		int64_t tid;

		if (!kev_int(ev, c, roles[i], &tid) && tid >= 0)
			sync_thread(x, tid);
	}
	if (c->kind == KEV_SCHED_SWITCH) {
		/* (the state takes the next thread's comm only) */
		int64_t tid;
		struct ex_thread *t;

		if (!kev_int(ev, c, KR_PREV_TID, &tid) && (t = thread_get(x, tid, NULL)))
			thread_name(t, kev_str(ev, c, KR_PREV_COMM));
	} else if (c->kind == KEV_SCHED_EXEC || c->kind == KEV_SCHED_FORK) {
		/* a new program's name, a new thread's */
		int64_t tid;
		struct ex_thread *t;
		struct kthread *k;

		if (!kev_int(ev, c, c->kind == KEV_SCHED_EXEC ? KR_TID : KR_CHILD_TID, &tid) &&
		    (k = kstate_thread(&x->st, tid)) && (t = thread_get(x, tid, NULL)))
			thread_rename(t, k->comm);
	}
}

static int on_event(void *ctx, const struct trax_event *ev)
{
	struct ex *x = ctx;
	int64_t ts = trax_event_has_timestamp(ev) ? trax_event_timestamp_ns(ev) : x->last_ts;
	int64_t tid = -1, pid = -1, cpu = -1, track_pid, track_tid;
	const struct kev_class *c = kev_lookup(&x->kev, ev);
	struct ex_class *e;
	struct ex_thread *t = NULL;
	int created = 0;

	if (!c || !(e = class_of(x, c, ev)))
		return 2;
	if (!x->has_origin) {
		x->has_origin = 1;
		x->origin = x->o->absolute ? 0 : ts;
	}
	x->last_ts = ts;
	if (!kev_int(ev, c, KR_PKT_CPU_ID, &cpu)) {
		struct ex_cpu *k = cpu_get(x, cpu);

		if (k && !k->seen) {
			k->seen = 1;
			k->first_ts = ts;
		}
	}
	/* who: contexts, else the CPU's current thread (before this event changes it), else env */
	if (kev_int(ev, c, KR_CTX_TID, &tid) && cpu >= 0 && x->st.nthreads)
		tid = kstate_current(&x->st, cpu);
	if (kev_int(ev, c, KR_CTX_PID, &pid))
		pid = -1;
	if (tid < 0 && e->env_pid >= 0)
		tid = pid = e->env_pid;
	if (c->kind != KEV_OTHER && c->kind != KEV_SYSCALL_ENTRY && c->kind != KEV_SYSCALL_EXIT) {
		if (kstate_event(&x->st, ev, c, ts))
			return 2;
		sync_event_threads(x, ev, c);
	}
	if (tid >= 0 && !(t = thread_get(x, tid, &created)))
		return 2;
	if (t) {
		const char *procname;

		if (pid >= 0)
			t->pid = pid;
		if (!t->name[0]) {
			procname = kev_str(ev, c, KR_CTX_PROCNAME);
			thread_name(t, procname ? procname : e->env_procname);
		}
	}
	switch (e->role) {
	case ER_SWITCH:
		on_switch(x, ev, c, ts, cpu);
		goto counters;
	case ER_SYS_ENTRY:
		if (t && !slice_begin(x, t, 0, c->syscall, "syscall", ts, ev))
			goto counters;
		break;
	case ER_SYS_EXIT:
		if (t && !slice_end(x, t, 0, ts, ev))
			goto counters;
		break;
	case ER_SPAN_BEGIN:
		if (t && !slice_begin(x, t, e->kind, x->span_b[e->kind - 1], "span", ts, ev))
			goto counters;
		break;
	case ER_SPAN_END:
		if (t && !slice_end(x, t, e->kind, ts, ev))
			goto counters;
		break;
	default:
		break;
	}
	/* an instant on its thread's track, else its CPU's */
	if (t) {
		track_pid = thread_track(x, t);
		track_tid = t->tid;
	} else if (cpu >= 0) {
		track_pid = EX_CPU_PID;
		track_tid = cpu_track(x, cpu);
	} else {
		track_pid = EX_CPU_PID;
		track_tid = other_track(x);
	}
	instant(x, track_pid, track_tid, ts, c, ev);
counters:
	for (unsigned i = 0; i < e->nctr; i++)
		counter(x, t ? thread_track(x, t) : EX_CPU_PID, ts, x->o->counters[e->ctr[i]], "",
			ref_field(ev, e->ctr_ref[i]));
	for (unsigned i = 0; i < e->nperf; i++) {
		char prefix[48];

		if (!strncmp(e->perf_name[i], "perf_cpu_", 9) && cpu >= 0) {
			cpus_process(x);
			snprintf(prefix, sizeof(prefix), "CPU %lld ", (long long)cpu);
			counter(x, EX_CPU_PID, ts, prefix, e->perf_name[i],
				ref_field(ev, e->perf[i]));
		} else if (t) {
			snprintf(prefix, sizeof(prefix), "tid %lld ", (long long)t->tid);
			counter(x, thread_track(x, t), ts, prefix, e->perf_name[i],
				ref_field(ev, e->perf[i]));
		}
	}
	return x->oom ? 2 : 0;
}

/* At the end: the slices still open end at the last event. */
static void close_all(struct ex *x)
{
	for (size_t i = 0; i < x->ncpus; i++)
		if (x->cpus[i].running)
			run_slice(x, (int64_t)i, x->cpus[i].begin, x->last_ts, x->cpus[i].tid, NULL,
				  1);
	for (size_t i = 0; i < x->threads.n; i++) {
		close_to(x, an_recs_at(&x->threads, i), 0, x->last_ts);
	}
}

/* --span and --counter: their names split. */
static int parse_options(struct ex *x, char *err, size_t errlen)
{
	const struct ex_options *o = x->o;

	x->span_b = calloc(o->nspans + 1, sizeof(char *));
	x->span_e = calloc(o->nspans + 1, sizeof(char *));
	x->ctr_ev = calloc(o->ncounters + 1, sizeof(char *));
	x->ctr_field = calloc(o->ncounters + 1, sizeof(char *));
	x->ctr_found = calloc(o->ncounters + 1, 1);
	if (!x->span_b || !x->span_e || !x->ctr_ev || !x->ctr_field || !x->ctr_found)
		return snprintf(err, errlen, "out of memory"), AN_FAIL;
	for (size_t i = 0; i < o->nspans; i++) {
		const char *comma = strchr(o->spans[i], ',');

		if (!comma || comma == o->spans[i] || !comma[1] || strchr(comma + 1, ','))
			return snprintf(err, errlen,
					"--span %s: BEGIN,END (two event names) expected",
					o->spans[i]),
			       AN_USAGE;
		x->span_b[i] = strndup(o->spans[i], (size_t)(comma - o->spans[i]));
		x->span_e[i] = strdup(comma + 1);
		if (!x->span_b[i] || !x->span_e[i])
			return snprintf(err, errlen, "out of memory"), AN_FAIL;
	}
	for (size_t i = 0; i < o->ncounters; i++) {
		const char *dot = strrchr(o->counters[i], '.');

		if (!dot || dot == o->counters[i] || !dot[1])
			return snprintf(err, errlen, "--counter %s: NAME.FIELD expected",
					o->counters[i]),
			       AN_USAGE;
		x->ctr_ev[i] = strndup(o->counters[i], (size_t)(dot - o->counters[i]));
		x->ctr_field[i] = strdup(dot + 1);
		if (!x->ctr_ev[i] || !x->ctr_field[i])
			return snprintf(err, errlen, "out of memory"), AN_FAIL;
	}
	return AN_OK;
}

static void free_strs(char **v, size_t n)
{
	if (v)
		for (size_t i = 0; i < n; i++)
			free(v[i]);
	free(v);
}

static void ex_free(struct ex *x)
{
	for (size_t i = 0; i < x->nclasses; i++)
		for (unsigned k = 0; k < x->classes[i].nperf; k++)
			free(x->classes[i].perf_name[k]);
	free(x->classes);
	an_recs_free(&x->threads);
	free(x->procs);
	free(x->cpus);
	an_idmap_free(&x->pmap);
	free_strs(x->span_b, x->o->nspans);
	free_strs(x->span_e, x->o->nspans);
	free_strs(x->ctr_ev, x->o->ncounters);
	free_strs(x->ctr_field, x->o->ncounters);
	free(x->ctr_found);
	kstate_free(&x->st);
	kev_free(&x->kev);
	trax_reader_close(x->r);
}

int ex_chrome(const struct ex_options *o, const char *const *paths, size_t npaths, FILE *out,
	      char *err, size_t errlen)
{
	struct ex x;
	int status, st;

	memset(&x, 0, sizeof(x));
	x.o = o;
	err[0] = 0;
	kev_init(&x.kev);
	kstate_init(&x.st, NULL, NULL);
	an_recs_init(&x.threads, sizeof(struct ex_thread));
	an_idmap_init(&x.pmap);
	if ((status = parse_options(&x, err, errlen)) != AN_OK)
		goto done;
	x.r = trax_reader_open(paths, npaths);
	if (!x.r) {
		snprintf(err, errlen, "%s", trax_reader_error(NULL));
		status = AN_FAIL;
		goto done;
	}
	if (ex_out_init(&x.out, out)) {
		snprintf(err, errlen, "out of memory");
		status = AN_FAIL;
		goto done;
	}
	ex_puts(&x.out, "{\"traceEvents\":[");
	st = trax_reader_each(x.r, on_event, &x);
	if (st == 0 || st == 1)
		close_all(&x);
	ex_puts(&x.out,
		"\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"producer\":\"trax export\","
		"\"time_origin_ns\":");
	ex_int(&x.out, x.origin);
	ex_puts(&x.out, ",\"cpu_pid\":");
	ex_int(&x.out, EX_CPU_PID);
	ex_puts(&x.out, "}}\n");
	status = AN_OK;
	if (st < 0) {
		snprintf(err, errlen, "%s", trax_reader_error(x.r));
		status = AN_FAIL;
	} else if (st == 2 || x.oom) {
		snprintf(err, errlen, "out of memory");
		status = AN_FAIL;
	}
	if (ex_out_close(&x.out) && status == AN_OK) {
		snprintf(err, errlen, "cannot write the output: %s", strerror(errno));
		status = AN_FAIL;
	}
	for (size_t i = 0; status == AN_OK && i < o->ncounters; i++)
		if (!x.ctr_found[i])
			fprintf(stderr, "Warning: --counter %s: no event %s with a field %s\n",
				o->counters[i], x.ctr_ev[i], x.ctr_field[i]);
done:
	ex_free(&x);
	return status;
}
