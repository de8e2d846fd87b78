/*
 * an-syscallstats.c - `trax analyze syscallstats`: per thread and per
 * system call, count, min, average, max, standard deviation of the
 * durations and the return values, exactly as lttng-syscallstats 0.6.1
 * computes and prints them (docs/analyses-reference.md sections 3 and 8:
 * every return-value count one too high, the deviation only above two
 * calls, Python's round() and str() of the numbers, errno names from
 * Python's table); with --top N, trax adds a table of the N slowest calls.
 * System calls are those of ksys.h (the thread the switches say runs).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/an-impl.h"
#include "analysis/durstats.h"
#include "analysis/errname.h"
#include "analysis/grow.h"
#include "analysis/ksys.h"
#include "analysis/loghist.h"
#include "analysis/pyfmt.h"
#include "analysis/pyround.h"
#include "analysis/table.h"

/* The sample standard deviation (count >= 2), as Python's statistics.stdev. */
static double stdev_of(const struct an_durstats *d)
{
	double v = 0;

	an_durstats_stdev(d, &v);
	return v;
}

/* A return value class and its count: ret 0 stands for 'success', else the (negative) ret. */
struct sc_ret {
	int64_t ret;
	uint64_t count;
};

struct sc_call {
	uint32_t name;
	struct an_durstats d;
	struct sc_ret *rets;
	size_t nrets;
	uint32_t next; /* the thread's next call (in order of first appearance) */
};

struct sc_thread {
	int64_t tid, pid;
	char comm[KSTATE_COMM_MAX]; /* at its first counted exit */
	uint64_t total;
	uint32_t first, last; /* its calls */
	size_t ncalls;
	size_t order;
};

/* One of the slowest calls (--top). */
struct sc_top {
	int64_t begin, end, tid, ret;
	uint32_t name;
	char comm[KSTATE_COMM_MAX];
	uint64_t seq;
};

/* --html: the durations of one system call, all threads (name KSYS_NO_NAME: all calls). */
struct sc_hist {
	uint32_t name;
	struct an_durstats d;
	struct an_loghist h;
};

/* the most histograms of single calls on the page (the most frequent) */
#define HTML_MAX_CALLS 32
/* the bins of each */
#define HTML_BINS 40

struct sysstats {
	struct an_run *run;
	struct ksys sys;
	struct an_idmap tmap; /* tid -> threads */
	struct sc_thread *threads;
	size_t nthreads, tcap;
	struct an_idmap cmap; /* (thread, name) -> calls */
	struct sc_call *calls;
	size_t ncalls, ccap;
	struct sc_top *top;
	size_t ntop;
	uint64_t seq;
	struct an_idmap hmap; /* --html: name -> hists */
	struct sc_hist *hists, all;
	size_t nhists, hcap;
	int failed;
};

static int64_t ret_class(int64_t ret)
{
	return ret >= 0 ? 0 : ret;
}

static void add_ret(struct sysstats *ss, struct sc_call *c, int64_t ret)
{
	int64_t k = ret_class(ret);
	struct sc_ret *v;

	for (size_t i = 0; i < c->nrets; i++)
		if (c->rets[i].ret == k) {
			c->rets[i].count++;
			return;
		}
	v = realloc(c->rets, (c->nrets + 1) * sizeof(*v));
	if (!v) {
		ss->failed = 1;
		return;
	}
	c->rets = v;
	/* lttng-syscallstats starts each count at 1 and adds 1: one too many */
	c->rets[c->nrets++] = (struct sc_ret){k, 2};
}

