/*
 * timeline-state.c - `trax timeline`'s analysis: the state of every thread
 * and CPU over time, as LTTV's control-flow and resource views showed it,
 * from kflow.c's state machine (the one `trax analyze flow` prints: its
 * thread and CPU intervals become the rows' state changes), user-space
 * events as marks, spans between pairs of events, and the `stats`
 * analysis beside it for the page's tables. Event classes are classified
 * once (a table by kev class id); per event: a switch on the kind, no
 * string work.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/kflow.h"
#include "analysis/table.h"
#include "analysis/timeline-impl.h"

enum tl_kind {
	TK_UNSET = 0,
	TK_KERNEL,    /* an event of a kernel trace: kflow's */
	TK_IRQ_ENTRY, /* irq_handler_entry: kflow's, and the IRQ's name */
	TK_MARK,      /* an event of a user-space trace */
};

struct tl_class {
	uint8_t kind;
	uint32_t name;		  /* string id */
	int span_begin, span_end; /* pair index + 1, 0: none */
};

struct timeline {
	struct an_run *run;
	const struct an_timeline_options *to;
	struct tl_model m;
	struct kflow kf;
	struct tl_class *classes; /* by kev class id */
	size_t nclasses;
	int *user_trace; /* by trace index: 1 user space, 0 kernel, -1 not looked at */
	size_t ntraces;
	struct an_idmap irq_names, softirq_names; /* number -> string id */
	struct an_idmap syscall_names;		  /* kev's name (its address) -> string id */
	void *stats;
	struct timespec start;
};

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

/* The class's entry, filled at its first event. */
static struct tl_class *class_of(struct timeline *tl, const struct kev_class *c)
{
	struct tl_class *k;

	if (c->id >= tl->nclasses) {
		struct tl_class *v = an_grow(tl->classes, &tl->nclasses, (size_t)c->id + 1,
					     sizeof(*v), &tl->m.failed);

		if (!v)
			return NULL;
		tl->classes = v;
	}
	k = &tl->classes[c->id];
	if (k->kind != TK_UNSET)
		return k;
	k->kind = is_user_trace(tl, c->trace) ? TK_MARK
		  : c->kind == KEV_IRQ_ENTRY  ? TK_IRQ_ENTRY
					      : TK_KERNEL;
	k->name = tl_intern(&tl->m.str, c->name);
	for (size_t i = 0; i < tl->to->nspans; i++) {
		if (tl->to->spans[i].begin && !strcmp(tl->to->spans[i].begin, c->name))
			k->span_begin = (int)i + 1;
		if (tl->to->spans[i].end && !strcmp(tl->to->spans[i].end, c->name))
			k->span_end = (int)i + 1;
	}
	if (k->name == UINT32_MAX)
		tl->m.failed = 1;
	return k;
}

/* The string id of IRQ n's description ("irq 5 eth0", "softirq 1 TIMER"); name: the handler's. */
static uint32_t irq_id(struct timeline *tl, int soft, int64_t n, const char *name)
{
	struct an_idmap *map = soft ? &tl->softirq_names : &tl->irq_names;
	uint32_t id = an_idmap_get(map, (uint64_t)n);
	const char *sn = soft ? kflow_softirq_name(n) : NULL;
	char buf[160];

	if (id != AN_IDMAP_NONE)
		return id;
	if (soft)
		snprintf(buf, sizeof(buf), "softirq %lld%s%s", (long long)n, sn ? " " : "",
			 sn ? sn : "");
	else
		snprintf(buf, sizeof(buf), "irq %lld%s%.100s", (long long)n, name ? " " : "",
			 name ? name : "");
	id = tl_intern(&tl->m.str, buf);
	if (id == UINT32_MAX || an_idmap_put(map, (uint64_t)n, id)) {
		tl->m.failed = 1;
		return 0;
	}
	return id;
}

/* The string id of a system call's name (kev's string: interned once). */
static uint32_t syscall_id(struct timeline *tl, const char *name)
{
	uint32_t id;

	if (!name)
		return 0;
	id = an_idmap_get(&tl->syscall_names, (uint64_t)(uintptr_t)name);
	if (id != AN_IDMAP_NONE)
		return id;
	id = tl_intern(&tl->m.str, name);
	if (id == UINT32_MAX || an_idmap_put(&tl->syscall_names, (uint64_t)(uintptr_t)name, id)) {
		tl->m.failed = 1;
		return 0;
	}
	return id;
}

/* The row index of thread tid (created when new), AN_IDMAP_NONE when memory ran out. */
static uint32_t thread_row_index(struct tl_model *m, int64_t tid)
{
	if (!tl_thread_row(m, tid))
		return AN_IDMAP_NONE;
	return an_idmap_get(&m->thread_rows, (uint64_t)tid);
}

