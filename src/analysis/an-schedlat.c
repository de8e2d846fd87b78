/*
 * an-schedlat.c - `trax analyze schedlatency`: the latency from a
 * thread's wakeup to its switch-in, over all wakeups, per thread and per
 * priority, exactly as lttng-schedstats 0.6.1 computes and prints it
 * (docs/analyses-reference.md sections 5 and 8): the first wakeup event
 * since the thread last ran counts (kstate), per-TID rows sorted by the
 * lower-cased name the thread had when it entered the table (as a wakee,
 * or as a waker), priorities as cputop's.
 *
 * Memory: a row per thread that woke or was woken, a row per priority;
 * the samples themselves are not kept (durstats.h).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/schedlat.h"

static struct sl_thread *row_of(struct schedlat *sl, const struct kthread *t)
{
	return t->slot < sl->nthreads ? &sl->threads[t->slot] : NULL;
}

static void add_prio(struct schedlat *sl, struct an_prio **prios, size_t *n, int known,
		     int64_t prio)
{
	if (an_prio_add(prios, n, known, prio))
		sl->failed = 1;
}

/* The row of thread t, entered with its current name and priority when new. */
static struct sl_thread *row_get(struct schedlat *sl, struct kthread *t)
{
	struct sl_thread *r = row_of(sl, t);

	if (r)
		return r;
	if (sl->nthreads == sl->cap) {
		size_t cap = sl->cap ? sl->cap * 2 : 64;
		struct sl_thread *v = realloc(sl->threads, cap * sizeof(*v));

		if (!v) {
			sl->failed = 1;
			return NULL;
		}
		sl->threads = v;
		sl->cap = cap;
	}
	r = &sl->threads[sl->nthreads];
	memset(r, 0, sizeof(*r));
	r->tid = t->tid;
	memcpy(r->comm, t->comm, sizeof(r->comm));
	/* str.lower() of the ASCII letters (comms are ASCII in practice) */
	for (size_t i = 0; i < sizeof(r->key) && r->comm[i]; i++)
		r->key[i] =
		    r->comm[i] >= 'A' && r->comm[i] <= 'Z' ? r->comm[i] - 'A' + 'a' : r->comm[i];
	an_durstats_init(&r->lat);
	r->order = sl->nthreads;
	t->slot = (uint32_t)sl->nthreads++;
	add_prio(sl, &r->prios, &r->nprios, t->has_prio, t->prio);
	return r;
}

static struct sl_group *group_get(struct schedlat *sl, int known, int64_t prio)
{
	struct sl_group *v;

	for (size_t i = 0; i < sl->ngroups; i++)
		if (sl->groups[i].known == known && (!known || sl->groups[i].prio == prio))
			return &sl->groups[i];
	v = realloc(sl->groups, (sl->ngroups + 1) * sizeof(*v));
	if (!v) {
		sl->failed = 1;
		return NULL;
	}
	sl->groups = v;
	v = &v[sl->ngroups++];
	memset(v, 0, sizeof(*v));
	v->known = known;
	v->prio = prio;
	an_durstats_init(&v->lat);
	return v;
}

static void on_switch(void *ctx, const struct kswitch *sw)
{
	struct schedlat *sl = ctx;
	struct kthread *wakee = sw->wakee;
	struct sl_thread *row;
	struct sl_group *g;
	int64_t lat;

	if (!an_thread_passes(sl->run, wakee) || !an_cpu_passes(sl->run, sw->cpu) ||
	    !wakee->has_wakeup)
		return;
	lat = sw->ts - wakee->last_wakeup;
	if ((sl->run->o->has_min && (double)lat < sl->min_ns) ||
	    (sl->run->o->has_max && (double)lat > sl->max_ns))
		return;
	/* the waker enters the table first (its row counts only if it is woken later) */
	if (sw->waker && !row_get(sl, sw->waker))
		return;
	if (!(row = row_get(sl, wakee)))
		return;
	an_durstats_add(&row->lat, lat);
	an_durstats_add(&sl->total, lat);
	if ((g = group_get(sl, wakee->has_prio, wakee->prio)))
		an_durstats_add(&g->lat, lat);
	if (sl->samples) {
		struct sl_sample x = {
		    .wakeup = wakee->last_wakeup,
		    .sw = sw->ts,
		    .wakee = wakee->tid,
		    .waker = sw->waker ? sw->waker->tid : -1,
		    .prio = wakee->prio,
		    .prio_known = wakee->has_prio,
		    .cpu = (int32_t)sw->cpu,
		};

		if (an_spool_add(sl->samples, &x)) {
			sl->failed = 1;
			snprintf(sl->run->err, sl->run->errlen, "%s", an_spool_error(sl->samples));
		}
		sl->nsamples++;
	}
}

