/*
 * an-cputop.c - `trax analyze cputop`: CPU usage per thread, per CPU and
 * in total, exactly as lttng-cputop 0.6.1 computes and prints it,
 * oddities included (docs/analyses-reference.md sections 2 and 8: a thread
 * first seen switching out is charged from the period's start, tid 0
 * included; one first seen migrating is not; the total divides by every
 * CPU the state knows).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/an-impl.h"
#include "analysis/priolist.h"
#include "analysis/table.h"

struct ct_thread {
	int64_t tid;
	char comm[KSTATE_COMM_MAX]; /* when it entered the table: never changed */
	int64_t migrations;
	int64_t total; /* ns on the CPU */
	int running;
	int64_t since;
	struct an_prio *prios;
	size_t nprios;
	size_t order; /* of entry into the table */
	double usage; /* percent */
};

struct ct_cpu {
	int in_table;
	int busy;
	int64_t since;
	int64_t total;
	double usage;
};

struct cputop {
	struct an_run *run;
	struct ct_thread *threads;
	size_t nthreads, cap;
	struct an_idmap rows; /* tid -> index in threads */
	struct ct_cpu *cpus;
	size_t ncpus;
	int failed;
};

static struct ct_thread *row_of(struct cputop *ct, int64_t tid)
{
	uint32_t i = an_idmap_get(&ct->rows, (uint64_t)tid);

	return i == AN_IDMAP_NONE ? NULL : &ct->threads[i];
}

static struct ct_thread *row_new(struct cputop *ct, int64_t tid, const char *comm)
{
	struct ct_thread *t;

	if (ct->nthreads == ct->cap) {
		size_t cap = ct->cap ? ct->cap * 2 : 64;
		struct ct_thread *v = realloc(ct->threads, cap * sizeof(*v));

		if (!v)
			goto oom;
		ct->threads = v;
		ct->cap = cap;
	}
	if (an_idmap_put(&ct->rows, (uint64_t)tid, (uint32_t)ct->nthreads))
		goto oom;
	t = &ct->threads[ct->nthreads];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : "");
	t->order = ct->nthreads++;
	return t;
oom:
	ct->failed = 1;
	return NULL;
}

static void add_prio(struct cputop *ct, struct ct_thread *t, int known, int64_t prio)
{
	if (an_prio_add(&t->prios, &t->nprios, known, prio))
		ct->failed = 1;
}

static struct ct_cpu *cpu_row(struct cputop *ct, int64_t cpu)
{
	if (cpu < 0 || cpu >= (1 << 20))
		return NULL;
	if ((size_t)cpu >= ct->ncpus) {
		size_t n = ct->ncpus ? ct->ncpus : 8;
		struct ct_cpu *v;

		while (n <= (size_t)cpu)
			n *= 2;
		v = realloc(ct->cpus, n * sizeof(*v));
		if (!v) {
			ct->failed = 1;
			return NULL;
		}
		memset(v + ct->ncpus, 0, (n - ct->ncpus) * sizeof(*v));
		ct->cpus = v;
		ct->ncpus = n;
	}
	return &ct->cpus[cpu];
}

static int next_passes(struct cputop *ct, const struct kthread *wakee)
{
	return wakee->tid != 0 && an_thread_passes(ct->run, wakee);
}

static void on_switch(void *ctx, const struct kswitch *sw)
{
	struct cputop *ct = ctx;
	int64_t begin = ct->run->period_begin;
	struct ct_cpu *cpu;
	struct ct_thread *prev, *next;

	if (!an_cpu_passes(ct->run, sw->cpu))
		return;
	/* per CPU: busy since the period's start at its first switch, whatever ran */
	if ((cpu = cpu_row(ct, sw->cpu))) {
		if (!cpu->in_table) {
			cpu->in_table = 1;
			cpu->busy = 1;
			cpu->since = begin;
		}
		if (cpu->busy)
			cpu->total += sw->ts - cpu->since;
		cpu->busy = next_passes(ct, sw->wakee);
		cpu->since = sw->ts;
	}
	/* per thread: the previous one (whatever the filters), then the next one */
	prev = row_of(ct, sw->prev_tid);
	if (!prev) {
		if (!(prev = row_new(ct, sw->prev_tid, sw->prev_comm)))
			return;
		prev->running = 1;
		prev->since = begin;
	}
	if (prev->running) {
		prev->total += sw->ts - prev->since;
		prev->running = 0;
	}
	if (!next_passes(ct, sw->wakee))
		return;
	next = row_of(ct, sw->next_tid);
	if (!next) {
		if (!(next = row_new(ct, sw->next_tid, sw->next_comm)))
			return;
		add_prio(ct, next, sw->wakee->has_prio, sw->wakee->prio);
	}
	next->running = 1;
	next->since = sw->ts;
}