static void keep_top(struct sysstats *ss, struct kthread *t, const struct ksys_call *call)
{
	size_t n = (size_t)ss->run->o->top, worst = 0;
	int64_t dur = call->end - call->begin;
	struct sc_top e = {call->begin, call->end, t->tid, call->ret, call->name, {0}, ss->seq++};

	memcpy(e.comm, t->comm, sizeof(e.comm));
	if (ss->ntop < n) {
		ss->top[ss->ntop++] = e;
		return;
	}
	/* replace the shortest (the latest of equal ones) when longer */
	for (size_t i = 1; i < ss->ntop; i++) {
		int64_t a = ss->top[i].end - ss->top[i].begin,
			b = ss->top[worst].end - ss->top[worst].begin;

		if (a < b || (a == b && ss->top[i].seq > ss->top[worst].seq))
			worst = i;
	}
	if (ss->ntop && dur > ss->top[worst].end - ss->top[worst].begin)
		ss->top[worst] = e;
}

/* --html: the call's duration in its name's histogram and in all calls'. */
static void html_add(struct sysstats *ss, const struct ksys_call *call)
{
	uint32_t i = an_idmap_get(&ss->hmap, call->name);
	int64_t dur = call->end - call->begin;

	if (i == AN_IDMAP_NONE) {
		if (an_grow_in((void **)&ss->hists, &ss->hcap, ss->nhists + 1,
			       sizeof(*ss->hists)) ||
		    an_idmap_put(&ss->hmap, call->name, (uint32_t)ss->nhists)) {
			ss->failed = 1;
			return;
		}
		i = (uint32_t)ss->nhists++;
		ss->hists[i].name = call->name;
		an_durstats_init(&ss->hists[i].d);
		an_loghist_init(&ss->hists[i].h);
	}
	an_durstats_add(&ss->hists[i].d, dur);
	an_durstats_add(&ss->all.d, dur);
	if (an_loghist_add(&ss->hists[i].h, dur) || an_loghist_add(&ss->all.h, dur))
		ss->failed = 1;
}

static void on_exit_(void *ctx, struct kthread *t, const struct ksys_call *call, int64_t cpu)
{
	struct sysstats *ss = ctx;
	struct sc_thread *th;
	struct sc_call *c;
	uint32_t ti, ci;
	uint64_t key;

	if (!an_thread_passes(ss->run, t) || !an_cpu_passes(ss->run, cpu))
		return;
	ti = an_idmap_get(&ss->tmap, (uint64_t)t->tid);
	if (ti == AN_IDMAP_NONE) {
		if (an_grow_in((void **)&ss->threads, &ss->tcap, ss->nthreads + 1, sizeof(*th)) ||
		    an_idmap_put(&ss->tmap, (uint64_t)t->tid, (uint32_t)ss->nthreads))
			goto oom;
		ti = (uint32_t)ss->nthreads;
		th = &ss->threads[ss->nthreads];
		memset(th, 0, sizeof(*th));
		th->tid = t->tid;
		th->pid = t->pid;
		memcpy(th->comm, t->comm, sizeof(th->comm));
		th->first = th->last = AN_IDMAP_NONE;
		th->order = ss->nthreads++;
	}
	th = &ss->threads[ti];
	key = ((uint64_t)ti << 32) | call->name;
	ci = an_idmap_get(&ss->cmap, key);
	if (ci == AN_IDMAP_NONE) {
		if (an_grow_in((void **)&ss->calls, &ss->ccap, ss->ncalls + 1, sizeof(*c)) ||
		    an_idmap_put(&ss->cmap, key, (uint32_t)ss->ncalls))
			goto oom;
		ci = (uint32_t)ss->ncalls++;
		c = &ss->calls[ci];
		memset(c, 0, sizeof(*c));
		c->name = call->name;
		an_durstats_init(&c->d);
		c->next = AN_IDMAP_NONE;
		if (th->last == AN_IDMAP_NONE)
			th->first = ci;
		else
			ss->calls[th->last].next = ci;
		th->last = ci;
		th->ncalls++;
	}
	c = &ss->calls[ci];
	an_durstats_add(&c->d, call->end - call->begin);
	add_ret(ss, c, call->ret);
	th->total++;
	if (ss->top)
		keep_top(ss, t, call);
	if (ss->run->o->html)
		html_add(ss, call);
	return;
oom:
	ss->failed = 1;
}