static void on_prio(void *ctx, int64_t ts, struct kthread *t, int64_t prio)
{
	struct schedlat *sl = ctx;
	struct sl_thread *r = row_of(sl, t);

	(void)ts;
	if (r)
		add_prio(sl, &r->prios, &r->nprios, 1, prio);
}

static const struct kstate_hooks hooks = {
    .prio_changed = on_prio,
    .sched_switch = on_switch,
};

static void *create(struct an_run *run)
{
	struct schedlat *sl = calloc(1, sizeof(*sl));

	if (sl) {
		sl->run = run;
		an_durstats_init(&sl->total);
		/* lttng-analyses: float microseconds times 1000, compared with integer ns */
		sl->min_ns = run->o->min_us * 1000;
		sl->max_ns = run->o->max_us * 1000;
		/* the lists need every sample: in a spool (bounded memory, the rest on disk) */
		if ((run->o->top_list || run->o->log || run->o->freq || run->o->html) &&
		    !(sl->samples = an_spool_new(sizeof(struct sl_sample), NULL))) {
			free(sl);
			return NULL;
		}
	}
	return sl;
}

static void destroy(void *an)
{
	struct schedlat *sl = an;

	for (size_t i = 0; i < sl->nthreads; i++) {
		free(sl->threads[i].prios);
		free(sl->threads[i].counts);
	}
	an_spool_free(sl->samples);
	free(sl->threads);
	free(sl->groups);
	free(sl);
}

