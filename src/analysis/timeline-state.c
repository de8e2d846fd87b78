/*
 * timeline-state.c - `trax timeline`'s analysis: the state of every thread
 * and CPU over time, as LTTV's control-flow and resource views computed it
 * (running in user mode / in a system call / in an IRQ or softirq,
 * runnable, blocked, forked, exiting, exited; a CPU idle, or running a
 * thread, an IRQ, a softirq), user-space events as marks, spans between
 * pairs of events, and the `stats` analysis beside it for the page's
 * tables. Event classes are classified once (a table by kev class id);
 * per event: a switch on the kind, no string work.
 *
 * A minimal state machine of its own (not kflow.c's, built in parallel):
 * it can be unified with it later.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/table.h"
#include "analysis/timeline-impl.h"

enum tl_kind {
	TK_UNSET = 0,
	TK_OTHER,
	TK_SWITCH,
	TK_WAKEUP,
	TK_FORK,
	TK_EXIT,
	TK_FREE,
	TK_SYS_ENTRY,
	TK_SYS_EXIT,
	TK_IRQ_ENTRY,
	TK_IRQ_EXIT,
	TK_SOFTIRQ_ENTRY,
	TK_SOFTIRQ_EXIT,
	TK_MARK, /* an event of a user-space trace */
};

struct tl_class {
	uint8_t kind;
	int8_t prev_state_scope; /* sched_switch's prev_state, -1: none */
	uint16_t prev_state_index;
	uint32_t name; /* string ids */
	uint32_t sys;
	int span_begin, span_end; /* pair index + 1, 0: none */
};

struct timeline {
	struct an_run *run;
	const struct an_timeline_options *to;
	struct tl_model m;
	struct tl_class *classes; /* by kev class id */
	size_t nclasses;
	int *user_trace; /* by trace index: 1 user space, 0 kernel, -1 not looked at */
	size_t ntraces;
	struct an_idmap irq_names, softirq_names; /* number -> string id */
	void *stats;
	struct timespec start;
};

/* The kernel's softirq names (include/linux/interrupt.h, softirq_to_name). */
static const char *const softirq_names[] = {"HI",	"TIMER",   "NET_TX", "NET_RX",	"BLOCK",
					    "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU"};

static int is_user_trace(struct timeline *tl, size_t trace)
{
	if (trace >= tl->ntraces) {
		size_t n = trace + 1;
		int *v = realloc(tl->user_trace, n * sizeof(*v));

		if (!v)
			return 0;
		for (size_t i = tl->ntraces; i < n; i++)
			v[i] = -1;
		tl->user_trace = v;
		tl->ntraces = n;
	}
	if (tl->user_trace[trace] < 0) {
		const char *d = trax_reader_env_string(tl->run->r, trace, "domain");

		tl->user_trace[trace] = !(d && !strcmp(d, "kernel"));
	}
	return tl->user_trace[trace];
}

static enum tl_kind kind_of(const char *name, enum kev_kind k)
{
	switch (k) {
	case KEV_SCHED_SWITCH:
		return TK_SWITCH;
	case KEV_SCHED_WAKEUP:
		return TK_WAKEUP;
	case KEV_SCHED_FORK:
		return TK_FORK;
	case KEV_SCHED_EXIT:
		return TK_EXIT;
	case KEV_SCHED_FREE:
		return TK_FREE;
	case KEV_SYSCALL_ENTRY:
		return TK_SYS_ENTRY;
	case KEV_SYSCALL_EXIT:
		return TK_SYS_EXIT;
	case KEV_IRQ_ENTRY:
		return TK_IRQ_ENTRY;
	case KEV_IRQ_EXIT:
		return TK_IRQ_EXIT;
	case KEV_SOFTIRQ_ENTRY:
		return TK_SOFTIRQ_ENTRY;
	case KEV_SOFTIRQ_EXIT:
		return TK_SOFTIRQ_EXIT;
	default:
		break;
	}
	/* LTTng-modules' names (kev keeps lttng-analyses' softirq_* only) */
	if (!strcmp(name, "irq_softirq_entry"))
		return TK_SOFTIRQ_ENTRY;
	if (!strcmp(name, "irq_softirq_exit"))
		return TK_SOFTIRQ_EXIT;
	return TK_OTHER;
}

static struct kev_ref payload_field(const struct trax_event *ev, const char *name)
{
	struct kev_ref ref = {-1, 0};
	size_t n = trax_event_field_count(ev, TRAX_SCOPE_PAYLOAD);