/* A closed interval of a thread's (kflow's): a state change of its row. */
static void on_thread_interval(void *ctx, const struct kflow_thread *ct,
			       const struct kflow_interval *iv)
{
	struct timeline *tl = ctx;
	struct tl_model *m = &tl->m;
	struct kflow_thread *t = (struct kflow_thread *)ct; /* (its slot is ours: the row) */
	struct tl_row *r;
	enum tl_state s = TL_UNKNOWN;
	uint32_t detail = 0;

	if (t->slot == AN_IDMAP_NONE && (t->slot = thread_row_index(m, t->tid)) == AN_IDMAP_NONE)
		return;
	r = m->rows[t->slot];
	switch (iv->state) {
	case KFLOW_UNKNOWN:
	case KFLOW_STATE_COUNT:
		break;
	case KFLOW_USER:
		s = TL_USER;
		break;
	case KFLOW_SYSCALL:
		s = TL_SYSCALL;
		detail = syscall_id(tl, iv->syscall);
		break;
	case KFLOW_IRQ:
		s = TL_IRQ;
		detail = irq_id(tl, 0, iv->irq, NULL);
		break;
	case KFLOW_SOFTIRQ:
		s = TL_SOFTIRQ;
		detail = irq_id(tl, 1, iv->irq, NULL);
		break;
	case KFLOW_RUNNABLE:
		s = iv->reason == KFLOW_R_FORKED ? TL_WAIT_FORK : TL_WAIT_CPU;
		break;
	case KFLOW_BLOCKED:
		s = TL_WAIT;
		detail = syscall_id(tl, iv->syscall);
		break;
	case KFLOW_EXITED:
		s = TL_ZOMBIE;
		break;
	}
	/* the thread was freed, then its tid came back (a fork): not known in between */
	if (r->nch && r->last_end < iv->begin)
		tl_set(m, r, r->last_end, TL_UNKNOWN, 0);
	tl_set(m, r, iv->begin, s, detail);
	r->last_end = iv->end;
	tl_model_bound(m);
}