static const struct ksys_hooks sys_hooks = {.syscall_exit = on_exit_};

static void *create(struct an_run *run)
{
	struct sysstats *ss = calloc(1, sizeof(*ss));

	if (!ss)
		return NULL;
	ss->run = run;
	an_idmap_init(&ss->tmap);
	an_idmap_init(&ss->cmap);
	an_idmap_init(&ss->hmap);
	an_durstats_init(&ss->all.d);
	an_loghist_init(&ss->all.h);
	ss->all.name = KSYS_NO_NAME;
	ksys_init(&ss->sys, &run->st, &sys_hooks, ss);
	if (run->o->top_list && run->o->top > 0 && run->o->top < (1L << 24) &&
	    !(ss->top = calloc((size_t)run->o->top, sizeof(*ss->top))))
		ss->failed = 1;
	return ss;
}

static void destroy(void *an)
{
	struct sysstats *ss = an;

	for (size_t i = 0; i < ss->ncalls; i++)
		free(ss->calls[i].rets);
	free(ss->calls);
	free(ss->threads);
	free(ss->top);
	an_idmap_free(&ss->tmap);
	an_idmap_free(&ss->cmap);
	for (size_t i = 0; i < ss->nhists; i++)
		an_loghist_free(&ss->hists[i].h);
	free(ss->hists);
	an_loghist_free(&ss->all.h);
	an_idmap_free(&ss->hmap);
	ksys_free(&ss->sys);
	free(ss);
}

static int state_event(void *an, const struct trax_event *ev, const struct kev_class *c, int64_t ts)
{
	struct sysstats *ss = an;

	return ksys_event(&ss->sys, ev, c, ts) || ss->failed ? -1 : 0;
}

/* Python's sorted(..., reverse=True) by count: stable, larger first. */
static int cmp_thread(const void *a, const void *b)
{
	const struct sc_thread *x = *(const struct sc_thread *const *)a;
	const struct sc_thread *y = *(const struct sc_thread *const *)b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->order < y->order ? -1 : 1;
}

struct call_ref {
	struct sc_call *c;
	size_t order;
};

static int cmp_call(const void *a, const void *b)
{
	const struct call_ref *x = a, *y = b;

	if (x->c->d.count != y->c->d.count)
		return x->c->d.count > y->c->d.count ? -1 : 1;
	return x->order < y->order ? -1 : 1;
}

static int cmp_top(const void *a, const void *b)
{
	const struct sc_top *x = a, *y = b;
	int64_t dx = x->end - x->begin, dy = y->end - y->begin;

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return x->seq < y->seq ? -1 : 1;
}

/* str() of the return values' dict: {'success': 25, 'ENOENT': 3} */
static void ret_dict(const struct sc_call *c, struct strbuf *sb)
{
	strbuf_puts(sb, "{");
	for (size_t i = 0; i < c->nrets; i++) {
		const char *name = c->rets[i].ret == 0 ? "success" : an_errno_name(-c->rets[i].ret);

		if (i)
			strbuf_puts(sb, ", ");
		if (name)
			strbuf_printf(sb, "'%s': %llu", name, (unsigned long long)c->rets[i].count);
		else
			strbuf_printf(sb, "'%lld': %llu", (long long)c->rets[i].ret,
				      (unsigned long long)c->rets[i].count);
	}
	strbuf_puts(sb, "}");
}

/* str(round(ns / 1000, 3)) */
static char *py_us(char *buf, size_t len, double ns)
{
	return an_py_float(buf, len, an_py_round3(ns / 1000));
}

static void line(FILE *f, const char *a, const char *b, const char *c, const char *d, const char *e,
		 const char *g, const char *h)
{
	an_pyfmt_line(f, "{:<38} {:>14} {:>14} {:>14} {:>12} {:>10}  {:<14}", a, b, c, d, e, g, h);
}