	for (size_t i = 0; i < n && i <= UINT16_MAX; i++) {
		const char *fn =
		    trax_field_name(trax_event_field_by_index(ev, TRAX_SCOPE_PAYLOAD, i));

		if (fn && !strcmp(fn, name)) {
			ref.scope = TRAX_SCOPE_PAYLOAD;
			ref.index = (uint16_t)i;
			break;
		}
	}
	return ref;
}

/* The class's entry, filled at its first event. */
static struct tl_class *class_of(struct timeline *tl, const struct trax_event *ev,
				 const struct kev_class *c)
{
	struct tl_class *k;

	if (c->id >= tl->nclasses) {
		size_t n = tl->nclasses ? tl->nclasses : 64;
		struct tl_class *v;

		while (n <= c->id)
			n *= 2;
		v = realloc(tl->classes, n * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + tl->nclasses, 0, (n - tl->nclasses) * sizeof(*v));
		tl->classes = v;
		tl->nclasses = n;
	}
	k = &tl->classes[c->id];
	if (k->kind != TK_UNSET)
		return k;
	k->kind = is_user_trace(tl, c->trace) ? TK_MARK : kind_of(c->name, c->kind);
	k->name = tl_intern(&tl->m.str, c->name);
	k->sys = c->syscall ? tl_intern(&tl->m.str, c->syscall) : 0;
	{
		struct kev_ref r = payload_field(ev, "prev_state");

		k->prev_state_scope = r.scope;
		k->prev_state_index = r.index;
	}
	for (size_t i = 0; i < tl->to->nspans; i++) {
		if (tl->to->spans[i].begin && !strcmp(tl->to->spans[i].begin, c->name))
			k->span_begin = (int)i + 1;
		if (tl->to->spans[i].end && !strcmp(tl->to->spans[i].end, c->name))
			k->span_end = (int)i + 1;
	}
	if (k->name == UINT32_MAX || k->sys == UINT32_MAX)
		tl->m.failed = 1;
	return k;
}

static int64_t get(const struct trax_event *ev, const struct kev_class *c, enum kev_role r,
		   int64_t dflt)
{
	int64_t v;

	return kev_int(ev, c, r, &v) ? dflt : v;
}

/* The CPU row's state: its IRQ, else its thread's mode, else idle. */
static void cpu_refresh(struct tl_model *m, struct tl_row *cpu, int64_t t)
{
	if (cpu->nirq > 0) {
		int i = cpu->nirq <= TL_IRQ_DEPTH ? cpu->nirq - 1 : TL_IRQ_DEPTH - 1;

		tl_set(m, cpu, t, cpu->irq[i], cpu->irq_detail[i]);
	} else if (cpu->current >= 0) {
		const struct tl_row *th = m->rows[cpu->current];

		tl_set(m, cpu, t,
		       th->exited   ? TL_EXIT
		       : th->in_sys ? TL_SYSCALL
				    : TL_USER,
		       (uint32_t)cpu->current + 1);
	} else
		tl_set(m, cpu, t, cpu->cpu_known ? TL_IDLE : TL_UNKNOWN, 0);
}

/* A thread row's state from what is known of it (and of the CPU it runs on). */
static void thread_refresh(struct tl_model *m, struct tl_row *th, int64_t t)
{
	struct tl_row *cpu = NULL;
	enum tl_state s;
	uint32_t detail = 0;

	if (th->on_cpu >= 0) {
		uint32_t i = an_idmap_get(&m->cpu_rows, (uint64_t)th->on_cpu);

		cpu = i == AN_IDMAP_NONE ? NULL : m->rows[i];
	}
	if (!th->known)
		s = TL_UNKNOWN;
	else if (cpu && cpu->nirq > 0) {
		int i = cpu->nirq <= TL_IRQ_DEPTH ? cpu->nirq - 1 : TL_IRQ_DEPTH - 1;

		s = cpu->irq[i];
		detail = cpu->irq_detail[i];
	} else if (th->on_cpu >= 0) {
		s = th->exited ? TL_EXIT : th->in_sys ? TL_SYSCALL : TL_USER;
		if (s == TL_SYSCALL)
			detail = th->sys_name;
	} else if (th->exited)
		s = TL_ZOMBIE;
	else if (th->forked)
		s = TL_WAIT_FORK;
	else if (th->blocked) {
		s = TL_WAIT;
		if (th->in_sys)
			detail = th->sys_name;
	} else
		s = TL_WAIT_CPU;
	tl_set(m, th, t, s, detail);
	if (cpu)
		cpu_refresh(m, cpu, t);
}