static void on_migrate(void *ctx, struct kthread *t, int64_t cpu)
{
	struct cputop *ct = ctx;
	struct ct_thread *row;

	if (t->tid == 0 || !an_thread_passes(ct->run, t) || !an_cpu_passes(ct->run, cpu))
		return;
	row = row_of(ct, t->tid);
	if (!row && !(row = row_new(ct, t->tid, t->comm)))
		return;
	row->migrations++;
}

static void on_prio(void *ctx, int64_t ts, struct kthread *t, int64_t prio)
{
	struct cputop *ct = ctx;
	struct ct_thread *row = row_of(ct, t->tid);

	(void)ts;
	if (row)
		add_prio(ct, row, 1, prio);
}

static const struct kstate_hooks hooks = {
    .prio_changed = on_prio,
    .sched_switch = on_switch,
    .migrate = on_migrate,
};

static void *create(struct an_run *run)
{
	struct cputop *ct = calloc(1, sizeof(*ct));

	if (ct) {
		ct->run = run;
		an_idmap_init(&ct->rows);
	}
	return ct;
}

static void destroy(void *an)
{
	struct cputop *ct = an;

	for (size_t i = 0; i < ct->nthreads; i++)
		free(ct->threads[i].prios);
	free(ct->threads);
	free(ct->cpus);
	an_idmap_free(&ct->rows);
	free(ct);
}

/*
 * t * 100 / d as Python computes it (integers, then one correctly rounded
 * division): exact operands below 2^53, long double above.
 */
static double percent(int64_t t, int64_t d)
{
	int64_t n;

	if (d == 0)
		return 0;
	if (!__builtin_mul_overflow(t, (int64_t)100, &n) && n < (1LL << 53) && n > -(1LL << 53) &&
	    d < (1LL << 53))
		return (double)n / (double)d;
	return (double)((long double)t * 100 / (long double)d);
}

static int cmp_usage(const void *a, const void *b)
{
	const struct ct_thread *x = *(const struct ct_thread *const *)a;
	const struct ct_thread *y = *(const struct ct_thread *const *)b;

	if (x->usage != y->usage)
		return x->usage > y->usage ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_double_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x > y ? -1 : x < y;
}