static void subtitle(const struct sc_thread *t, struct strbuf *sb)
{
	if (t->pid >= 0)
		strbuf_printf(sb, "%s (%lld, TID: %lld)", t->comm, (long long)t->pid,
			      (long long)t->tid);
	else
		strbuf_printf(sb, "%s (?, TID: %lld)", t->comm, (long long)t->tid);
}

static void print_top_text(struct sysstats *ss)
{
	struct an_run *run = ss->run;
	char b[64], e[64];

	fprintf(run->out, "\nSlowest system calls (usec)\n");
	fprintf(run->out, "%-40s %-16s %16s %10s  %-24s %-8s\n", "Begin                End", "Name",
		"Duration (usec)", "Return", "Proc", "TID");
	for (size_t i = 0; i < ss->ntop; i++) {
		const struct sc_top *t = &ss->top[i];
		char range[160], dur[40];

		snprintf(range, sizeof(range), "[%s, %s]",
			 an_format_time(b, sizeof(b), t->begin, 0, run->o->gmt),
			 an_format_time(e, sizeof(e), t->end, 0, run->o->gmt));
		snprintf(dur, sizeof(dur), "%0.03f", (double)(t->end - t->begin) / 1000);
		fprintf(run->out, "%-40s %-16s %16s %10lld  %-24s %-8lld\n", range,
			ksys_str(&ss->sys, t->name), dur, (long long)t->ret, t->comm,
			(long long)t->tid);
	}
}