static int cmp_name(const void *a, const void *b)
{
	const struct sl_thread *x = *(const struct sl_thread *const *)a;
	const struct sl_thread *y = *(const struct sl_thread *const *)b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_group(const void *a, const void *b)
{
	const struct sl_group *x = a, *y = b;

	if (x->known != y->known)
		return x->known - y->known;
	return x->prio < y->prio ? -1 : x->prio > y->prio;
}

/* The five statistics as text: count, min, avg, max, stdev ('?' below 2 samples). */
struct sl_text {
	char count[32], min[48], avg[48], max[48], stdev[48];
};

static void text_of(const struct an_durstats *d, struct sl_text *t)
{
	double sd;

	snprintf(t->count, sizeof(t->count), "%llu", (unsigned long long)d->count);
	sl_us(t->min, sizeof(t->min), d->count ? (double)d->min : 0);
	sl_us(t->avg, sizeof(t->avg), an_durstats_avg(d));
	sl_us(t->max, sizeof(t->max), d->count ? (double)d->max : 0);
	if (an_durstats_stdev(d, &sd))
		snprintf(t->stdev, sizeof(t->stdev), "?");
	else
		sl_us(t->stdev, sizeof(t->stdev), sd);
}

/* The MI cells count, min, avg, max, stdev (an empty total: integer zeros). */
static void mi_stats(struct an_mi *mi, const struct an_durstats *d)
{
	double sd;

	an_mi_number(mi, "number", (int64_t)d->count);
	an_mi_number(mi, "duration", d->count ? d->min : 0);
	if (d->count)
		an_mi_float(mi, "duration", an_durstats_avg(d));
	else
		an_mi_number(mi, "duration", 0);
	an_mi_number(mi, "duration", d->count ? d->max : 0);
	if (an_durstats_stdev(d, &sd))
		an_mi_unknown(mi);
	else
		an_mi_float(mi, "duration", sd);
}

static void line(struct strbuf *sb, const char *s, size_t w, int right)
{
	if (right)
		an_pad_right(sb, s, w);
	else
		an_pad_left(sb, s, w);
}

static void text_total(struct strbuf *sb, const struct an_durstats *d)
{
	struct sl_text t;

	text_of(d, &t);
	strbuf_puts(sb, "\nScheduling latency stats (total) (us)\n");
	strbuf_puts(sb, "Count        Min          Avg          Max          Stdev       \n");
	line(sb, t.count, 12, 0);
	strbuf_puts(sb, " ");
	line(sb, t.min, 12, 0);
	strbuf_puts(sb, " ");
	line(sb, t.avg, 12, 0);
	strbuf_puts(sb, " ");
	line(sb, t.max, 12, 0);
	strbuf_puts(sb, " ");
	line(sb, t.stdev, 12, 0);
	strbuf_puts(sb, "\n");
}

/* count, min, avg, max, stdev right-aligned, as the per-TID and per-prio rows have them */
static void text_cells(struct strbuf *sb, const struct an_durstats *d)
{
	struct sl_text t;

	text_of(d, &t);
	line(sb, t.count, 8, 1);
	strbuf_puts(sb, "  ");
	line(sb, t.min, 12, 1);
	strbuf_puts(sb, "  ");
	line(sb, t.avg, 12, 1);
	strbuf_puts(sb, "  ");
	line(sb, t.max, 12, 1);
	strbuf_puts(sb, "  ");
	line(sb, t.stdev, 12, 1);
}

static void text_per_tid(struct strbuf *sb, struct sl_thread **order, size_t n, struct strbuf *pl)
{
	if (!n)
		return;
	strbuf_puts(sb, "\nScheduling latency stats (per-TID) (us)\n");
	strbuf_puts(sb,
		    "Process                      Count           Min           Avg           Max "
		    "        Stdev   Priorities\n");
	for (size_t i = 0; i < n; i++) {
		char name[KSTATE_COMM_MAX + 32];

		snprintf(name, sizeof(name), "%s (%lld)", order[i]->comm, (long long)order[i]->tid);
		strbuf_reset(pl);
		an_prio_format(order[i]->prios, order[i]->nprios, pl);
		line(sb, name, 25, 0);
		strbuf_puts(sb, " ");
		text_cells(sb, &order[i]->lat);
		strbuf_puts(sb, "   ");
		strbuf_puts(sb, pl->buf ? pl->buf : "[]");
		strbuf_puts(sb, "\n");
	}
}

static void text_per_prio(struct strbuf *sb, const struct schedlat *sl)
{
	if (!sl->ngroups)
		return;
	strbuf_puts(sb, "\nScheduling latency stats (per-prio) (us)\n");
	strbuf_puts(sb, "Prio    Count           Min           Avg           Max         Stdev\n");
	for (size_t i = 0; i < sl->ngroups; i++) {
		char prio[32];

		if (sl->groups[i].known)
			snprintf(prio, sizeof(prio), "%lld", (long long)sl->groups[i].prio);
		else
			snprintf(prio, sizeof(prio), "None");
		line(sb, prio, 4, 1);
		strbuf_puts(sb, " ");
		text_cells(sb, &sl->groups[i].lat);
		strbuf_puts(sb, "\n");
	}
}

static void mi_tables(struct an_mi *mi, struct schedlat *sl, const struct sl_wants *w,
		      struct sl_thread **order, size_t n, struct strbuf *pl)
{
	int64_t begin = sl->run->period_begin, end = sl->run->last_ts;

	if (w->total) {
		an_mi_table(mi, "total_stats", NULL, begin, end);
		an_mi_row(mi);
		mi_stats(mi, &sl->total);
		an_mi_row_end(mi);
		an_mi_table_end(mi);
	}
	if (w->per_tid) {
		an_mi_table(mi, "per_tid_stats", NULL, begin, end);
		for (size_t i = 0; i < n; i++) {
			strbuf_reset(pl);
			an_prio_format(order[i]->prios, order[i]->nprios, pl);
			an_mi_row(mi);
			an_mi_process(mi, order[i]->comm, -1, order[i]->tid);
			mi_stats(mi, &order[i]->lat);
			an_mi_string(mi, pl->buf ? pl->buf : "[]");
			an_mi_row_end(mi);
		}
		an_mi_table_end(mi);
	}
	if (w->per_prio) {
		an_mi_table(mi, "per_prio_stats", NULL, begin, end);
		for (size_t i = 0; i < sl->ngroups; i++) {
			an_mi_row(mi);
			an_mi_number(mi, "number", sl->groups[i].prio);
			mi_stats(mi, &sl->groups[i].lat);
			an_mi_row_end(mi);
		}
		an_mi_table_end(mi);
	}
}

static int report(void *an)
{
	struct schedlat *sl = an;
	struct an_run *run = sl->run;
	const struct an_options *o = run->o;
	struct sl_wants w = {
	    .top = o->top_list,
	    .log = o->log,
	    .freq = o->freq,
	    .total = o->total,
	    .per_tid = o->per_tid || !(o->total || o->per_prio),
	    .per_prio = o->per_prio,
	};
	struct sl_thread **order = NULL;
	struct strbuf sb, pl;
	size_t nrows = 0;
	int status = AN_OK, bad = 0;

	/* lttng-schedstats, -schedtop, -schedlog, -schedfreq: the statistics unless another list */
	w.stats = o->stats || !(o->top_list || o->log || o->freq);
	if (!(run->kev.kinds_seen & (1u << KEV_SCHED_WAKEUP))) {
		snprintf(run->err, run->errlen,
			 "schedlatency needs sched_waking or sched_wakeup events, and the trace "
			 "has none (in the time range); record them with: %s",
			 run->def->record_hint);
		return AN_FAIL;
	}
	if (sl->failed)
		goto oom;
	if (!run->started) {
		if (o->json)
			fputs("{\"results\": []}\n", run->out);
		return AN_OK;
	}
	order = malloc((sl->nthreads + 1) * sizeof(*order));
	if (!order)
		goto oom;
	for (size_t i = 0; i < sl->nthreads; i++)
		if (sl->threads[i].lat.count)
			order[nrows++] = &sl->threads[i];
	qsort(order, nrows, sizeof(*order), cmp_name);
	qsort(sl->groups, sl->ngroups, sizeof(*sl->groups), cmp_group);
	strbuf_init(&sb);
	strbuf_init(&pl);

	if (o->json) {
		struct an_mi mi;

		an_mi_begin(&mi, run->out);
		if (w.log)
			bad |= sl_list(sl, 0, &mi, NULL);
		if (w.top)
			bad |= sl_list(sl, 1, &mi, NULL);
		if (w.stats)
			mi_tables(&mi, sl, &w, order, nrows, &pl);
		if (w.freq)
			bad |= sl_freq(sl, &w, &mi, NULL);
		if (bad || pl.failed || an_mi_end(&mi))
			goto fail;
		goto done;
	}
	an_print_timerange(run, run->period_begin, run->last_ts);
	if (w.stats) {
		if (w.total)
			text_total(&sb, &sl->total);
		if (w.per_tid)
			text_per_tid(&sb, order, nrows, &pl);
		if (w.per_prio)
			text_per_prio(&sb, sl);
	}
	if (w.freq)
		bad |= sl_freq(sl, &w, NULL, &sb);
	if (w.log)
		bad |= sl_list(sl, 0, NULL, &sb);
	if (w.top)
		bad |= sl_list(sl, 1, NULL, &sb);
	if (bad || sb.failed || pl.failed)
		goto fail;
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, run->out);
	goto done;
fail:
	status = AN_FAIL;
	if (sl->samples && *an_spool_error(sl->samples))
		snprintf(run->err, run->errlen, "%s", an_spool_error(sl->samples));
	else
		snprintf(run->err, run->errlen, "out of memory");
done:
	strbuf_free(&sb);
	strbuf_free(&pl);
	free(order);
	return status;
oom:
	if (sl->samples && *an_spool_error(sl->samples))
		snprintf(run->err, run->errlen, "%s", an_spool_error(sl->samples));
	else
		snprintf(run->err, run->errlen, "out of memory");
	free(order);
	return AN_FAIL;
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

/* One row's histogram: --freq's buckets, or one bin when all its latencies are the same. */
static void html_hist(struct schedlat *sl, struct an_html *page, const char *key,
		      const struct an_durstats *d, const uint64_t *counts)
{
	struct an_html_bin bins[SL_FREQ_BUCKETS];
	size_t n = sl_freq_bins(sl, d, counts, bins);
	char title[160];

	if (!d->count)
		return;
	if (!n)
		bins[n++] = (struct an_html_bin){(double)d->min, (double)d->max, d->count};
	snprintf(title, sizeof(title), "Scheduling latency frequency distribution [%s]", key);
	an_html_hist(page, title, key, bins, n, NULL, 0);
}

/* --html: total (and per priority) statistics and histograms. */
static int html(void *an, struct an_html *page)
{
	struct schedlat *sl = an;
	struct an_html_stat *rows;
	char(*names)[64];
	size_t n = 0;

	if (!sl->run->started)
		return 0;
	if (sl_freq_count(sl))
		return -1;
	rows = malloc((sl->ngroups + 1) * sizeof(*rows));
	names = malloc((sl->ngroups + 1) * sizeof(*names));
	if (!rows || !names) {
		free(rows);
		free(names);
		return -1;
	}
	html_stat(&rows[n++], "all", &sl->total);
	for (size_t g = 0; sl->run->o->per_prio && g < sl->ngroups; g++) {
		snprintf(names[n], sizeof(names[n]), "Priority: %lld",
			 (long long)sl->groups[g].prio);
		html_stat(&rows[n], names[n], &sl->groups[g].lat);
		n++;
	}
	an_html_stats(page, "Scheduling latency statistics", "Wakees", rows, n);
	html_hist(sl, page, "all", &sl->total, sl->total_counts);
	for (size_t g = 0; sl->run->o->per_prio && g < sl->ngroups; g++)
		html_hist(sl, page, names[g + 1], &sl->groups[g].lat, sl->groups[g].counts);
	free(rows);
	free(names);
	return 0;
}

const struct an_def an_schedlat_def = {
    .name = "schedlatency",
    .summary = "wakeup to switch-in latency: total, per thread, per priority (as "
	       "lttng-schedstats)",
    .needs = 1u << KEV_SCHED_SWITCH,
    .needs_names = "sched_switch",
    .record_hint = "trax enable-event -k sched_switch,sched_waking,sched_wakeup,"
		   "sched_wakeup_new,sched_process_fork,lttng_statedump_process_state",
    .hooks = &hooks,
    .create = create,
    .destroy = destroy,
    .report = report,
    .html = html,
};
