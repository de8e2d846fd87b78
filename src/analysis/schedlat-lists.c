/*
 * schedlat-lists.c - schedlatency's lists (schedlat.h), made from every
 * sample read back from disk in one pass each, as lttng-schedtop,
 * lttng-schedlog and lttng-schedfreq 0.6.1 print them
 * (docs/analyses-reference.md section 5; cli/sched.py): the log in the
 * order of the switches, the top by latency decreasing (ties: the first
 * first; exactly --top rows), 20 buckets from the minimum to the
 * maximum of each group. Threads are named by what the state knows of
 * them at the end (lttng-analyses prints its thread objects then).
 * Memory: --top samples for the top, 20 counters per row for --freq; the
 * text is written out as it grows (the log is as long as the samples).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/schedlat.h"

struct ranked {
	struct sl_sample x;
	uint64_t seq;
};

/* a ranks after b: a shorter latency, or as long and later */
static int after(const struct ranked *a, const struct ranked *b)
{
	int64_t la = a->x.sw - a->x.wakeup, lb = b->x.sw - b->x.wakeup;

	return la != lb ? la < lb : a->seq > b->seq;
}

/* the heap's root is the sample that ranks last */
static void sift_down(struct ranked *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct ranked t;

		if (l < n && after(&h[l], &h[m]))
			m = l;
		if (r < n && after(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void sift_up(struct ranked *h, size_t i)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct ranked t;

		if (!after(&h[i], &h[p]))
			return;
		t = h[i];
		h[i] = h[p];
		h[p] = t;
		i = p;
	}
}

static int cmp_rank(const void *a, const void *b)
{
	return after(a, b) ? 1 : after(b, a) ? -1 : 0;
}

static void pad(struct strbuf *sb, const char *s, size_t w, int right)
{
	if (right)
		an_pad_right(sb, s, w);
	else
		an_pad_left(sb, s, w);
}

static void row(struct schedlat *sl, const struct sl_sample *x, struct an_mi *mi, struct strbuf *sb,
		int multi)
{
	struct an_run *run = sl->run;
	struct kthread *wakee = kstate_thread(&run->st, x->wakee);
	struct kthread *waker = x->waker >= 0 ? kstate_thread(&run->st, x->waker) : NULL;
	int64_t lat = x->sw - x->wakeup;
	char a[64], b[64], s[KSTATE_COMM_MAX + 48];

	if (mi) {
		an_mi_row(mi);
		an_mi_number(mi, "timestamp", x->wakeup);
		an_mi_number(mi, "timestamp", x->sw);
		an_mi_number(mi, "duration", lat);
		an_mi_number(mi, "number", x->prio);
		an_mi_cpu(mi, x->cpu);
		an_mi_process(mi, wakee ? wakee->comm : "", wakee ? wakee->pid : -1, x->wakee);
		if (waker)
			an_mi_process(mi, waker->comm, waker->pid, waker->tid);
		else
			an_mi_null(mi);
		an_mi_row_end(mi);
		return;
	}
	strbuf_puts(sb, "[");
	pad(sb, an_format_time(a, sizeof(a), x->wakeup, multi, run->o->gmt), 18, 0);
	strbuf_puts(sb, ", ");
	pad(sb, an_format_time(b, sizeof(b), x->sw, multi, run->o->gmt), 18, 0);
	strbuf_puts(sb, "] ");
	sl_us(s, sizeof(s), (double)lat);
	pad(sb, s, 15, 1);
	strbuf_puts(sb, " ");
	snprintf(s, sizeof(s), "%lld", (long long)x->prio);
	pad(sb, s, 10, 1);
	strbuf_puts(sb, "  ");
	snprintf(s, sizeof(s), "%d", x->cpu);
	pad(sb, s, 3, 1);
	strbuf_puts(sb, "   ");
	snprintf(s, sizeof(s), "%s (%lld)", wakee ? wakee->comm : "", (long long)x->wakee);
	pad(sb, s, 25, 0);
	strbuf_puts(sb, "  ");
	if (waker)
		snprintf(s, sizeof(s), "%s (%lld)", waker->comm, (long long)waker->tid);
	else
		snprintf(s, sizeof(s), "Unknown (N/A)");
	pad(sb, s, 25, 0);
	strbuf_puts(sb, "\n");
}

/* The text so far written out, once it is long: the log does not stay in memory. */
static void flush_text(struct schedlat *sl, struct strbuf *sb)
{
	if (!sb || sb->len < 65536 || sb->failed)
		return;
	fwrite(sb->buf, 1, sb->len, sl->run->out);
	strbuf_reset(sb);
}

int sl_list(struct schedlat *sl, int top, struct an_mi *mi, struct strbuf *sb)
{
	struct an_run *run = sl->run;
	/* --top N: lttng-schedtop --limit N (rows[:N]) */
	uint64_t want = run->o->top > 0 ? (uint64_t)run->o->top : 0;
	size_t cap = top ? (size_t)(want < sl->nsamples ? want : sl->nsamples) : 0;
	struct ranked *heap = NULL, cur;
	const struct sl_sample *p;
	size_t n = 0;
	int multi = an_multi_day(run);

	if (!sl->samples || an_spool_rewind(sl->samples))
		return -1;
	if (top && cap && !(heap = malloc(cap * sizeof(*heap))))
		return -1;
	if (mi)
		an_mi_table(mi, top ? "top" : "log", NULL, run->period_begin, run->last_ts);
	else {
		strbuf_puts(sb, top ? "\nScheduling top\n" : "\nScheduling log\n");
		strbuf_puts(sb,
			    "Wakeup               Switch                 Latency (us)   Priority  "
			    "CPU   Wakee                      Waker                    \n");
	}
	for (uint64_t seq = 0; (p = an_spool_next(sl->samples)); seq++) {
		cur.x = *p;
		if (!top) {
			row(sl, &cur.x, mi, sb, multi);
			flush_text(sl, sb);
			continue;
		}
		if (!cap)
			continue;
		cur.seq = seq;
		if (n < cap) {
			heap[n] = cur;
			sift_up(heap, n++);
		} else if (after(&heap[0], &cur)) {
			heap[0] = cur;
			sift_down(heap, n, 0);
		}
	}
	if (*an_spool_error(sl->samples)) {
		free(heap);
		return -1;
	}
	if (top) {
		qsort(heap, n, sizeof(*heap), cmp_rank);
		for (size_t i = 0; i < n; i++)
			row(sl, &heap[i].x, mi, sb, multi);
	}
	if (mi)
		an_mi_table_end(mi);
	free(heap);
	return 0;
}

/* A group's buckets, as _fill_freq_result_table() computes them (in µs, floats). */
struct bounds {
	double min, step;
	int ok; /* step != 0 */
};

static struct bounds bounds_of(const struct schedlat *sl, const struct an_durstats *d)
{
	const struct an_options *o = sl->run->o;
	struct bounds b;
	/* --min/--max were made ns (* 1000) and are made µs again (/ 1000) */
	double min = o->has_min ? o->min_us * 1000 : (double)d->min;
	double max = o->has_max ? o->max_us * 1000 : (double)d->max;

	b.min = min / 1000;
	b.step = (max / 1000 - b.min) / SL_FREQ_BUCKETS;
	b.ok = b.step != 0;
	return b;
}

static void count(const struct schedlat *sl, const struct an_durstats *d, uint64_t *counts,
		  int64_t lat)
{
	struct bounds b = bounds_of(sl, d);
	const struct an_options *o = sl->run->o;
	double us = (double)lat / 1000, max;
	long long i;

	if (!b.ok)
		return;
	i = (long long)((us - b.min) / b.step);
	if (i >= SL_FREQ_BUCKETS) {
		/* the maximum goes in the last bucket, anything beyond nowhere */
		max = (o->has_max ? o->max_us * 1000 : (double)d->max) / 1000;
		if (us == max)
			counts[SL_FREQ_BUCKETS - 1]++;
		return;
	}
	if (i < 0) /* (below --min: filtered before; Python would wrap around) */
		return;
	counts[i]++;
}

static void freq_table(struct schedlat *sl, const struct an_durstats *d, const uint64_t *counts,
		       const char *subtitle, struct an_mi *mi, struct strbuf *sb)
{
	struct bounds b = bounds_of(sl, d);
	char title[128];
	uint64_t maxc = 0;
	size_t vlen = 1;

	if (!b.ok)
		return; /* no rows: not printed, dropped from the document */
	if (mi) {
		if (subtitle)
			snprintf(title, sizeof(title),
				 "Scheduling latency frequency distribution [%s]", subtitle);
		an_mi_table(mi, "freq", subtitle ? title : NULL, sl->run->period_begin,
			    sl->run->last_ts);
		for (int i = 0; i < SL_FREQ_BUCKETS; i++) {
			an_mi_row(mi);
			an_mi_float(mi, "duration", (i * b.step + b.min) * 1000);
			an_mi_float(mi, "duration", ((i + 1) * b.step + b.min) * 1000);
			an_mi_number(mi, "number", (int64_t)counts[i]);
			an_mi_row_end(mi);
		}
		an_mi_table_end(mi);
		return;
	}
	for (int i = 0; i < SL_FREQ_BUCKETS; i++) {
		char v[32];
		size_t l;

		if (counts[i] > maxc)
			maxc = counts[i];
		l = (size_t)snprintf(v, sizeof(v), "%llu", (unsigned long long)counts[i]);
		if (l > vlen)
			vlen = l;
	}
	strbuf_printf(sb, "Scheduling latency frequency distribution - %s (\xc2\xb5s)\n",
		      subtitle ? subtitle : "None");
	for (int i = 0; i < 80; i++)
		strbuf_puts(sb, "#");
	strbuf_puts(sb, "\n");
	for (int i = 0; i < SL_FREQ_BUCKETS; i++) {
		int w = maxc ? (int)(72 * (double)counts[i] / (double)maxc) : 0;
		char v[32];

		strbuf_printf(sb, "%7.3f ", ((i * b.step + b.min) * 1000) / 1000);
		for (int k = 0; k < w; k++)
			strbuf_puts(sb, "\xe2\x96\x88");
		for (int k = w; k < 72; k++)
			strbuf_puts(sb, " ");
		strbuf_puts(sb, " ");
		snprintf(v, sizeof(v), "%llu", (unsigned long long)counts[i]);
		pad(sb, v, vlen, 1);
		strbuf_puts(sb, "\n");
	}
	strbuf_puts(sb, "\n");
}

static int cmp_tid(const void *a, const void *b)
{
	const struct sl_thread *x = *(const struct sl_thread *const *)a;
	const struct sl_thread *y = *(const struct sl_thread *const *)b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

int sl_freq_count(struct schedlat *sl)
{
	struct an_run *run = sl->run;
	const struct sl_sample *p;

	if (sl->counted)
		return 0;
	if (!sl->samples || an_spool_rewind(sl->samples))
		return -1;
	for (size_t i = 0; i < sl->nthreads; i++)
		if (sl->threads[i].lat.count && !sl->threads[i].counts &&
		    !(sl->threads[i].counts = calloc(SL_FREQ_BUCKETS, sizeof(uint64_t))))
			return -1;
	while ((p = an_spool_next(sl->samples))) {
		struct sl_sample x = *p;
		struct kthread *t;
		struct sl_thread *r;

		count(sl, &sl->total, sl->total_counts, x.sw - x.wakeup);
		t = kstate_thread(&run->st, x.wakee);
		r = t && t->slot < sl->nthreads ? &sl->threads[t->slot] : NULL;
		if (r && r->counts)
			count(sl, &r->lat, r->counts, x.sw - x.wakeup);
		for (size_t g = 0; g < sl->ngroups; g++)
			if (sl->groups[g].known == x.prio_known &&
			    (!x.prio_known || sl->groups[g].prio == x.prio)) {
				count(sl, &sl->groups[g].lat, sl->groups[g].counts,
				      x.sw - x.wakeup);
				break;
			}
	}
	if (*an_spool_error(sl->samples))
		return -1;
	sl->counted = 1;
	return 0;
}

size_t sl_freq_bins(const struct schedlat *sl, const struct an_durstats *d, const uint64_t *counts,
		    struct an_html_bin *bins)
{
	struct bounds b = bounds_of(sl, d);

	if (!b.ok)
		return 0;
	for (int i = 0; i < SL_FREQ_BUCKETS; i++)
		bins[i] = (struct an_html_bin){(i * b.step + b.min) * 1000,
					       ((i + 1) * b.step + b.min) * 1000, counts[i]};
	return SL_FREQ_BUCKETS;
}

int sl_freq(struct schedlat *sl, const struct sl_wants *w, struct an_mi *mi, struct strbuf *sb)
{
	struct sl_thread **byid = NULL;
	size_t n = 0;
	char sub[64];

	if (sl_freq_count(sl))
		return -1;
	if (w->total)
		freq_table(sl, &sl->total, sl->total_counts, NULL, mi, sb);
	if (w->per_tid) {
		if (!(byid = malloc((sl->nthreads + 1) * sizeof(*byid))))
			return -1;
		for (size_t i = 0; i < sl->nthreads; i++)
			if (sl->threads[i].lat.count)
				byid[n++] = &sl->threads[i];
		qsort(byid, n, sizeof(*byid), cmp_tid);
		for (size_t i = 0; i < n; i++) {
			snprintf(sub, sizeof(sub), "TID: %lld", (long long)byid[i]->tid);
			freq_table(sl, &byid[i]->lat, byid[i]->counts, sub, mi, sb);
		}
		free(byid);
	}
	if (w->per_prio)
		for (size_t g = 0; g < sl->ngroups; g++) {
			snprintf(sub, sizeof(sub), "Priority: %lld", (long long)sl->groups[g].prio);
			freq_table(sl, &sl->groups[g].lat, sl->groups[g].counts, sub, mi, sb);
		}
	return 0;
}