static int report(void *an)
{
	struct sysstats *ss = an;
	struct an_run *run = ss->run;
	int64_t begin = run->period_begin, end = run->last_ts;
	struct sc_thread **order = NULL;
	struct call_ref *refs = NULL;
	struct strbuf sb, rv;
	struct an_mi mi;
	uint64_t total_calls = 0;
	int json = run->o->json, status = AN_OK;
	char b1[48], b2[48], b3[48], b4[48], cnt[32];

	if (ss->failed || ss->sys.failed)
		goto oom;
	if (!run->started) {
		if (json)
			fputs("{\"results\": []}\n", run->out);
		return AN_OK;
	}
	order = malloc((ss->nthreads + 1) * sizeof(*order));
	refs = malloc((ss->ncalls + 1) * sizeof(*refs));
	if (!order || !refs)
		goto oom;
	for (size_t i = 0; i < ss->nthreads; i++)
		order[i] = &ss->threads[i];
	qsort(order, ss->nthreads, sizeof(*order), cmp_thread);
	if (ss->ntop > 1)
		qsort(ss->top, ss->ntop, sizeof(*ss->top), cmp_top);
	strbuf_init(&sb);
	strbuf_init(&rv);
	if (json)
		an_mi_begin(&mi, run->out);
	else {
		an_print_timerange(run, begin, end);
		fputs("Per-TID syscalls statistics (usec)\n", run->out);
	}
	for (size_t i = 0; i < ss->nthreads; i++) {
		struct sc_thread *t = order[i];
		size_t n = 0;

		if (!t->total)
			continue;
		for (uint32_t ci = t->first; ci != AN_IDMAP_NONE; ci = ss->calls[ci].next)
			refs[n] = (struct call_ref){&ss->calls[ci], n}, n++;
		qsort(refs, n, sizeof(*refs), cmp_call);
		strbuf_reset(&sb);
		subtitle(t, &sb);
		if (json) {
			struct strbuf title;

			strbuf_init(&title);
			strbuf_printf(&title, "System call statistics [%s]", sb.buf ? sb.buf : "");
			an_mi_table(&mi, "per-tid", title.buf ? title.buf : "", begin, end);
			strbuf_free(&title);
		} else
			line(run->out, sb.buf ? sb.buf : "", "Count", "Min", "Average", "Max",
			     "Stdev", "Return values");
		for (size_t k = 0; k < n; k++) {
			const struct sc_call *c = refs[k].c;
			const char *name = ksys_str(&ss->sys, c->name);
			double avg = an_durstats_avg(&c->d);
			int has_sd = c->d.count > 2;
			double sd = has_sd ? stdev_of(&c->d) : 0;

			strbuf_reset(&rv);
			ret_dict(c, &rv);
			if (json) {
				an_mi_row(&mi);
				an_mi_named(&mi, "syscall", "name", name);
				an_mi_number(&mi, "number", (int64_t)c->d.count);
				an_mi_number(&mi, "duration", c->d.min);
				an_mi_float(&mi, "duration", avg);
				an_mi_number(&mi, "duration", c->d.max);
				if (has_sd)
					an_mi_float(&mi, "duration", sd);
				else
					an_mi_unknown(&mi);
				an_mi_string(&mi, rv.buf ? rv.buf : "{}");
				an_mi_row_end(&mi);
			} else {
				struct strbuf nm;

				strbuf_init(&nm);
				strbuf_printf(&nm, " - %s", name);
				snprintf(cnt, sizeof(cnt), "%llu", (unsigned long long)c->d.count);
				line(run->out, nm.buf ? nm.buf : "", cnt,
				     py_us(b1, sizeof(b1), (double)c->d.min),
				     py_us(b2, sizeof(b2), avg),
				     py_us(b3, sizeof(b3), (double)c->d.max),
				     has_sd ? py_us(b4, sizeof(b4), sd) : "?",
				     rv.buf ? rv.buf : "{}");
				strbuf_free(&nm);
			}
		}
		if (json)
			an_mi_table_end(&mi);
		else {
			snprintf(cnt, sizeof(cnt), "%llu", (unsigned long long)t->total);
			line(run->out, "Total:", cnt, "", "", "", "", "");
			fprintf(run->out, "%.*s\n", 113,
				"------------------------------------------------------------------"
				"-----------------------------------------------");
		}
		total_calls += t->total;
	}
	if (json) {
		an_mi_table(&mi, "total", NULL, begin, end);
		for (size_t i = 0; i < ss->nthreads; i++) {
			if (!order[i]->total)
				continue;
			an_mi_row(&mi);
			an_mi_process(&mi, order[i]->comm, order[i]->pid, order[i]->tid);
			an_mi_number(&mi, "number", (int64_t)order[i]->total);
			an_mi_row_end(&mi);
		}
		an_mi_table_end(&mi);
		if (ss->ntop) {
			/* trax's own table: the slowest calls */
			an_mi_table(&mi, "top-syscall", "Slowest system calls", begin, end);
			for (size_t i = 0; i < ss->ntop; i++) {
				const struct sc_top *t = &ss->top[i];

				strbuf_reset(&sb);
				strbuf_printf(
				    &sb,
				    "{\"class\": \"time-range\", \"begin\": {\"class\": "
				    "\"timestamp\", \"value\": %lld}, \"end\": {\"class\": "
				    "\"timestamp\", \"value\": %lld}}",
				    (long long)t->begin, (long long)t->end);
				an_mi_row(&mi);
				an_mi_raw(&mi, sb.buf ? sb.buf : "null");
				an_mi_number(&mi, "duration", t->end - t->begin);
				an_mi_named(&mi, "syscall", "name", ksys_str(&ss->sys, t->name));
				an_mi_process(&mi, t->comm, -1, t->tid);
				an_mi_number(&mi, "number", t->ret);
				an_mi_row_end(&mi);
			}
			an_mi_table_end(&mi);
		}
		if (an_mi_end(&mi))
			status = AN_FAIL;
	} else {
		fprintf(run->out, "\nTotal syscalls: %llu\n", (unsigned long long)total_calls);
		if (ss->ntop)
			print_top_text(ss);
	}
	if (sb.failed || rv.failed)
		status = AN_FAIL;
	strbuf_free(&sb);
	strbuf_free(&rv);
	free(order);
	free(refs);
	if (status != AN_OK)
		snprintf(run->err, run->errlen, "out of memory");
	return status;
oom:
	free(order);
	free(refs);
	snprintf(run->err, run->errlen, "out of memory");
	return AN_FAIL;
}