/* A closed interval of a CPU's (kflow's): a state change of its row. */
static void on_cpu_interval(void *ctx, const struct kflow_cpu_interval *iv)
{
	struct timeline *tl = ctx;
	struct tl_model *m = &tl->m;
	struct tl_row *r;
	enum tl_state s = TL_UNKNOWN;
	uint32_t detail = 0;

	if (iv->state == KFLOW_CPU_UNKNOWN &&
	    an_idmap_get(&m->cpu_rows, (uint64_t)iv->cpu) == AN_IDMAP_NONE)
		return; /* (not drawn: no row for it yet) */
	if (!(r = tl_cpu_row(m, iv->cpu)))
		return;
	switch (iv->state) {
	case KFLOW_CPU_UNKNOWN:
		break;
	case KFLOW_CPU_IDLE:
		s = TL_IDLE;
		break;
	case KFLOW_CPU_USER:
	case KFLOW_CPU_SYSCALL: {
		/* the detail: the thread's row (its index + 1 here, its place on the page later) */
		uint32_t i = thread_row_index(m, iv->tid);

		s = iv->state == KFLOW_CPU_USER ? TL_USER : TL_SYSCALL;
		detail = i == AN_IDMAP_NONE ? 0 : i + 1;
		break;
	}
	case KFLOW_CPU_IRQ:
		s = TL_IRQ;
		detail = irq_id(tl, 0, iv->irq, NULL);
		break;
	case KFLOW_CPU_SOFTIRQ:
		s = TL_SOFTIRQ;
		detail = irq_id(tl, 1, iv->irq, NULL);
		break;
	}
	tl_set(m, r, iv->begin, s, detail);
	r->last_end = iv->end;
	tl_model_bound(m);
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
			struct tl_span *v =
			    an_grow(r->spans, &r->capspans, r->nspans + 1, sizeof(*v), &m->failed);

			if (!v)
				return;
			r->spans = v;
			s.end = ts - m->t0;
			r->spans[r->nspans++] = s;
			m->spans++;
		}
	}
	if (k->span_begin) {
		struct tl_span *v =
		    an_grow(r->open, &r->capopen, r->nopen + 1, sizeof(*v), &m->failed);

		if (!v)
			return;
		r->open = v;
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

/* The thread an event of a kernel trace is about: its tid context, else its CPU's current one. */
static struct tl_row *event_thread(struct timeline *tl, const struct trax_event *ev,
				   const struct kev_class *c)
{
	int64_t tid, cpu;

	if (kev_int(ev, c, KR_CTX_TID, &tid)) {
		if (kev_int(ev, c, KR_PKT_CPU_ID, &cpu) && kev_int(ev, c, KR_CPU_ID, &cpu))
			return NULL;
		tid = kflow_cpu_current(&tl->kf, cpu);
	}
	return tid > 0 ? tl_thread_row(&tl->m, tid) : NULL;
}

/* A user-space event: a mark on its thread's row (vtid/tid context), else its stream's. */
static void on_mark(struct timeline *tl, const struct trax_event *ev, const struct kev_class *c,
		    const struct tl_class *k, int64_t ts)
{
	struct tl_model *m = &tl->m;
	struct tl_row *th;
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
}

static int on_event(void *an, const struct trax_event *ev, const struct kev_class *c, int64_t ts)
{
	struct timeline *tl = an;
	struct tl_model *m = &tl->m;
	struct tl_class *k = class_of(tl, c);

	if (!k)
		return -1;
	if (!tl->run->started) {
		/* before --begin: kflow learns the threads' states, nothing is drawn */
		if (k->kind != TK_MARK && kflow_event(&tl->kf, ev, c, ts))
			return -1;
		return 0;
	}
	if (an_stats_def.event(tl->stats, ev, c, ts))
		return -1;
	if (!m->started) {
		m->started = 1;
		m->t0 = ts;
		kflow_start(&tl->kf, ts);
	}
	m->t1 = ts;
	m->events++;
	if (k->kind == TK_MARK) {
		on_mark(tl, ev, c, k, ts);
		return m->failed ? -1 : 0;
	}
	if (k->kind == TK_IRQ_ENTRY) {
		/* the handler's name, for the IRQ's description (at its first event) */
		int64_t irq;

		if (kev_int(ev, c, KR_IRQ, &irq) == 0 &&
		    an_idmap_get(&tl->irq_names, (uint64_t)irq) == AN_IDMAP_NONE)
			irq_id(tl, 0, irq, kev_str(ev, c, KR_NAME));
	}
	if (kflow_event(&tl->kf, ev, c, ts))
		return -1;
	if (k->span_begin || k->span_end) {
		struct tl_row *th = event_thread(tl, ev, c);

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
	tl->m.max_changes = tl->to->max_changes ? tl->to->max_changes : TL_MAX_CHANGES;
	kflow_init(&tl->kf, on_thread_interval, tl);
	kflow_set_cpu_fn(&tl->kf, on_cpu_interval);
	an_idmap_init(&tl->irq_names);
	an_idmap_init(&tl->softirq_names);
	an_idmap_init(&tl->syscall_names);
	tl->stats = an_stats_def.create(run);
	if (!tl->stats) {
		kflow_free(&tl->kf);
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
	kflow_free(&tl->kf);
	tl_model_free(&tl->m);
	an_idmap_free(&tl->irq_names);
	an_idmap_free(&tl->softirq_names);
	an_idmap_free(&tl->syscall_names);
	free(tl->classes);
	free(tl->user_trace);
	free(tl);
}

/* Thread rows named from what the kernel state knows (comm, pid), else kflow, else their
 * procname context. */
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
			const struct kflow_thread *ft = kflow_thread(&tl->kf, r->id);
			const char *comm = t && t->comm[0]     ? t->comm
					   : ft && ft->comm[0] ? ft->comm
							       : m->str.v[r->comm];

			if (t && t->pid >= 0)
				r->pid = t->pid;
			else if (ft && ft->pid >= 0 && r->pid < 0)
				r->pid = ft->pid;
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

	if (tl->m.started) {
		kflow_finish(&tl->kf, tl->m.t1);
		/* threads freed before the end: not known from then on */
		for (size_t i = 0; i < tl->m.nrows; i++) {
			struct tl_row *r = tl->m.rows[i];

			if (r->kind == TL_ROW_THREAD && r->nch && r->last_end < tl->m.t1)
				tl_set(&tl->m, r, r->last_end, TL_UNKNOWN, 0);
		}
	}
	tl_model_finish(&tl->m);
	label_rows(tl);
	/* the rows the filters leave */
	for (size_t i = 0; i < tl->m.nrows; i++) {
		struct tl_row *r = tl->m.rows[i];

		if ((r->kind == TL_ROW_THREAD &&
		     !an_thread_passes(run, kstate_thread(&run->st, r->id))) ||
		    (r->kind == TL_ROW_CPU && !an_cpu_passes(run, r->id)))
			r->nch = r->nmarks = r->nspans = r->mark_total = 0;
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
    .before = 1, /* kflow learns from the events before --begin */
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