static size_t row_index(struct tl_model *m, const struct tl_row *r)
{
	return (size_t)an_idmap_get(&m->thread_rows, (uint64_t)r->id);
}

/* The thread an event of CPU cpu is about: its tid context, else the CPU's current thread. */
static struct tl_row *event_thread(struct timeline *tl, const struct trax_event *ev,
				   const struct kev_class *c, struct tl_row *cpu)
{
	struct tl_model *m = &tl->m;
	int64_t tid;

	if (kev_int(ev, c, KR_CTX_TID, &tid) == 0) {
		struct tl_row *th;

		if (tid == 0)
			return NULL;
		th = tl_thread_row(m, tid);
		/* a thread seen running before its first sched_switch */
		if (th && cpu && th->on_cpu < 0 && cpu->current < 0 && !th->known) {
			th->on_cpu = cpu->id;
			th->known = 1;
			cpu->current = (int64_t)row_index(m, th);
			cpu->cpu_known = 1;
		}
		return th;
	}
	return cpu && cpu->current >= 0 ? m->rows[cpu->current] : NULL;
}

static void on_switch(struct timeline *tl, const struct trax_event *ev, const struct kev_class *c,
		      const struct tl_class *k, int64_t ts)
{
	struct tl_model *m = &tl->m;
	int64_t cpu_id = get(ev, c, KR_CPU_ID, 0), prev = get(ev, c, KR_PREV_TID, 0);
	int64_t next = get(ev, c, KR_NEXT_TID, 0), state = 0;
	struct tl_row *cpu = tl_cpu_row(m, cpu_id), *p = NULL, *n = NULL;

	if (!cpu)
		return;
	if (k->prev_state_scope >= 0) {
		const struct trax_field *f = trax_event_field_by_index(
		    ev, (enum trax_scope)k->prev_state_scope, k->prev_state_index);

		if (!f || trax_field_int(f, &state)) {
			uint64_t u = 0;

			if (f && trax_field_uint(f, &u) == 0)
				state = (int64_t)u;
		}
	}
	cpu->cpu_known = 1;
	if (prev != 0 && (p = tl_thread_row(m, prev))) {
		p->on_cpu = -1;
		p->known = 1;
		/* TASK_RUNNING (0), or only the preemption mark above the state bits: runnable */
		p->blocked = (state & 0xff) != 0;
	}
	if (next != 0 && (n = tl_thread_row(m, next))) {
		/* (a thread found running elsewhere: its old CPU row is idle from now) */
		n->on_cpu = cpu_id;
		n->known = 1;
		n->blocked = 0;
		n->forked = 0;
	}
	cpu->current = n ? (int64_t)row_index(m, n) : -1;
	if (p)
		thread_refresh(m, p, ts);
	if (n)
		thread_refresh(m, n, ts);
	cpu_refresh(m, cpu, ts);
}

static uint32_t irq_name(struct timeline *tl, const struct trax_event *ev,
			 const struct kev_class *c, int soft)
{
	struct an_idmap *map = soft ? &tl->softirq_names : &tl->irq_names;
	int64_t n = get(ev, c, soft ? KR_VEC : KR_IRQ, -1);
	uint32_t id = an_idmap_get(map, (uint64_t)n);
	char buf[160];

	if (id != AN_IDMAP_NONE)
		return id;
	if (soft)
		snprintf(buf, sizeof(buf), "softirq %lld%s%s", (long long)n,
			 n >= 0 && n < 10 ? " " : "", n >= 0 && n < 10 ? softirq_names[n] : "");
	else {
		const char *name = kev_str(ev, c, KR_NAME);

		snprintf(buf, sizeof(buf), "irq %lld%s%.100s", (long long)n, name ? " " : "",
			 name ? name : "");
	}
	id = tl_intern(&tl->m.str, buf);
	if (id == UINT32_MAX || an_idmap_put(map, (uint64_t)n, id)) {
		tl->m.failed = 1;
		return 0;
	}
	return id;
}