static int report(void *an)
{
	struct cputop *ct = an;
	struct an_run *run = ct->run;
	int64_t begin = run->period_begin, end = run->last_ts, dur = end - begin;
	struct ct_thread **order = NULL;
	struct an_bar *bars = NULL;
	struct strbuf *labels = NULL;
	double *cpu_usage = NULL, total = 0;
	size_t nrows, ncpu_rows = 0;
	int json = run->o->json, status = AN_OK;

	if (ct->failed)
		goto oom;
	if (!run->started) {
		/* no event in the range: lttng-cputop prints nothing */
		if (json)
			fputs("{\"results\": []}\n", run->out);
		return AN_OK;
	}
	/* close what still runs at the period's end */
	for (size_t i = 0; i < ct->nthreads; i++) {
		struct ct_thread *t = &ct->threads[i];

		if (t->running)
			t->total += end - t->since;
		t->usage = percent(t->total, dur);
	}
	for (size_t i = 0; i < ct->ncpus; i++) {
		struct ct_cpu *c = &ct->cpus[i];

		if (!c->in_table)
			continue;
		if (c->busy)
			c->total += end - c->since;
		c->usage = percent(c->total, dur);
		ncpu_rows++;
	}
	order = malloc((ct->nthreads + 1) * sizeof(*order));
	cpu_usage = malloc((ncpu_rows + 1) * sizeof(*cpu_usage));
	if (!order || !cpu_usage)
		goto oom;
	for (size_t i = 0; i < ct->nthreads; i++)
		order[i] = &ct->threads[i];
	qsort(order, ct->nthreads, sizeof(*order), cmp_usage);
	nrows = ct->nthreads;
	if (run->o->limit > 0 && (size_t)run->o->limit < nrows)
		nrows = (size_t)run->o->limit;
	/* the total: per-CPU usages summed largest first, over every CPU the state knows */
	ncpu_rows = 0;
	for (size_t i = 0; i < ct->ncpus; i++)
		if (ct->cpus[i].in_table)
			cpu_usage[ncpu_rows++] = ct->cpus[i].usage;
	qsort(cpu_usage, ncpu_rows, sizeof(*cpu_usage), cmp_double_desc);
	for (size_t i = 0; i < ncpu_rows; i++)
		total += cpu_usage[i];
	if (run->st.cpus_known)
		total /= (double)run->st.cpus_known;

	if (json) {
		struct an_mi mi;
		struct strbuf sb;

		an_mi_begin(&mi, run->out);
		strbuf_init(&sb);
		an_mi_table(&mi, "per-process", NULL, begin, end);
		for (size_t i = 0; i < nrows; i++) {
			strbuf_reset(&sb);
			an_prio_format(order[i]->prios, order[i]->nprios, &sb);
			an_mi_row(&mi);
			an_mi_process(&mi, order[i]->comm, -1, order[i]->tid);
			an_mi_number(&mi, "number", order[i]->migrations);
			an_mi_string(&mi, sb.buf ? sb.buf : "[]");
			an_mi_float(&mi, "ratio", order[i]->usage / 100);
			an_mi_row_end(&mi);
		}
		an_mi_table_end(&mi);
		an_mi_table(&mi, "per-cpu", NULL, begin, end);
		for (size_t i = 0; i < ct->ncpus; i++) {
			if (!ct->cpus[i].in_table)
				continue;
			an_mi_row(&mi);
			an_mi_cpu(&mi, (int64_t)i);
			an_mi_float(&mi, "ratio", ct->cpus[i].usage / 100);
			an_mi_row_end(&mi);
		}
		an_mi_table_end(&mi);
		if (run->st.cpus_known) {
			an_mi_table(&mi, "total", NULL, begin, end);
			an_mi_row(&mi);
			an_mi_float(&mi, "ratio", total / 100);
			an_mi_row_end(&mi);
			an_mi_table_end(&mi);
		}
		strbuf_free(&sb);
		if (sb.failed || an_mi_end(&mi))
			goto oom;
		goto done;
	}

	an_print_timerange(run, begin, end);
	bars = calloc(nrows + ncpu_rows + 1, sizeof(*bars));
	labels = calloc(nrows + ncpu_rows + 1, sizeof(*labels));
	if (!bars || !labels)
		goto oom;
	for (size_t i = 0; i < nrows; i++) {
		struct strbuf name, prios, *l = &labels[i];
		char mig[32];

		strbuf_init(&name);
		strbuf_init(&prios);
		strbuf_init(l);
		strbuf_printf(&name, "%s (%lld)", order[i]->comm, (long long)order[i]->tid);
		an_prio_format(order[i]->prios, order[i]->nprios, &prios);
		snprintf(mig, sizeof(mig), "%lld", (long long)order[i]->migrations);
		strbuf_puts(l, "  ");
		an_pad_left(l, name.buf, 25);
		strbuf_puts(l, " ");
		an_pad_right(l, mig, 10);
		strbuf_puts(l, "   ");
		strbuf_puts(l, prios.buf);
		strbuf_free(&name);
		strbuf_free(&prios);
		bars[i].value = order[i]->usage / 100 * 100;
		snprintf(bars[i].value_str, sizeof(bars[i].value_str), "%0.02f", bars[i].value);
		bars[i].label = l->buf ? l->buf : "";
	}
	{
		struct strbuf h;

		strbuf_init(&h);
		strbuf_puts(&h, "  ");
		an_pad_left(&h, "Process", 25);
		strbuf_puts(&h, " ");
		an_pad_right(&h, "Migrations", 10);
		strbuf_puts(&h, "   Priorities");
		an_bar_graph(run->out, "Per-TID Usage", h.buf, "%", bars, nrows);
		strbuf_free(&h);
	}
	{
		size_t k = 0;

		for (size_t i = 0; i < ct->ncpus; i++) {
			struct strbuf *l = &labels[nrows + k];

			if (!ct->cpus[i].in_table)
				continue;
			strbuf_init(l);
			strbuf_printf(l, "CPU %zu", i);
			bars[nrows + k].value = ct->cpus[i].usage / 100 * 100;
			snprintf(bars[nrows + k].value_str, sizeof(bars[0].value_str), "%0.02f",
				 bars[nrows + k].value);
			bars[nrows + k].label = l->buf ? l->buf : "";
			k++;
		}
		an_bar_graph(run->out, "Per-CPU Usage", NULL, "%", bars + nrows, k);
	}
	if (run->st.cpus_known)
		fprintf(run->out, "\nTotal CPU Usage: %0.02f%%\n\n", total / 100 * 100);
	goto done;
oom:
	status = AN_FAIL;
	snprintf(run->err, run->errlen, "out of memory");
done:
	if (labels)
		for (size_t i = 0; i < nrows + ncpu_rows; i++)
			strbuf_free(&labels[i]);
	free(labels);
	free(bars);
	free(order);
	free(cpu_usage);
	return status;
}

const struct an_def an_cputop_def = {
    .name = "cputop",
    .summary = "CPU usage per thread, per CPU and in total (as lttng-cputop)",
    .needs = 1u << KEV_SCHED_SWITCH,
    .needs_names = "sched_switch",
    .record_hint = "trax enable-event -k sched_switch,sched_migrate_task,sched_wakeup,"
		   "sched_waking,sched_process_fork,lttng_statedump_process_state",
    .hooks = &hooks,
    .create = create,
    .destroy = destroy,
    .report = report,
};