/* The most frequent first, then by name. */
static int cmp_hist(const void *a, const void *b, void *ctx)
{
	const struct sc_hist *x = *(const struct sc_hist *const *)a;
	const struct sc_hist *y = *(const struct sc_hist *const *)b;

	if (x->d.count != y->d.count)
		return x->d.count > y->d.count ? -1 : 1;
	return strcmp(ksys_str(ctx, x->name), ksys_str(ctx, y->name));
}

static void html_stat(struct an_html_stat *r, const char *label, const struct an_durstats *d)
{
	*r = (struct an_html_stat){.label = label,
				   .count = d->count,
				   .min = (double)d->min,
				   .avg = an_durstats_avg(d),
				   .max = (double)d->max,
				   .has_stdev = d->count >= 2};
	if (r->has_stdev)
		an_durstats_stdev(d, &r->stdev);
}

static void html_hist(struct an_html *page, const char *title, const char *key,
		      const struct sc_hist *sh)
{
	struct an_html_bin bins[AN_LOGHIST_MAX_BINS];
	size_t n = an_loghist_bins(&sh->h, HTML_BINS, bins);

	if (n)
		an_html_hist(page, title, key, bins, n, NULL, 0);
}

/*
 * --html: per system call (all threads) and for all of them, the statistics
 * and a histogram (log-linear bins: durations span nanoseconds to seconds).
 */
static int html(void *an, struct an_html *page)
{
	struct sysstats *ss = an;
	struct sc_hist **order = malloc((ss->nhists + 1) * sizeof(*order));
	struct an_html_stat *rows = malloc((ss->nhists + 1) * sizeof(*rows));
	char title[300];

	if (!order || !rows || ss->failed || ss->all.h.failed) {
		free(order);
		free(rows);
		return -1;
	}
	for (size_t i = 0; i < ss->nhists; i++)
		order[i] = &ss->hists[i];
	qsort_r(order, ss->nhists, sizeof(*order), cmp_hist, &ss->sys);
	html_stat(&rows[0], "all", &ss->all.d);
	for (size_t i = 0; i < ss->nhists; i++)
		html_stat(&rows[i + 1], ksys_str(&ss->sys, order[i]->name), &order[i]->d);
	an_html_stats(page, "System call durations, all threads", "System call", rows,
		      ss->nhists + 1);
	html_hist(page, "All system calls", "all", &ss->all);
	for (size_t i = 0; i < ss->nhists && i < HTML_MAX_CALLS; i++) {
		const char *name = ksys_str(&ss->sys, order[i]->name);

		snprintf(title, sizeof(title), "System call %s", name);
		html_hist(page, title, name, order[i]);
	}
	if (ss->nhists > HTML_MAX_CALLS) {
		snprintf(title, sizeof(title),
			 "%zu less frequent system calls have no histogram of their own (in "
			 "the table and in all calls').",
			 ss->nhists - HTML_MAX_CALLS);
		an_html_note(page, title);
	}
	free(order);
	free(rows);
	return 0;
}

const struct an_def an_syscallstats_def = {
    .name = "syscallstats",
    .summary = "system calls per thread: durations, return values (as lttng-syscallstats)",
    .needs = 1u << KEV_SYSCALL_EXIT,
    .needs_names = "syscall_entry_*/syscall_exit_*",
    .record_hint = "trax enable-event -k --syscall -a && trax enable-event -k "
		   "sched_switch,sched_process_fork,lttng_statedump_process_state",
    .create = create,
    .destroy = destroy,
    .state_event = state_event,
    .report = report,
    .html = html,
};