static void span_event(struct timeline *tl, struct tl_row *r, const struct tl_class *k, int64_t ts)
{
	struct tl_model *m = &tl->m;

	if (k->span_end) {
		size_t i = r->nopen;

		while (i > 0 && r->open[i - 1].pair != (uint32_t)(k->span_end - 1))
			i--;
		if (i == 0)
			m->unmatched_ends++;
		else {
			struct tl_span s = r->open[i - 1];

			/* spans begun inside it and not ended end with it */
			r->nopen = i - 1;
			if (r->nspans == r->capspans) {
				size_t cap = r->capspans ? r->capspans * 2 : 16;
				struct tl_span *v = realloc(r->spans, cap * sizeof(*v));

				if (!v) {
					m->failed = 1;
					return;
				}
				r->spans = v;
				r->capspans = cap;
			}
			s.end = ts - m->t0;
			r->spans[r->nspans++] = s;
			m->spans++;
		}
	}
	if (k->span_begin) {
		if (r->nopen == r->capopen) {
			size_t cap = r->capopen ? r->capopen * 2 : 8;
			struct tl_span *v = realloc(r->open, cap * sizeof(*v));

			if (!v) {
				m->failed = 1;
				return;
			}
			r->open = v;
			r->capopen = cap;
		}
		r->open[r->nopen].begin = ts - m->t0;
		r->open[r->nopen].end = 0;
		r->open[r->nopen].name = k->name;
		r->open[r->nopen].depth = (uint32_t)r->nopen;
		r->open[r->nopen].pair = (uint32_t)(k->span_begin - 1);
		r->nopen++;
	}
}

/* An event's payload as "name = value, ..." (scalars; "..." for the rest), interned. */
static uint32_t mark_args(struct timeline *tl, const struct trax_event *ev)
{
	size_t n = trax_event_field_count(ev, TRAX_SCOPE_PAYLOAD), len = 0;
	char buf[240];
	uint32_t id;

	buf[0] = 0;
	for (size_t i = 0; i < n && len + 40 < sizeof(buf); i++) {
		const struct trax_field *f = trax_event_field_by_index(ev, TRAX_SCOPE_PAYLOAD, i);
		const char *name = trax_field_name(f), *str;
		int64_t v;
		uint64_t u;
		double d;
		int w;

		switch (trax_field_kind(f)) {
		case TRAX_FIELD_SIGNED:
		case TRAX_FIELD_UNSIGNED:
		case TRAX_FIELD_ENUM: /* (an enum's integer: signed or not) */
			u = 0;
			if (trax_field_int(f, &v) == 0)
				w = snprintf(buf + len, sizeof(buf) - len, "%s%s = %lld",
					     i ? ", " : "", name ? name : "?", (long long)v);
			else {
				trax_field_uint(f, &u);
				w = snprintf(buf + len, sizeof(buf) - len, "%s%s = %llu",
					     i ? ", " : "", name ? name : "?",
					     (unsigned long long)u);
			}
			break;
		case TRAX_FIELD_FLOAT:
			d = 0;
			trax_field_double(f, &d);
			w = snprintf(buf + len, sizeof(buf) - len, "%s%s = %g", i ? ", " : "",
				     name ? name : "?", d);
			break;
		case TRAX_FIELD_STRING:
			str = trax_field_string(f, NULL);
			w = snprintf(buf + len, sizeof(buf) - len, "%s%s = \"%.60s\"",
				     i ? ", " : "", name ? name : "?", str ? str : "");
			break;
		default:
			w = snprintf(buf + len, sizeof(buf) - len, "%s%s = ...", i ? ", " : "",
				     name ? name : "?");
			break;
		}
		if (w < 0 || (size_t)w >= sizeof(buf) - len)
			break;
		len += (size_t)w;
	}
	if (!buf[0])
		return 0;
	id = tl_intern(&tl->m.str, buf);
	return id == UINT32_MAX ? 0 : id;
}

/* A stream row's name: the end of its trace's path, its stream class and id. */
static uint32_t stream_name(struct timeline *tl, const struct trax_event *ev)
{
	const char *path = trax_reader_trace_path(tl->run->r, trax_event_trace_index(ev));
	const char *tail = path ? path + strlen(path) : "";
	char buf[200];
	uint32_t id;
	int slashes = 0;

	/* the last two components: ".../pid/10352", "kernel", "ust/uid/0/64-bit" shortened */
	while (path && tail > path && slashes < 2)
		if (*--tail == '/')
			slashes++;
	if (*tail == '/')
		tail++;
	snprintf(buf, sizeof(buf), "%.120s %llu:%llu", tail,
		 (unsigned long long)trax_event_stream_class_id(ev),
		 (unsigned long long)trax_event_stream_id(ev));
	id = tl_intern(&tl->m.str, buf);
	return id == UINT32_MAX ? 0 : id;
}

static int on_event(void *an, const struct trax_event *ev, const struct kev_class *c, int64_t ts)
{
	struct timeline *tl = an;
	struct tl_model *m = &tl->m;
	struct tl_class *k = class_of(tl, ev, c);
	struct tl_row *cpu = NULL, *th = NULL;
	int64_t cpu_id;

	if (!k)
		return -1;
	if (an_stats_def.event(tl->stats, ev, c, ts))
		return -1;
	if (!m->started) {
		m->started = 1;
		m->t0 = ts;
	}
	m->t1 = ts;
	m->events++;
	if (k->kind == TK_OTHER && !k->span_begin && !k->span_end)
		return m->failed ? -1 : 0;
	if (k->kind == TK_MARK) {
		int64_t tid;

		if (kev_int(ev, c, KR_CTX_TID, &tid) == 0) {
			th = tl_thread_row(m, tid);
			if (th && !th->comm) {
				const char *pn = kev_str(ev, c, KR_CTX_PROCNAME);
				int64_t pid;

				if (pn)
					th->comm = tl_intern(&m->str, pn);
				if (th->comm == UINT32_MAX)
					th->comm = 0;
				if (kev_int(ev, c, KR_CTX_PID, &pid) == 0)
					th->pid = pid;
			}
		} else {
			th = tl_stream_row(m, ((uint64_t)trax_event_trace_index(ev) << 48) ^
						  (trax_event_stream_class_id(ev) << 40) ^
						  trax_event_stream_id(ev));
			if (th && !th->comm)
				th->comm = stream_name(tl, ev);
		}
		if (th) {
			tl_add_mark(m, th, ts, k->name,
				    m->marks < TL_MARK_ARGS_MAX ? mark_args(tl, ev) : 0);
			span_event(tl, th, k, ts);
		}
		return m->failed ? -1 : 0;
	}
	cpu_id = get(ev, c, KR_CPU_ID, -1);
	if (cpu_id >= 0 && cpu_id < (1 << 20))
		cpu = tl_cpu_row(m, cpu_id);
	switch (k->kind) {
	case TK_SWITCH:
		on_switch(tl, ev, c, k, ts);
		break;
	case TK_WAKEUP:
		if ((th = tl_thread_row(m, get(ev, c, KR_TID, 0))) && th->id != 0 &&
		    th->on_cpu < 0) {
			th->known = 1;
			th->blocked = 0;
			thread_refresh(m, th, ts);
		}
		break;
	case TK_FORK:
		if ((th = tl_thread_row(m, get(ev, c, KR_CHILD_TID, 0))) && th->id != 0) {
			th->pid = get(ev, c, KR_CHILD_PID, -1);
			th->known = 1;
			th->forked = 1;
			th->exited = 0;
			th->in_sys = 0;
			thread_refresh(m, th, ts);
		}
		break;
	case TK_EXIT:
		if ((th = tl_thread_row(m, get(ev, c, KR_TID, 0))) && th->id != 0) {
			th->exited = 1;
			th->known = 1;
			thread_refresh(m, th, ts);
		}
		break;
	case TK_FREE:
		if ((th = tl_thread_row(m, get(ev, c, KR_TID, 0))) && th->id != 0 &&
		    th->on_cpu < 0) {
			th->known = 0;
			th->exited = 0;
			th->in_sys = 0;
			tl_set(m, th, ts, TL_UNKNOWN, 0);
		}
		break;
	case TK_SYS_ENTRY:
	case TK_SYS_EXIT:
		if ((th = event_thread(tl, ev, c, cpu))) {
			th->known = 1;
			th->in_sys = k->kind == TK_SYS_ENTRY;
			th->sys_name = k->sys;
			thread_refresh(m, th, ts);
		}
		break;
	case TK_IRQ_ENTRY:
	case TK_SOFTIRQ_ENTRY:
		if (cpu) {
			if (cpu->nirq < TL_IRQ_DEPTH) {
				int soft = k->kind == TK_SOFTIRQ_ENTRY;

				cpu->irq[cpu->nirq] = soft ? TL_SOFTIRQ : TL_IRQ;
				cpu->irq_detail[cpu->nirq] = irq_name(tl, ev, c, soft);
			}
			cpu->nirq++;
			cpu->cpu_known = 1;
			if (cpu->current >= 0)
				thread_refresh(m, m->rows[cpu->current], ts);
			cpu_refresh(m, cpu, ts);
		}
		break;
	case TK_IRQ_EXIT:
	case TK_SOFTIRQ_EXIT:
		if (cpu && cpu->nirq > 0) {
			cpu->nirq--;
			if (cpu->current >= 0)
				thread_refresh(m, m->rows[cpu->current], ts);
			cpu_refresh(m, cpu, ts);
		}
		break;
	default:
		break;
	}
	if (k->span_begin || k->span_end) {
		if (!th)
			th = event_thread(tl, ev, c, cpu);
		if (th)
			span_event(tl, th, k, ts);
	}
	return m->failed ? -1 : 0;
}

static void *create(struct an_run *run)
{
	struct timeline *tl = calloc(1, sizeof(*tl));

	if (!tl)
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, &tl->start);
	tl->run = run;
	tl->to = run->extra;
	tl_model_init(&tl->m);
	an_idmap_init(&tl->irq_names);
	an_idmap_init(&tl->softirq_names);
	tl->stats = an_stats_def.create(run);
	if (!tl->stats) {
		tl_model_free(&tl->m);
		free(tl);
		return NULL;
	}
	return tl;
}

static void destroy(void *an)
{
	struct timeline *tl = an;

	an_stats_def.destroy(tl->stats);
	tl_model_free(&tl->m);
	an_idmap_free(&tl->irq_names);
	an_idmap_free(&tl->softirq_names);
	free(tl->classes);
	free(tl->user_trace);
	free(tl);
}

/* Thread rows named from what the kernel state knows (comm, pid), else their procname context. */
static void label_rows(struct timeline *tl)
{
	struct tl_model *m = &tl->m;

	for (size_t i = 0; i < m->nrows; i++) {
		struct tl_row *r = m->rows[i];
		char buf[160];

		if (r->kind == TL_ROW_CPU)
			snprintf(buf, sizeof(buf), "CPU %lld", (long long)r->id);
		else if (r->kind == TL_ROW_STREAM)
			snprintf(buf, sizeof(buf), "%.150s", m->str.v[r->comm]);
		else {
			struct kthread *t = kstate_thread(&tl->run->st, r->id);
			const char *comm = t && t->comm[0] ? t->comm : m->str.v[r->comm];

			if (t && t->pid >= 0)
				r->pid = t->pid;
			snprintf(buf, sizeof(buf), "%.64s", comm);
		}
		r->label = tl_intern(&m->str, buf);
		if (r->label == UINT32_MAX) {
			r->label = 0;
			m->failed = 1;
		}
	}
}

static int report(void *an)
{
	struct timeline *tl = an;
	struct an_run *run = tl->run;
	char *text = NULL;
	size_t len = 0;
	FILE *mem, *out = run->out;
	struct timespec now;
	double secs;
	int st;

	tl_model_finish(&tl->m);
	label_rows(tl);
	/* the rows the filters leave */
	for (size_t i = 0; i < tl->m.nrows; i++) {
		struct tl_row *r = tl->m.rows[i];

		if (r->kind == TL_ROW_THREAD &&
		    !an_thread_passes(run, kstate_thread(&run->st, r->id)))
			r->nch = r->nmarks = r->nspans = 0;
		if (r->kind == TL_ROW_CPU && !an_cpu_passes(run, r->id))
			r->nch = r->nmarks = r->nspans = 0;
	}
	if (tl->m.failed)
		goto oom;
	mem = open_memstream(&text, &len);
	if (!mem)
		goto oom;
	run->out = mem;
	st = an_stats_def.report(tl->stats);
	run->out = out;
	if (fclose(mem) || st != AN_OK) {
		free(text);
		return st != AN_OK ? st : AN_FAIL;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = (double)(now.tv_sec - tl->start.tv_sec) + (now.tv_nsec - tl->start.tv_nsec) / 1e9;
	st = tl_write_html(out, &tl->m, tl->to->title, text, secs);
	free(text);
	if (st)
		goto oom;
	return AN_OK;
oom:
	snprintf(run->err, run->errlen, "out of memory");
	return AN_FAIL;
}

static const struct an_def timeline_def = {
    .name = "timeline",
    .summary = "the HTML timeline (trax timeline)",
    .create = create,
    .destroy = destroy,
    .event = on_event,
    .report = report,
};

int an_timeline(const struct an_options *o, const struct an_timeline_options *to,
		const char *const *paths, size_t npaths, FILE *out, char *err, size_t errlen)
{
	struct an_timeline_options dflt = {0};

	if (!to)
		to = &dflt;
	if (!to->title && npaths) {
		dflt = *to;
		dflt.title = paths[0];
		to = &dflt;
	}
	return an_run_def(&timeline_def, to, o, paths, npaths, out, err, errlen);
}
